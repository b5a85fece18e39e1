import type { Role } from '../../../src-shared/schemas/common'
import type { Collection } from '../../../src-shared/schemas/collections'
import type { CollectionRow } from '../../storage/repositories/collectionRepository'
import type { Ctx } from '../../workspace/context'
import { collectionRole } from '../policies/access'
import { collectionPermissions } from '../policies/collection'

/**
 * Collections for the caller. `collectionRole` reads the organization's collections and the caller's grants
 * once per request (memoized), so a page costs no query per row.
 */
export function presentCollections(rows: CollectionRow[], ctx: Ctx): Collection[] {
  return rows.map((row) => present(row, ctx, collectionRole(ctx, row)))
}

/** One collection: the batch of one, so every endpoint answers the same JSON for the same collection. */
export const presentCollection = (row: CollectionRow, ctx: Ctx): Collection => presentCollections([row], ctx)[0]!

function present(row: CollectionRow, ctx: Ctx, role: Role | null): Collection {
  const collection: Collection = {
    object: 'collection',
    id: row.id,
    title: row.title,
    organization: row.organization_id,
    defaultLevel: row.default_level as Role | null,
    urls: { location: ctx.url(`/v1/collections/${row.id}`), app: ctx.appUrl(`/collections/${row.id}`) },
    permissions: collectionPermissions(role)
  }
  if (row.description) collection.description = row.description
  if (row.parent_id) collection.parent = row.parent_id
  return collection
}
