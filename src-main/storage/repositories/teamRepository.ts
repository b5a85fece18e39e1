import type { Db } from '../database'
import { newId } from '../ids'

export interface TeamRow {
  seq: number
  id: string
  organization_id: string
  title: string
  created_at: string
}

export type TeamRole = 'owner' | 'member'

export interface TeamMemberRow {
  seq: number
  team_id: string
  user_id: string
  role: TeamRole
  added_at: string
}

export interface TeamFilter {
  /** Only teams this user owns. */
  owner?: string
  /** Already case-folded. */
  title?: string
}

function teamWhere(f: TeamFilter): string {
  const parts = ['t.organization_id = @org', 't.seq > @after']
  if (f.owner) parts.push("t.id IN (SELECT team_id FROM team_members WHERE user_id = @owner AND role = 'owner')")
  if (f.title) parts.push('instr(casefold(t.title), @title) > 0')
  return parts.join(' AND ')
}

export function teamRepository(db: Db) {
  const byId = db.prepare<[string], TeamRow>('SELECT * FROM teams WHERE id = ?')
  const insert = db.prepare('INSERT INTO teams (id, organization_id, title, created_at) VALUES (?, ?, ?, ?)')
  const setTitle = db.prepare('UPDATE teams SET title = ? WHERE id = ?')
  const deleteTeam = db.prepare('DELETE FROM teams WHERE id = ?')
  // Grants name teams without a foreign key, so they go explicitly with the team.
  const deleteSpaceGrants = db.prepare("DELETE FROM space_grants WHERE principal_type = 'team' AND principal_id = ?")
  const deleteCollectionGrants = db.prepare("DELETE FROM collection_grants WHERE principal_type = 'team' AND principal_id = ?")
  const deleteSiteGrants = db.prepare("DELETE FROM site_grants WHERE principal_type = 'team' AND principal_id = ?")
  // Team members are read through the organization's members, so a stray row (a user no longer in the
  // organization) never shows up or counts.
  const IN_ORG = 'JOIN teams t ON t.id = tm.team_id JOIN members m ON m.organization_id = t.organization_id AND m.user_id = tm.user_id'
  const memberCounts = db.prepare<[string], { team_id: string; n: number }>(
    `SELECT tm.team_id, count(*) AS n FROM team_members tm ${IN_ORG} WHERE tm.team_id IN (SELECT value FROM json_each(?)) GROUP BY tm.team_id`
  )
  const spaceCounts = db.prepare<[string], { team_id: string; n: number }>(
    `SELECT g.principal_id AS team_id, count(*) AS n FROM space_grants g JOIN spaces s ON s.id = g.space_id
     WHERE g.principal_type = 'team' AND g.principal_id IN (SELECT value FROM json_each(?)) AND s.deleted_at IS NULL
     GROUP BY g.principal_id`
  )
  const rolesOf = db.prepare<[string, string], { team_id: string; role: TeamRole }>(
    'SELECT team_id, role FROM team_members WHERE user_id = ? AND team_id IN (SELECT value FROM json_each(?))'
  )
  const membership = db.prepare<[string, string], TeamMemberRow>('SELECT * FROM team_members WHERE team_id = ? AND user_id = ?')
  const membersPage = db.prepare<[string, number, number], TeamMemberRow>(
    `SELECT tm.* FROM team_members tm ${IN_ORG} WHERE tm.team_id = ? AND tm.seq > ? ORDER BY tm.seq LIMIT ?`
  )
  const memberCount = db.prepare<[string], number>(`SELECT count(*) FROM team_members tm ${IN_ORG} WHERE tm.team_id = ?`).pluck()
  const upsertMember = db.prepare(
    `INSERT INTO team_members (team_id, user_id, role, added_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (team_id, user_id) DO UPDATE SET role = excluded.role`
  )
  const insertMemberIfAbsent = db.prepare(
    `INSERT INTO team_members (team_id, user_id, role, added_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (team_id, user_id) DO NOTHING`
  )
  const deleteMember = db.prepare('DELETE FROM team_members WHERE team_id = ? AND user_id = ?')

  // One statement per filter combination, prepared on first use and kept.
  const lists = new Map<string, ReturnType<typeof db.prepare<[Record<string, unknown>], TeamRow>>>()
  const counts = new Map<string, ReturnType<typeof db.prepare<[Record<string, unknown>], number>>>()
  const forMember = new Map<string, ReturnType<typeof db.prepare<[Record<string, unknown>], TeamRow & { team_role: TeamRole }>>>()
  const forMemberCounts = new Map<string, ReturnType<typeof db.prepare<[Record<string, unknown>], number>>>()
  const key = (f: TeamFilter) => `${!!f.owner}:${!!f.title}`
  const params = (orgId: string, f: TeamFilter, after = 0, limit = 0) => ({
    org: orgId,
    owner: f.owner ?? null,
    title: f.title ?? null,
    after,
    limit
  })

  function cached<S>(map: Map<string, S>, k: string, make: () => S): S {
    let st = map.get(k)
    if (!st) map.set(k, (st = make()))
    return st
  }

  // A member belongs to few teams: start from their memberships (CROSS JOIN keeps that order) instead of
  // scanning every team of the organization.
  const memberWhere = (title: boolean) =>
    `tm.user_id = @user AND t.organization_id = @org AND t.seq > @after${title ? ' AND instr(casefold(t.title), @title) > 0' : ''}`

  return {
    get: (id: string) => byId.get(id),
    /** The organization's teams in creation order (keyset on seq). */
    list: (orgId: string, f: TeamFilter, afterSeq: number, limit: number) =>
      cached(lists, key(f), () =>
        db.prepare<[Record<string, unknown>], TeamRow>(`SELECT t.* FROM teams t WHERE ${teamWhere(f)} ORDER BY t.seq LIMIT @limit`)
      ).all(params(orgId, f, afterSeq, limit)),
    count: (orgId: string, f: TeamFilter) =>
      cached(counts, key(f), () =>
        db.prepare<[Record<string, unknown>], number>(`SELECT count(*) FROM teams t WHERE ${teamWhere(f)}`).pluck()
      ).get(params(orgId, f))!,
    /** Teams of the organization `userId` belongs to, with their team role. */
    listForMember: (orgId: string, userId: string, title: string | undefined, afterSeq: number, limit: number) =>
      cached(forMember, String(!!title), () =>
        db.prepare<[Record<string, unknown>], TeamRow & { team_role: TeamRole }>(
          `SELECT t.*, tm.role AS team_role FROM team_members tm CROSS JOIN teams t ON t.id = tm.team_id
           WHERE ${memberWhere(!!title)} ORDER BY t.seq LIMIT @limit`
        )
      ).all({ user: userId, org: orgId, title: title ?? null, after: afterSeq, limit }),
    countForMember: (orgId: string, userId: string, title: string | undefined) =>
      cached(forMemberCounts, String(!!title), () =>
        db
          .prepare<[Record<string, unknown>], number>(
            `SELECT count(*) FROM team_members tm CROSS JOIN teams t ON t.id = tm.team_id WHERE ${memberWhere(!!title)}`
          )
          .pluck()
      ).get({ user: userId, org: orgId, title: title ?? null, after: 0 })!,
    create(orgId: string, title: string, now: string): TeamRow {
      const id = newId()
      insert.run(id, orgId, title, now)
      return byId.get(id)!
    },
    setTitle: (id: string, title: string) => void setTitle.run(title, id),
    /** Deletes the team, its memberships (cascade) and every grant to it. */
    remove(id: string): void {
      deleteSpaceGrants.run(id)
      deleteCollectionGrants.run(id)
      deleteSiteGrants.run(id)
      deleteTeam.run(id)
    },
    /** Per team: member count and count of live spaces granted to it; one query each for a page. */
    memberCounts: (ids: string[]) => new Map(ids.length ? memberCounts.all(JSON.stringify(ids)).map((r) => [r.team_id, r.n]) : []),
    spaceCounts: (ids: string[]) => new Map(ids.length ? spaceCounts.all(JSON.stringify(ids)).map((r) => [r.team_id, r.n]) : []),
    /** `userId`'s role in each of `teamIds` it belongs to. */
    rolesOf: (userId: string, teamIds: string[]) =>
      new Map(teamIds.length ? rolesOf.all(userId, JSON.stringify(teamIds)).map((r) => [r.team_id, r.role]) : []),
    membership: (teamId: string, userId: string) => membership.get(teamId, userId),
    members: (teamId: string, afterSeq: number, limit: number) => membersPage.all(teamId, afterSeq, limit),
    countMembers: (teamId: string) => memberCount.get(teamId)!,
    /** Adds the user, or sets the role of an existing membership. */
    setMember: (teamId: string, userId: string, role: TeamRole, now: string) => void upsertMember.run(teamId, userId, role, now),
    /** Adds the user unless already in the team (an existing role is kept). */
    addMember: (teamId: string, userId: string, role: TeamRole, now: string) => void insertMemberIfAbsent.run(teamId, userId, role, now),
    removeMember: (teamId: string, userId: string) => deleteMember.run(teamId, userId).changes > 0
  }
}
