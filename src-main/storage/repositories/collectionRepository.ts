import type { Db } from '../database'
import { newId } from '../ids'
import { updateById } from './patch'
import { jsonIds as json } from './jsonIds'
import { upsertSql } from './upsert'

export interface CollectionRow {
  seq: number
  id: string
  organization_id: string
  parent_id: string | null
  title: string
  description: string | null
  default_level: string | null
  position: number
  created_at: string
  updated_at: string
}

export type CollectionPatch = Partial<
  Pick<CollectionRow, 'title' | 'description' | 'default_level' | 'parent_id' | 'position' | 'updated_at'>
>

/** A collection's row as another Quire or the hosted service has it (a connected workspace's copy), but its parent. */
export type MirroredCollection = Omit<CollectionRow, 'seq' | 'parent_id'>

// A change to these makes the row's `updated_at` the one given; the same values again write nothing.
const MIRRORED_COLUMNS = ['organization_id', 'title', 'description', 'default_level', 'position'] as const

export function collectionRepository(db: Db) {
  const byId = db.prepare<[string], CollectionRow>('SELECT * FROM collections WHERE id = ?')
  const inOrg = db.prepare<[string, number, number], CollectionRow>(
    'SELECT * FROM collections WHERE organization_id = ? AND seq > ? ORDER BY seq LIMIT ?'
  )
  const rootsInOrg = db.prepare<[string, number, number], CollectionRow>(
    'SELECT * FROM collections WHERE organization_id = ? AND parent_id IS NULL AND seq > ? ORDER BY seq LIMIT ?'
  )
  const countInOrg = db.prepare<[string], number>('SELECT count(*) FROM collections WHERE organization_id = ?').pluck()
  const countRootsInOrg = db
    .prepare<[string], number>('SELECT count(*) FROM collections WHERE organization_id = ? AND parent_id IS NULL')
    .pluck()
  const skeleton = db.prepare<[string], { id: string; organization_id: string; parent_id: string | null }>(
    'SELECT id, organization_id, parent_id FROM collections WHERE organization_id = ? ORDER BY seq'
  )
  const pageOfIds = db.prepare<[string, number, number], CollectionRow>(
    'SELECT * FROM collections WHERE id IN (SELECT value FROM json_each(?)) AND seq > ? ORDER BY seq LIMIT ?'
  )
  const insert = db.prepare(
    `INSERT INTO collections (id, organization_id, parent_id, title, description, default_level, position, created_at, updated_at)
     VALUES (@id, @organization_id, @parent_id, @title, NULL, NULL, @position, @created_at, @updated_at)`
  )
  // The collection and every collection nested in it, at any depth.
  const subtree = db
    .prepare<[string], string>(
      `WITH RECURSIVE sub(id) AS (SELECT id FROM collections WHERE id = ?
       UNION ALL SELECT c.id FROM collections c JOIN sub ON c.parent_id = sub.id)
     SELECT id FROM sub`
    )
    .pluck()
  const deleteMany = db.prepare('DELETE FROM collections WHERE id IN (SELECT value FROM json_each(?))')
  const deleteNotIn = db.prepare('DELETE FROM collections WHERE id NOT IN (SELECT value FROM json_each(?))')
  const upsertMirrored = db.prepare(
    upsertSql('collections', ['id'], ['id', 'parent_id', ...MIRRORED_COLUMNS, 'created_at', 'updated_at'], MIRRORED_COLUMNS, ['updated_at'])
  )
  const setParentIfDifferent = db.prepare('UPDATE collections SET parent_id = @parent WHERE id = @id AND parent_id IS NOT @parent')
  const spaceIdsIn = db.prepare<[string], string>('SELECT id FROM spaces WHERE parent_id IN (SELECT value FROM json_each(?))').pluck()
  // Like DELETE /spaces: restorable for 7 days, then to the organization's root (their collection is gone, and
  // `in-collection` visibility only exists inside one).
  const softDeleteSpacesIn = db.prepare(
    `UPDATE spaces SET deleted_at = @now, updated_at = @now, parent_id = NULL,
       visibility = CASE visibility WHEN 'in-collection' THEN 'private' ELSE visibility END
     WHERE parent_id IN (SELECT value FROM json_each(@ids)) AND deleted_at IS NULL`
  )
  const detachSpacesIn = db.prepare(
    `UPDATE spaces SET parent_id = NULL, visibility = CASE visibility WHEN 'in-collection' THEN 'private' ELSE visibility END
     WHERE parent_id IN (SELECT value FROM json_each(?))`
  )
  const setCollectionsOrg = db.prepare(
    'UPDATE collections SET organization_id = ?, updated_at = ? WHERE id IN (SELECT value FROM json_each(?))'
  )
  const setSpacesOrg = db.prepare('UPDATE spaces SET organization_id = ?, updated_at = ? WHERE id IN (SELECT value FROM json_each(?))')
  const upsertGrant = db.prepare(
    `INSERT INTO collection_grants (collection_id, principal_type, principal_id, role, granted_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (collection_id, principal_type, principal_id) DO UPDATE SET role = excluded.role`
  )
  const deleteGrant = db.prepare('DELETE FROM collection_grants WHERE collection_id = ? AND principal_type = ? AND principal_id = ?')
  const grantsOf = db.prepare<[string], { principal_type: 'user' | 'team'; principal_id: string; role: string }>(
    'SELECT principal_type, principal_id, role FROM collection_grants WHERE collection_id = ? ORDER BY principal_type, principal_id'
  )
  // A grant survives a transfer only when its user is a member (guests included) or its team a team of the target.
  const foreignPrincipal = `((principal_type = 'user' AND principal_id NOT IN (SELECT user_id FROM members WHERE organization_id = @org))
     OR (principal_type = 'team' AND principal_id NOT IN (SELECT id FROM teams WHERE organization_id = @org)))`
  const dropForeignCollectionGrants = db.prepare(
    `DELETE FROM collection_grants WHERE collection_id IN (SELECT value FROM json_each(@ids)) AND ${foreignPrincipal}`
  )
  const dropForeignSpaceGrants = db.prepare(
    `DELETE FROM space_grants WHERE space_id IN (SELECT value FROM json_each(@ids)) AND ${foreignPrincipal}`
  )

  return {
    get: (id: string) => byId.get(id),
    /** One page of the organization's collections (all, or only the root ones), keyset on seq. */
    listInOrg: (orgId: string, rootsOnly: boolean, afterSeq: number, limit: number) =>
      (rootsOnly ? rootsInOrg : inOrg).all(orgId, afterSeq, limit),
    countInOrg: (orgId: string, rootsOnly: boolean) => (rootsOnly ? countRootsInOrg : countInOrg).get(orgId)!,
    /** Id, organization and parent of every collection of the organization (for per-caller visibility). */
    skeleton: (orgId: string) => skeleton.all(orgId),
    /** One page among the given ids, keyset on seq. */
    listByIds: (ids: string[], afterSeq: number, limit: number) => pageOfIds.all(json(ids), afterSeq, limit),
    create(input: { organization_id: string; parent_id: string | null; title: string; position: number }, now: string): CollectionRow {
      const id = newId()
      insert.run({ ...input, id, created_at: now, updated_at: now })
      return byId.get(id)!
    },
    update(id: string, patch: CollectionPatch): void {
      updateById(db, 'collections', id, patch)
    },
    /**
     * A collection under its id elsewhere (a connected workspace's server): added at the organization's root, or
     * its row brought up to date (its parent left as it is). A row that already holds these values is not written.
     * setParentIfDifferent places it (its parent may be written after it).
     */
    upsertMirrored: (row: MirroredCollection) => void upsertMirrored.run({ ...row, parent_id: null }),
    /** Moves the collection under `parentId` (null: the root); nothing is written when it is there already. */
    setParentIfDifferent: (id: string, parentId: string | null) => void setParentIfDifferent.run({ id, parent: parentId }),
    /** Removes every collection but `ids` (as foreign keys say: nested ones and grants go, spaces move to the root). */
    deleteNotIn: (ids: Iterable<string>) => void deleteNotIn.run(json(ids)),
    /** The collection's id and the ids of all collections nested in it. */
    subtree: (id: string) => subtree.all(id),
    /** Ids of the spaces (deleted ones included) directly in any of the collections. */
    spaceIdsIn: (collectionIds: string[]) => spaceIdsIn.all(json(collectionIds)),
    /** Soft-deletes the live spaces of the collections, then removes the collections (their grants cascade). */
    deleteWithSpaces(collectionIds: string[], now: string): void {
      softDeleteSpacesIn.run({ now, ids: json(collectionIds) })
      detachSpacesIn.run(json(collectionIds))
      deleteMany.run(json(collectionIds))
    },
    setOrganization(collectionIds: string[], spaceIds: string[], orgId: string, now: string): void {
      setCollectionsOrg.run(orgId, now, json(collectionIds))
      if (spaceIds.length) setSpacesOrg.run(orgId, now, json(spaceIds))
    },
    /** Drops the grants on these collections and spaces held by users and teams outside `orgId`. */
    dropForeignGrants(collectionIds: string[], spaceIds: string[], orgId: string): void {
      dropForeignCollectionGrants.run({ ids: json(collectionIds), org: orgId })
      if (spaceIds.length) dropForeignSpaceGrants.run({ ids: json(spaceIds), org: orgId })
    },
    setGrant(collectionId: string, type: 'user' | 'team', principalId: string, role: string | null, now: string): void {
      if (role) upsertGrant.run(collectionId, type, principalId, role, now)
      else deleteGrant.run(collectionId, type, principalId)
    },
    grants: (collectionId: string) => grantsOf.all(collectionId)
  }
}
