import type { ChangeRequest } from '../../../src-shared/schemas/changeRequests'
import type { ContentUpdate } from '../../../src-shared/schemas/content'
import type { ChangeRequestRow } from '../../storage/repositories/changeRequestRepository'
import type { SpaceRow } from '../../storage/repositories/spaceRepository'
import { userRepository } from '../../storage/repositories/userRepository'
import { isOutdated } from '../commands/changeRequestMerger'
import type { ContentBatchResult } from '../commands/contentEditor'
import type { Ctx } from '../../workspace/context'
import { presentFile } from './content'
import { presentUser } from './user'

/** Change requests of one space; their authors are loaded in one query. */
export function presentChangeRequests(rows: ChangeRequestRow[], space: SpaceRow, ctx: Ctx): ChangeRequest[] {
  const users = ctx.repo(userRepository).getMany(rows.map((r) => r.created_by).filter((id): id is string => !!id))
  return rows.map((row) => {
    const cr: ChangeRequest = {
      object: 'change-request',
      id: row.id,
      number: row.number,
      status: row.status as ChangeRequest['status'],
      subject: row.subject,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      space: space.id,
      revision: row.revision_id,
      revisionInitial: row.revision_initial,
      comments: row.comments_open,
      outdated: isOutdated(row, space),
      urls: {
        app: ctx.appUrl(`/spaces/${space.id}/change-requests/${row.number}`),
        location: ctx.url(`/v1/spaces/${space.id}/change-requests/${row.id}`)
      }
    }
    const author = row.created_by ? users.get(row.created_by) : undefined
    if (author) cr.createdBy = presentUser(author, ctx)
    if (row.revision_merged_ancestor) cr.revisionMergedAncestor = row.revision_merged_ancestor
    if (row.revision_merged) cr.revisionMerged = row.revision_merged
    return cr
  })
}

export function presentChangeRequest(row: ChangeRequestRow, space: SpaceRow, ctx: Ctx): ChangeRequest {
  return presentChangeRequests([row], space, ctx)[0]!
}

/**
 * A content batch's answer with `compat=false`: the change request, each page the batch affected with the address
 * of its stored content in the change request, and the files it added.
 */
export function presentContentUpdate(result: ContentBatchResult, space: SpaceRow, ctx: Ctx): ContentUpdate {
  const { cr } = result
  const scope = { spaceId: space.id, revisionId: cr.revision_id, changeRequest: cr.number }
  const ref = (pageId: string) => ({
    object: 'page' as const,
    id: pageId,
    urls: { location: ctx.url(`/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}`) }
  })
  return {
    changeRequest: presentChangeRequest(cr, space, ctx),
    changes: result.pages.map((p) =>
      p.kind === 'created'
        ? { object: 'created_page', ...(p.ref === undefined ? {} : { ref: p.ref }), page: ref(p.pageId) }
        : p.kind === 'updated'
          ? { object: 'updated_page', page: ref(p.pageId) }
          : { object: 'deleted_page', page: p.pageId }
    ),
    insertedFiles: result.insertedFiles.map((f) => presentFile(ctx, scope, f))
  }
}
