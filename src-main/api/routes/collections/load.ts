import type { Role } from '../../../../src-shared/schemas/common'
import { collectionRepository, type CollectionRow } from '../../../storage/repositories/collectionRepository'
import type { Ctx } from '../../../workspace/context'
import { badRequest, notFound } from '../../../base/errors'
import { collectionRole } from '../../policies/access'
import { authorizeCollection, type CollectionAction } from '../../policies/collection'

/** The collection, when the caller may do `action` on it (404 unseen or unknown, 403 role too low). */
export function loadCollection(ctx: Ctx, collectionId: string, action: CollectionAction): { row: CollectionRow; role: Role } {
  const row = ctx.repo(collectionRepository).get(collectionId)
  if (!row) throw notFound('Collection')
  return { row, role: authorizeCollection(ctx, row, action) }
}

/**
 * A parent collection named in a body: it must exist in the organization and be visible to the caller. A bad
 * reference is a bad body (400), with the same message whether the collection is missing or hidden.
 */
export function parentCollection(ctx: Ctx, organizationId: string, parentId: string): CollectionRow {
  const parent = ctx.repo(collectionRepository).get(parentId)
  if (!parent || parent.organization_id !== organizationId || !collectionRole(ctx, parent)) {
    throw badRequest(`parent: no collection ${parentId} in this organization`)
  }
  return parent
}
