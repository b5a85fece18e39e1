import type { FastifyRequest } from 'fastify'
import type { PageTree } from '../../../content/pageTree'
import { getRevision, type PageRecord, type RevisionRow } from '../../../content/revisions'
import type { SpaceRow } from '../../../storage/repositories/spaceRepository'
import type { Ctx } from '../../../workspace/context'
import type { ContentScope } from '../../presenters/content'
import type { SpaceAction } from '../../policies/space'
import { loadChangeRequest } from '../change-requests/loaders'
import { loadSpace } from '../spaces/loaders'

/** Content routes exist twice: on the space's primary content and on a change request's content. */
export const CONTENT_PREFIXES = ['/v1/spaces/:spaceId', '/v1/spaces/:spaceId/change-requests/:changeRequestId'] as const

export interface ResolvedContent {
  space: SpaceRow
  scope: ContentScope
  revision: RevisionRow
}

/** The revision a content route reads: the change request's head when the path names one, else the primary. */
export function resolveContent(ctx: Ctx, req: FastifyRequest, action: SpaceAction = 'view'): ResolvedContent {
  const params = req.params as { spaceId: string; changeRequestId?: string }
  if (params.changeRequestId !== undefined) {
    const { space, cr } = loadChangeRequest(ctx, params.spaceId, params.changeRequestId, action)
    return {
      space,
      scope: { spaceId: space.id, revisionId: cr.revision_id, changeRequest: cr.number },
      revision: getRevision(ctx.db, cr.revision_id)!
    }
  }
  const { space } = loadSpace(ctx, params.spaceId, action)
  return { space, scope: { spaceId: space.id, revisionId: space.revision_id! }, revision: getRevision(ctx.db, space.revision_id!)! }
}

/** Path parameters schema for a content route under either prefix. */
export function contentParams<T extends Record<string, unknown>>(prefix: (typeof CONTENT_PREFIXES)[number], extra: T) {
  const base: Record<string, unknown> = { spaceId: { type: 'string', maxLength: 100 } }
  if (prefix.includes(':changeRequestId')) base.changeRequestId = { type: 'string', maxLength: 100 }
  return {
    type: 'object',
    required: [...Object.keys(base), ...Object.keys(extra)],
    properties: { ...base, ...extra }
  } as const
}

/** The page at a path (its slugs joined by `/`; slashes at either end ignored) of a page tree. */
export function pageAtPath(tree: PageTree, pagePath: string): PageRecord | undefined {
  const wanted = pagePath.replace(/^\/+|\/+$/g, '')
  for (const [id, path] of tree.paths()) if (path === wanted) return tree.get(id)
  return undefined
}
