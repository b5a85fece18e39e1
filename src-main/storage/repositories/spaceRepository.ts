import type { Db } from '../database'
import { newId } from '../ids'
import { updateById } from './patch'
import { jsonIds } from './jsonIds'
import { upsertSql } from './upsert'

export interface SpaceRow {
  seq: number
  id: string
  organization_id: string
  parent_id: string | null
  title: string
  emoji: string
  visibility: string
  edit_mode: string
  default_level: string | null
  position: number
  revision_id: string | null
  visitor_auth: string | null
  git_sync: string | null
  comments_open: number
  change_requests: number
  change_requests_open: number
  change_requests_draft: number
  created_by: string | null
  created_at: string
  updated_at: string
  deleted_at: string | null
  /** JSON of the space's merge rules configuration; NULL inherits the organization's. */
  merge_rules: string | null
}

export type SpacePatch = Partial<
  Pick<
    SpaceRow,
    | 'title'
    | 'emoji'
    | 'edit_mode'
    | 'default_level'
    | 'parent_id'
    | 'position'
    | 'organization_id'
    | 'visibility'
    | 'revision_id'
    | 'deleted_at'
    | 'updated_at'
    | 'merge_rules'
  >
>

export type GrantPrincipal = 'user' | 'team'

/** A space's row as another Quire or the hosted service has it (a connected workspace's copy), but its revision. */
export type MirroredSpace = Omit<SpaceRow, 'seq' | 'revision_id' | 'created_by'>

const MIRRORED_COLUMNS = [
  'organization_id',
  'parent_id',
  'title',
  'emoji',
  'visibility',
  'edit_mode',
  'default_level',
  'visitor_auth',
  'git_sync',
  'comments_open',
  'change_requests',
  'change_requests_open',
  'change_requests_draft',
  'created_at',
  'updated_at',
  'deleted_at',
  'merge_rules'
] as const

export function spaceRepository(db: Db) {
  const byId = db.prepare<[string], SpaceRow>('SELECT * FROM spaces WHERE id = ?')
  const liveInOrg = db.prepare<[string, number, number], SpaceRow>(
    'SELECT * FROM spaces WHERE organization_id = ? AND deleted_at IS NULL AND seq > ? ORDER BY seq LIMIT ?'
  )
  const countLiveInOrg = db
    .prepare<[string], number>('SELECT count(*) FROM spaces WHERE organization_id = ? AND deleted_at IS NULL')
    .pluck()
  const liveInCollection = db.prepare<[string, number, number], SpaceRow>(
    'SELECT * FROM spaces WHERE parent_id = ? AND deleted_at IS NULL AND seq > ? ORDER BY seq LIMIT ?'
  )
  const countLiveInCollection = db
    .prepare<[string], number>('SELECT count(*) FROM spaces WHERE parent_id = ? AND deleted_at IS NULL')
    .pluck()
  const deletedInOrg = db.prepare<[string, string, number, number], SpaceRow>(
    'SELECT * FROM spaces WHERE organization_id = ? AND deleted_at IS NOT NULL AND deleted_at >= ? AND seq > ? ORDER BY seq LIMIT ?'
  )
  const countDeletedInOrg = db
    .prepare<[string, string], number>(
      'SELECT count(*) FROM spaces WHERE organization_id = ? AND deleted_at IS NOT NULL AND deleted_at >= ?'
    )
    .pluck()
  const liveInOrgScoped = db.prepare<[string, number, string, string, number], SpaceRow>(
    `SELECT * FROM spaces WHERE organization_id = ? AND deleted_at IS NULL AND seq > ?
       AND (id IN (SELECT space_id FROM space_grants WHERE principal_id IN (SELECT value FROM json_each(?)))
            OR parent_id IN (SELECT value FROM json_each(?)))
     ORDER BY seq LIMIT ?`
  )
  const countLiveInOrgScoped = db
    .prepare<[string, string, string], number>(
      `SELECT count(*) FROM spaces WHERE organization_id = ? AND deleted_at IS NULL
       AND (id IN (SELECT space_id FROM space_grants WHERE principal_id IN (SELECT value FROM json_each(?)))
            OR parent_id IN (SELECT value FROM json_each(?)))`
    )
    .pluck()
  const manyById = db.prepare<[string], SpaceRow>('SELECT * FROM spaces WHERE id IN (SELECT value FROM json_each(?))')
  const insert = db.prepare(
    `INSERT INTO spaces (id, organization_id, parent_id, title, emoji, visibility, edit_mode, default_level, position, created_by, created_at, updated_at)
     VALUES (@id, @organization_id, @parent_id, @title, @emoji, @visibility, @edit_mode, @default_level, @position, @created_by, @created_at, @updated_at)`
  )
  // Spaces and collections of one parent share one ordering.
  const lastPosition = db
    .prepare<[string, string | null, string, string | null], number>(
      `SELECT max(p) FROM (
       SELECT max(position) AS p FROM spaces WHERE organization_id = ? AND parent_id IS ? AND deleted_at IS NULL
       UNION ALL SELECT max(position) FROM collections WHERE organization_id = ? AND parent_id IS ?)`
    )
    .pluck()
  const siblings = db.prepare<
    [string, string | null, string, string | null],
    { kind: 'space' | 'collection'; id: string; position: number }
  >(
    `SELECT 'space' AS kind, id, position FROM spaces WHERE organization_id = ? AND parent_id IS ? AND deleted_at IS NULL
     UNION ALL SELECT 'collection', id, position FROM collections WHERE organization_id = ? AND parent_id IS ?
     ORDER BY position`
  )
  const setSpacePosition = db.prepare('UPDATE spaces SET position = ? WHERE id = ?')
  const setCollectionPosition = db.prepare('UPDATE collections SET position = ? WHERE id = ?')
  // The same role again writes nothing (a connected workspace's copy sets every grant at every pull).
  const upsertGrant = db.prepare(
    `INSERT INTO space_grants (space_id, principal_type, principal_id, role, granted_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (space_id, principal_type, principal_id) DO UPDATE SET role = excluded.role WHERE role IS NOT excluded.role`
  )
  const deleteGrant = db.prepare('DELETE FROM space_grants WHERE space_id = ? AND principal_type = ? AND principal_id = ?')
  const grantsOf = db.prepare<[string], { principal_type: GrantPrincipal; principal_id: string; role: string }>(
    'SELECT principal_type, principal_id, role FROM space_grants WHERE space_id = ?'
  )
  const copyValues = db.prepare(
    'INSERT INTO space_custom_field_values (space_id, field_id, value) SELECT ?, field_id, value FROM space_custom_field_values WHERE space_id = ?'
  )
  const dropValues = db.prepare('DELETE FROM space_custom_field_values WHERE space_id = ?')
  const dropForeignGrants = db.prepare(
    `DELETE FROM space_grants WHERE space_id = @space AND NOT (
       (principal_type = 'user' AND principal_id IN (SELECT user_id FROM members WHERE organization_id = @org))
       OR (principal_type = 'team' AND principal_id IN (SELECT id FROM teams WHERE organization_id = @org)))`
  )
  const parentCollection = db.prepare<[string], { id: string; organization_id: string; parent_id: string | null }>(
    'SELECT id, organization_id, parent_id FROM collections WHERE id = ?'
  )
  const teamOrganization = db.prepare<[string], string>('SELECT organization_id FROM teams WHERE id = ?').pluck()
  const expired = db.prepare<[string], { id: string; organization_id: string; title: string }>(
    'SELECT id, organization_id, title FROM spaces WHERE deleted_at IS NOT NULL AND deleted_at < ?'
  )
  const remove = db.prepare('DELETE FROM spaces WHERE id IN (SELECT value FROM json_each(?))')
  // Reactions name their comment or reply without a foreign key, so they go explicitly.
  const removeReactions = db.prepare(
    `DELETE FROM reactions WHERE subject_id IN (
       SELECT id FROM comments WHERE space_id IN (SELECT value FROM json_each(@ids))
       UNION ALL SELECT r.id FROM comment_replies r JOIN comments c ON c.id = r.comment_id WHERE c.space_id IN (SELECT value FROM json_each(@ids)))`
  )
  const idsNotIn = db.prepare<[string], string>('SELECT id FROM spaces WHERE id NOT IN (SELECT value FROM json_each(?))').pluck()
  const upsertMirrored = db.prepare(upsertSql('spaces', ['id'], ['id', 'position', ...MIRRORED_COLUMNS], ['position', ...MIRRORED_COLUMNS]))
  const upsertMirroredInPlace = db.prepare(upsertSql('spaces', ['id'], ['id', 'position', ...MIRRORED_COLUMNS], MIRRORED_COLUMNS))
  const setRevisionIfDifferent = db.prepare('UPDATE spaces SET revision_id = @revision WHERE id = @id AND revision_id IS NOT @revision')

  return {
    get: (id: string) => byId.get(id),
    getMany(ids: Iterable<string>): Map<string, SpaceRow> {
      const list = [...new Set(ids)]
      return new Map(list.length ? manyById.all(JSON.stringify(list)).map((r) => [r.id, r]) : [])
    },
    listLiveInOrg: (orgId: string, afterSeq: number, limit: number) => liveInOrg.all(orgId, afterSeq, limit),
    countLiveInOrg: (orgId: string) => countLiveInOrg.get(orgId)!,
    /** The trash: spaces deleted at or after `since` (ISO; older ones are past the restore window). */
    listDeletedInOrg: (orgId: string, since: string, afterSeq: number, limit: number) => deletedInOrg.all(orgId, since, afterSeq, limit),
    countDeletedInOrg: (orgId: string, since: string) => countDeletedInOrg.get(orgId, since)!,
    /** For guests: spaces granted to `principals` (JSON array) or inside `collectionIds` (JSON array). */
    listLiveInOrgScoped: (orgId: string, afterSeq: number, principals: string, collectionIds: string, limit: number) =>
      liveInOrgScoped.all(orgId, afterSeq, principals, collectionIds, limit),
    countLiveInOrgScoped: (orgId: string, principals: string, collectionIds: string) =>
      countLiveInOrgScoped.get(orgId, principals, collectionIds)!,
    listLiveInCollection: (collectionId: string, afterSeq: number, limit: number) => liveInCollection.all(collectionId, afterSeq, limit),
    countLiveInCollection: (collectionId: string) => countLiveInCollection.get(collectionId)!,
    nextPosition: (orgId: string, parentId: string | null) => (lastPosition.get(orgId, parentId, orgId, parentId) ?? 0) + 1,
    /** Spaces and collections under one parent (null: the organization's root), in their order. */
    siblings: (orgId: string, parentId: string | null) => siblings.all(orgId, parentId, orgId, parentId),
    setPosition(kind: string, id: string, position: number) {
      ;(kind === 'space' ? setSpacePosition : setCollectionPosition).run(position, id)
    },
    create(
      input: Omit<
        SpaceRow,
        | 'seq'
        | 'id'
        | 'revision_id'
        | 'visitor_auth'
        | 'git_sync'
        | 'comments_open'
        | 'change_requests'
        | 'change_requests_open'
        | 'change_requests_draft'
        | 'deleted_at'
        | 'merge_rules'
      >
    ): SpaceRow {
      const id = newId()
      insert.run({ ...input, id })
      return byId.get(id)!
    },
    update(id: string, patch: SpacePatch): void {
      updateById(db, 'spaces', id, patch)
    },
    /** A collection as a space's parent (id, organization, its own parent). */
    parentCollection: (id: string) => parentCollection.get(id),
    /** The organization a team belongs to (grants name teams by id). */
    teamOrganization: (teamId: string) => teamOrganization.get(teamId),
    setGrant(spaceId: string, type: GrantPrincipal, principalId: string, role: string | null, now: string): void {
      if (role) upsertGrant.run(spaceId, type, principalId, role, now)
      else deleteGrant.run(spaceId, type, principalId)
    },
    grants: (spaceId: string) => grantsOf.all(spaceId),
    copyCustomFieldValues: (fromSpaceId: string, toSpaceId: string) => void copyValues.run(toSpaceId, fromSpaceId),
    dropCustomFieldValues: (spaceId: string) => void dropValues.run(spaceId),
    /** After a transfer: grants to users and teams outside `organizationId` no longer mean anything. */
    dropGrantsOutside: (spaceId: string, organizationId: string) => void dropForeignGrants.run({ space: spaceId, org: organizationId }),
    /** Spaces deleted before `cutoff` (ISO): past the restore window, to be removed for good. */
    /** Spaces deleted before `cutoff` (past their restore window): their ids, organizations and titles. */
    deletedBefore: (cutoff: string) => expired.all(cutoff),
    /** Removes spaces for good, with their content (revisions, change requests, comments and grants cascade). */
    removeMany(ids: string[]): void {
      if (!ids.length) return
      removeReactions.run({ ids: jsonIds(ids) })
      remove.run(jsonIds(ids))
    },
    /** Ids of the spaces (deleted ones included) not among `ids`. */
    idsNotIn: (ids: Iterable<string>) => idsNotIn.all(jsonIds(ids)),
    /**
     * A space under its id elsewhere (a connected workspace's server): added, or its row brought up to date; its
     * revision is setRevisionIfDifferent's. `keepPosition`: an existing row keeps its own position (`position` is
     * then only a new row's). A row that already holds these values is not written.
     */
    upsertMirrored(row: MirroredSpace, keepPosition: boolean): void {
      ;(keepPosition ? upsertMirroredInPlace : upsertMirrored).run(row)
    },
    /** Points the space at a revision; true when it moved (the same revision again writes nothing). */
    setRevisionIfDifferent: (id: string, revisionId: string) => setRevisionIfDifferent.run({ id, revision: revisionId }).changes > 0
  }
}
