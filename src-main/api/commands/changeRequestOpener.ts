import type { ChangeRequestRow } from '../../storage/repositories/changeRequestRepository'
import { changeRequestRepository } from '../../storage/repositories/changeRequestRepository'
import type { SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'

/** Opens a change request on the space's primary content (status `draft`), in the caller's transaction. */
export function openChangeRequest(ctx: Ctx, space: SpaceRow, subject: string): ChangeRequestRow {
  const crs = ctx.repo(changeRequestRepository)
  const cr = crs.create({ space_id: space.id, subject, created_by: ctx.actor.id, created_at: ctx.now, revision: space.revision_id! })
  crs.refreshSpaceCounters(space.id)
  return cr
}
