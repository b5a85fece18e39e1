import type { Role } from '../../../../src-shared/schemas/common'
import { spaceRepository, type SpaceRow } from '../../../storage/repositories/spaceRepository'
import type { Ctx } from '../../../workspace/context'
import { badRequest, notFound } from '../../../base/errors'
import { authorize, spaceRole } from '../../policies/access'
import { SPACE_ACTIONS, type SpaceAction } from '../../policies/space'
import { SPACE_RESTORE_WINDOW_MS } from '../../../workspace/workspace'

export function isPastRestoreWindow(space: SpaceRow, now: string): boolean {
  return !!space.deleted_at && Date.parse(now) - Date.parse(space.deleted_at) > SPACE_RESTORE_WINDOW_MS
}

/**
 * Loads a space and checks the caller may do `action` on it: 404 when unknown or invisible, 403 when the role
 * is too low. Deleted spaces answer 404 unless `includeDeleted` (GET and restore see the trash).
 */
export function loadSpace(
  ctx: Ctx,
  spaceId: string,
  action: SpaceAction,
  options: { includeDeleted?: boolean } = {}
): { space: SpaceRow; role: Role } {
  const space = ctx.repo(spaceRepository).get(spaceId)
  if (!space || isPastRestoreWindow(space, ctx.now) || (space.deleted_at && !options.includeDeleted)) throw notFound('Space')
  const role = authorize(spaceRole(ctx, space), SPACE_ACTIONS[action], 'Space')
  return { space, role }
}

/** A collection of `organizationId` named in a request body as `field`; 400 when there is none. */
export function collectionInOrg(ctx: Ctx, collectionId: string, organizationId: string, field: string) {
  const collection = ctx.repo(spaceRepository).parentCollection(collectionId)
  if (!collection || collection.organization_id !== organizationId) {
    throw badRequest(`${field}: no collection ${collectionId} in this organization`)
  }
  return collection
}
