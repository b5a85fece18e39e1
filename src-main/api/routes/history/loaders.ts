import { getRevision, type RevisionRow } from '../../../content/revisions'
import type { SpaceRow } from '../../../storage/repositories/spaceRepository'
import type { Ctx } from '../../../workspace/context'
import { notFound } from '../../../base/errors'
import type { ContentScope } from '../../presenters/content'
import type { SpaceAction } from '../../policies/space'
import { loadSpace } from '../spaces/loaders'

/**
 * A revision of a space, after the caller's role on the space allows `action`: 404 for a space they cannot see,
 * an unknown revision, or another space's revision.
 */
export function loadRevision(
  ctx: Ctx,
  spaceId: string,
  revisionId: string,
  action: SpaceAction = 'view'
): { space: SpaceRow; revision: RevisionRow; scope: ContentScope } {
  const { space } = loadSpace(ctx, spaceId, action)
  const revision = getRevision(ctx.db, revisionId)
  if (!revision || revision.space_id !== space.id) throw notFound('Revision')
  return { space, revision, scope: { spaceId: space.id, revisionId: revision.id } }
}
