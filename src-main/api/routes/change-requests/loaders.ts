import type { Role } from '../../../../src-shared/schemas/common'
import { changeRequestRepository, type ChangeRequestRow } from '../../../storage/repositories/changeRequestRepository'
import type { SpaceRow } from '../../../storage/repositories/spaceRepository'
import type { Ctx } from '../../../workspace/context'
import { revisionsOfTags } from '../../../../src-shared/entityTags'
import { conflict, forbidden, notFound } from '../../../base/errors'
import type { SpaceAction } from '../../policies/space'
import { loadSpace } from '../spaces/loaders'

/** Content edits (change requests, batches, merges) are refused while the space is locked. */
export function assertEditable(space: SpaceRow): void {
  if (space.edit_mode === 'locked') throw forbidden('The space is locked: an admin must unlock it before its content can change')
}

/**
 * A merged change request is final and an archived one must be reopened first: both refuse edits, updates and
 * imports (409). `what` ends the sentence: "cannot be updated", "cannot change".
 */
export function assertOpenForChanges(cr: ChangeRequestRow, what: string): void {
  if (cr.status === 'merged') throw conflict(`A merged change request ${what}`)
  if (cr.status === 'archived') throw conflict(`An archived change request ${what}: reopen it first`)
}

/** A change request by id or number, after the caller's role on its space allows `action`. */
export function loadChangeRequest(
  ctx: Ctx,
  spaceId: string,
  ref: string,
  action: SpaceAction
): { space: SpaceRow; cr: ChangeRequestRow; role: Role } {
  const { space, role } = loadSpace(ctx, spaceId, action)
  const cr = ctx.repo(changeRequestRepository).find(space.id, ref)
  if (!cr) throw notFound('Change request')
  return { space, cr, role }
}

/**
 * The revision ids an `If-Match` header names, or undefined when there is none or it is `*` (any revision will
 * do). Content reads answer the revision they read as their ETag (entityTag).
 */
export function ifMatchRevisions(header: string | string[] | undefined): string[] | undefined {
  const revisions = revisionsOfTags(Array.isArray(header) ? header.join(',') : header)
  return revisions.length ? revisions : undefined
}
