import { workspaceSecret } from '../secrets'
import type { Db } from '../database'
import type { MemberRow } from './organizationRepository'
import type { SpaceRow } from './spaceRepository'
import { upsertSql } from './upsert'

export type { MemberRow }

export type SpaceKey = Pick<SpaceRow, 'seq' | 'id' | 'organization_id' | 'parent_id' | 'default_level'>

export type MemberSort = 'joinedAt' | 'lastSeenAt'
export type SortOrder = 'asc' | 'desc'

export interface MemberFilter {
  role?: string
  /** Already case-folded. */
  search?: string
  sort: MemberSort
}

const MIRRORED_COLUMNS = ['role', 'disabled', 'sso', 'joined_at', 'last_seen_at'] as const

const SORT_COLUMN: Record<MemberSort, string> = { joinedAt: 'joined_at', lastSeenAt: 'last_seen_at' }

/** WHERE clause of the members list; parameters are always named, never spliced. */
function memberWhere(f: MemberFilter): string {
  const parts = ['m.organization_id = @org']
  if (f.role) parts.push('m.role = @role')
  if (f.sort === 'lastSeenAt') parts.push('m.last_seen_at IS NOT NULL')
  if (f.search) {
    parts.push(
      `EXISTS (SELECT 1 FROM users u WHERE u.id = m.user_id
         AND (instr(casefold(u.display_name), @search) > 0 OR instr(casefold(u.email), @search) > 0))`
    )
  }
  return parts.join(' AND ')
}

export function memberRepository(db: Db) {
  const one = db.prepare<[string, string], MemberRow>('SELECT * FROM members WHERE organization_id = ? AND user_id = ?')
  const many = db.prepare<[string, string], MemberRow>(
    'SELECT * FROM members WHERE organization_id = ? AND user_id IN (SELECT value FROM json_each(?))'
  )
  const spaceGrantCounts = db.prepare<[string, string], { user_id: string; n: number }>(
    `SELECT g.principal_id AS user_id, count(*) AS n FROM space_grants g JOIN spaces s ON s.id = g.space_id
     WHERE g.principal_type = 'user' AND g.principal_id IN (SELECT value FROM json_each(?))
       AND s.organization_id = ? AND s.deleted_at IS NULL
     GROUP BY g.principal_id`
  )
  const siteGrantCounts = db.prepare<[string, string], { user_id: string; n: number }>(
    `SELECT g.principal_id AS user_id, count(*) AS n FROM site_grants g JOIN sites s ON s.id = g.site_id
     WHERE g.principal_type = 'user' AND g.principal_id IN (SELECT value FROM json_each(?)) AND s.organization_id = ?
     GROUP BY g.principal_id`
  )
  const teamCounts = db.prepare<[string, string], { user_id: string; n: number }>(
    `SELECT tm.user_id, count(*) AS n FROM team_members tm JOIN teams t ON t.id = tm.team_id
     WHERE tm.user_id IN (SELECT value FROM json_each(?)) AND t.organization_id = ?
     GROUP BY tm.user_id`
  )
  // Two indexed lookups (by member id, by e-mail) rather than one OR that would scan the organization.
  const resolveRefs = db.prepare<[string, string, string, string], { user_id: string; email: string }>(
    `SELECT m.user_id, u.email FROM members m JOIN users u ON u.id = m.user_id
     WHERE m.organization_id = ? AND m.user_id IN (SELECT value FROM json_each(?))
     UNION
     SELECT m.user_id, u.email FROM users u CROSS JOIN members m ON m.user_id = u.id AND m.organization_id = ?
     WHERE u.email IN (SELECT value FROM json_each(?))`
  )
  const ofUser = db.prepare<[string], MemberRow>('SELECT * FROM members WHERE user_id = ?')
  const upsertMirrored = db.prepare(
    upsertSql('members', ['organization_id', 'user_id'], ['organization_id', 'user_id', ...MIRRORED_COLUMNS], MIRRORED_COLUMNS)
  )
  const setRole = db.prepare('UPDATE members SET role = ? WHERE organization_id = ? AND user_id = ?')
  const setSso = db.prepare('UPDATE members SET sso = 1 WHERE organization_id = ? AND user_id = ?')
  const touch = db.prepare('UPDATE members SET last_seen_at = ? WHERE organization_id = ? AND user_id = ?')
  const otherActiveAdmins = db
    .prepare<[string, string], number>(
      "SELECT count(*) FROM members WHERE organization_id = ? AND user_id <> ? AND role = 'admin' AND disabled = 0"
    )
    .pluck()
  const deleteMember = db.prepare('DELETE FROM members WHERE organization_id = ? AND user_id = ?')
  const deleteTeamMemberships = db.prepare(
    'DELETE FROM team_members WHERE user_id = ? AND team_id IN (SELECT id FROM teams WHERE organization_id = ?)'
  )
  const deleteSpaceGrants = db.prepare(
    "DELETE FROM space_grants WHERE principal_type = 'user' AND principal_id = ? AND space_id IN (SELECT id FROM spaces WHERE organization_id = ?)"
  )
  const deleteCollectionGrants = db.prepare(
    "DELETE FROM collection_grants WHERE principal_type = 'user' AND principal_id = ? AND collection_id IN (SELECT id FROM collections WHERE organization_id = ?)"
  )
  const deleteSiteGrants = db.prepare(
    "DELETE FROM site_grants WHERE principal_type = 'user' AND principal_id = ? AND site_id IN (SELECT id FROM sites WHERE organization_id = ?)"
  )
  const spacesAsc = db.prepare<[string, number, number], SpaceRow>(
    'SELECT * FROM spaces WHERE organization_id = ? AND deleted_at IS NULL AND seq > ? ORDER BY seq LIMIT ?'
  )
  const spacesDesc = db.prepare<[string, number, number], SpaceRow>(
    'SELECT * FROM spaces WHERE organization_id = ? AND deleted_at IS NULL AND seq < ? ORDER BY seq DESC LIMIT ?'
  )
  // Just what spaceRoles reads, for counting without loading whole rows.
  const spaceKeys = db.prepare<[string, number, number], SpaceKey>(
    'SELECT seq, id, organization_id, parent_id, default_level FROM spaces WHERE organization_id = ? AND deleted_at IS NULL AND seq > ? ORDER BY seq LIMIT ?'
  )

  // One statement per filter combination, prepared on first use and kept.
  const listStatements = new Map<string, ReturnType<typeof db.prepare<[Record<string, unknown>], MemberRow>>>()
  const countStatements = new Map<string, ReturnType<typeof db.prepare<[Record<string, unknown>], number>>>()

  function listStatement(f: MemberFilter, order: SortOrder, after: boolean) {
    const key = `${f.sort}:${order}:${!!f.role}:${!!f.search}:${after}`
    let st = listStatements.get(key)
    if (!st) {
      const col = `m.${SORT_COLUMN[f.sort]}`
      const dir = order === 'asc' ? 'ASC' : 'DESC'
      const cmp = order === 'asc' ? '>' : '<'
      const cursor = after ? ` AND (${col}, m.seq) ${cmp} (@afterKey, @afterSeq)` : ''
      st = db.prepare(`SELECT m.* FROM members m WHERE ${memberWhere(f)}${cursor} ORDER BY ${col} ${dir}, m.seq ${dir} LIMIT @limit`)
      listStatements.set(key, st)
    }
    return st
  }

  function countStatement(f: MemberFilter) {
    const key = `${f.sort}:${!!f.role}:${!!f.search}`
    let st = countStatements.get(key)
    if (!st) {
      st = db.prepare<[Record<string, unknown>], number>(`SELECT count(*) FROM members m WHERE ${memberWhere(f)}`).pluck()
      countStatements.set(key, st)
    }
    return st
  }

  const countsBy = (rows: { user_id: string; n: number }[]) => new Map(rows.map((r) => [r.user_id, r.n]))

  return {
    /** The membership row, disabled members included. */
    get: (orgId: string, userId: string) => one.get(orgId, userId),
    getMany(orgId: string, userIds: Iterable<string>): Map<string, MemberRow> {
      const list = [...new Set(userIds)]
      return new Map(list.length ? many.all(orgId, JSON.stringify(list)).map((m) => [m.user_id, m]) : [])
    },
    /** The user's memberships, by organization id. */
    ofUser: (userId: string) => new Map(ofUser.all(userId).map((m) => [m.organization_id, m])),
    /**
     * A membership as another Quire or the hosted service has it (a connected workspace's copy): added, or brought
     * up to date. A row that already holds these values is not written.
     */
    upsertMirrored: (row: Omit<MemberRow, 'seq'>) => void upsertMirrored.run(row),
    /** Members named by user id or e-mail (case-insensitive): ref -> user id, for the refs that are members. */
    resolve(orgId: string, refs: Iterable<string>): Map<string, string> {
      const list = [...new Set(refs)]
      const result = new Map<string, string>()
      if (!list.length) return result
      const json = JSON.stringify(list)
      const rows = resolveRefs.all(orgId, json, orgId, json)
      const byId = new Set(rows.map((r) => r.user_id))
      const byEmail = new Map(rows.map((r) => [r.email.toLowerCase(), r.user_id]))
      for (const ref of list) {
        const id = byId.has(ref) ? ref : byEmail.get(ref.toLowerCase())
        if (id) result.set(ref, id)
      }
      return result
    },
    /** Keyset page on (sort column, seq) in `order`, after the row `after` when given. */
    list(orgId: string, f: MemberFilter, order: SortOrder, after: [string | null, number] | undefined, limit: number): MemberRow[] {
      const params = {
        org: orgId,
        role: f.role ?? null,
        search: f.search ?? null,
        afterKey: after?.[0] ?? null,
        afterSeq: after?.[1] ?? null,
        limit
      }
      return listStatement(f, order, !!after).all(params)
    },
    count: (orgId: string, f: MemberFilter) => countStatement(f).get({ org: orgId, role: f.role ?? null, search: f.search ?? null })!,
    /** Per user: spaces of the organization (not deleted) with a direct grant to them; one query for a page. */
    spaceGrantCounts: (orgId: string, userIds: string[]) =>
      countsBy(userIds.length ? spaceGrantCounts.all(JSON.stringify(userIds), orgId) : []),
    /** Per user: sites of the organization with a direct grant to them; one query for a page. */
    siteGrantCounts: (orgId: string, userIds: string[]) =>
      countsBy(userIds.length ? siteGrantCounts.all(JSON.stringify(userIds), orgId) : []),
    /** Per user: teams of the organization they belong to; one query for a page. */
    teamCounts: (orgId: string, userIds: string[]) => countsBy(userIds.length ? teamCounts.all(JSON.stringify(userIds), orgId) : []),
    setRole: (orgId: string, userId: string, role: string | null) => void setRole.run(role, orgId, userId),
    markSso: (orgId: string, userId: string) => void setSso.run(orgId, userId),
    touch: (orgId: string, userId: string, now: string) => void touch.run(now, orgId, userId),
    otherActiveAdmins: (orgId: string, userId: string) => otherActiveAdmins.get(orgId, userId)!,
    /** Removes the membership with the member's team memberships and direct grants (spaces, collections, sites) in that organization. */
    remove(orgId: string, userId: string): void {
      deleteTeamMemberships.run(userId, orgId)
      deleteSpaceGrants.run(userId, orgId)
      deleteCollectionGrants.run(userId, orgId)
      deleteSiteGrants.run(userId, orgId)
      deleteMember.run(orgId, userId)
    },
    /** Live spaces of the organization in seq order, after `afterSeq` (exclusive) in that direction. */
    liveSpaces(orgId: string, order: SortOrder, afterSeq: number | undefined, limit: number): SpaceRow[] {
      return order === 'asc'
        ? spacesAsc.all(orgId, afterSeq ?? 0, limit)
        : spacesDesc.all(orgId, afterSeq ?? Number.MAX_SAFE_INTEGER, limit)
    },
    /** As liveSpaces (ascending), with only the columns that decide roles. */
    liveSpaceKeys: (orgId: string, afterSeq: number | undefined, limit: number) => spaceKeys.all(orgId, afterSeq ?? 0, limit),
    /**
     * The workspace's secret the organizations' visitor-claims keys derive from (32 random bytes, base64url; see
     * `visitorClaimsKey`), created on first use.
     * It stays in the database: never return it to a client, never log it.
     */
    visitorClaimsSecret: (): string => workspaceSecret(db, 'visitorClaims')
  }
}
