import type { CollectionRow } from '../../storage/repositories/collectionRepository'
import { collectionRepository } from '../../storage/repositories/collectionRepository'
import { customFieldRepository } from '../../storage/repositories/customFieldRepository'
import { spaceRepository } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'

/**
 * Moves a collection, its nested collections and every space in them (deleted ones too, so a restore stays in
 * one organization) to the root of another organization. Grants held by users or teams outside the target
 * are dropped, and so are values of the old organization's custom fields (fields are per organization). The
 * caller keeps a direct admin grant on the collection.
 * The caller has been authorized; runs inside the request's transaction.
 */
export function transferCollection(ctx: Ctx, input: { collection: CollectionRow; organizationId: string }): void {
  const { collection, organizationId } = input
  const collections = ctx.repo(collectionRepository)
  const ids = collections.subtree(collection.id)
  const spaceIds = collections.spaceIdsIn(ids)
  const position = ctx.repo(spaceRepository).nextPosition(organizationId, null)
  collections.setOrganization(ids, spaceIds, organizationId, ctx.now)
  collections.update(collection.id, { parent_id: null, position, updated_at: ctx.now })
  collections.dropForeignGrants(ids, spaceIds, organizationId)
  // The transferring admin stays admin of what they moved, whatever their role in the target.
  collections.setGrant(collection.id, 'user', ctx.actor.id, 'admin', ctx.now)
  ctx.repo(customFieldRepository).dropValuesOfOtherOrgs(spaceIds, organizationId)
}
