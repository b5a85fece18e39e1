import type { ChangeRequest } from '../../../src-shared/schemas/changeRequests'
import type { ChangeRequestRow } from '../../storage/repositories/changeRequestRepository'
import type { SpaceRow } from '../../storage/repositories/spaceRepository'
import { userRepository } from '../../storage/repositories/userRepository'
import { isOutdated } from '../commands/changeRequestMerger'
import type { Ctx } from '../../workspace/context'
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
