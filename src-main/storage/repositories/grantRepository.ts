import type { Db } from '../database'
import type { UserRow } from './userRepository'
import type { TeamRow } from './teamRepository'

/** What grants name: a space (`space_grants`), a collection (`collection_grants`) or a site (`site_grants`). */
export type GrantTarget = 'space' | 'collection' | 'site'

export interface GrantRow {
  principal_type: 'user' | 'team'
  principal_id: string
  role: string
}

export type UserGrantRow = UserRow & { role: string }
export type TeamGrantRow = TeamRow & { role: string }

export interface OrgMemberRow {
  seq: number
  user_id: string
  role: string | null
  disabled: number
}

function statements(db: Db, table: 'space_grants' | 'collection_grants' | 'site_grants', column: 'space_id' | 'collection_id' | 'site_id') {
  // Grants read through the organization's members and teams, so a stray grant (a user who left, a team of
  // another organization) never shows up, as team members are read.
  const usersPage = db.prepare<{ target: string; org: string; name: string | null; id: string; limit: number }, UserGrantRow>(
    `SELECT u.*, g.role FROM ${table} g JOIN users u ON u.id = g.principal_id
     JOIN members m ON m.organization_id = @org AND m.user_id = g.principal_id
     WHERE g.${column} = @target AND g.principal_type = 'user' AND (@name IS NULL OR (u.display_name, u.id) > (@name, @id))
     ORDER BY u.display_name, u.id LIMIT @limit`
  )
  const userCount = db
    .prepare<{ target: string; org: string }, number>(
      `SELECT count(*) FROM ${table} g JOIN members m ON m.organization_id = @org AND m.user_id = g.principal_id
     WHERE g.${column} = @target AND g.principal_type = 'user'`
    )
    .pluck()
  const teamsPage = db.prepare<{ target: string; org: string; title: string | null; id: string; limit: number }, TeamGrantRow>(
    `SELECT t.*, g.role FROM ${table} g JOIN teams t ON t.id = g.principal_id AND t.organization_id = @org
     WHERE g.${column} = @target AND g.principal_type = 'team' AND (@title IS NULL OR (t.title, t.id) > (@title, @id))
     ORDER BY t.title, t.id LIMIT @limit`
  )
  const teamCount = db
    .prepare<{ target: string; org: string }, number>(
      `SELECT count(*) FROM ${table} g JOIN teams t ON t.id = g.principal_id AND t.organization_id = @org
     WHERE g.${column} = @target AND g.principal_type = 'team'`
    )
    .pluck()
  const one = db
    .prepare<[string, string, string], string>(`SELECT role FROM ${table} WHERE ${column} = ? AND principal_type = ? AND principal_id = ?`)
    .pluck()
  // Grants that make someone an admin: a user still an enabled member, or a team with an enabled member.
  const adminGrants = db.prepare<{ targets: string; org: string }, GrantRow & { target_id: string }>(
    `SELECT g.${column} AS target_id, g.principal_type, g.principal_id, g.role FROM ${table} g
     WHERE g.${column} IN (SELECT value FROM json_each(@targets)) AND g.role = 'admin' AND (
       (g.principal_type = 'user' AND EXISTS (SELECT 1 FROM members m WHERE m.organization_id = @org AND m.user_id = g.principal_id AND NOT m.disabled))
       OR (g.principal_type = 'team' AND EXISTS (SELECT 1 FROM team_members tm JOIN members m ON m.user_id = tm.user_id AND m.organization_id = @org
            WHERE tm.team_id = g.principal_id AND NOT m.disabled)))`
  )
  const all = db.prepare<[string], GrantRow & { target_id: string }>(
    `SELECT ${column} AS target_id, principal_type, principal_id, role FROM ${table} WHERE ${column} IN (SELECT value FROM json_each(?))`
  )
  // The same role again writes nothing (as the space and collection grants).
  const upsert = db.prepare(
    `INSERT INTO ${table} (${column}, principal_type, principal_id, role, granted_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (${column}, principal_type, principal_id) DO UPDATE SET role = excluded.role WHERE role IS NOT excluded.role`
  )
  const remove = db.prepare(`DELETE FROM ${table} WHERE ${column} = ? AND principal_type = ? AND principal_id = ?`)
  const ofPrincipals = db
    .prepare<[string, string], string>(`SELECT role FROM ${table} WHERE ${column} = ? AND principal_id IN (SELECT value FROM json_each(?))`)
    .pluck()
  return { usersPage, userCount, teamsPage, teamCount, one, adminGrants, all, upsert, remove, ofPrincipals }
}

/** Who holds a role on a space or collection directly (users and teams), for the access screens and checks. */
export function grantRepository(db: Db) {
  const st = {
    space: statements(db, 'space_grants', 'space_id'),
    collection: statements(db, 'collection_grants', 'collection_id'),
    site: statements(db, 'site_grants', 'site_id')
  }
  const teamsOf = db.prepare<[string], string>('SELECT team_id FROM team_members WHERE user_id = ?').pluck()
  const orgMembers = db.prepare<[string], OrgMemberRow>(
    'SELECT seq, user_id, role, disabled FROM members WHERE organization_id = ? ORDER BY seq'
  )
  const teamsOfOrgMembers = db.prepare<[string], { user_id: string; team_id: string; title: string }>(
    `SELECT tm.user_id, t.id AS team_id, t.title FROM team_members tm JOIN teams t ON t.id = tm.team_id
     WHERE t.organization_id = ? ORDER BY t.title, t.id`
  )
  const teamSpaces = db.prepare<
    { team: string; title: string | null; id: string; limit: number },
    { id: string; title: string; role: string }
  >(
    `SELECT s.id, s.title, g.role FROM space_grants g JOIN spaces s ON s.id = g.space_id
     WHERE g.principal_type = 'team' AND g.principal_id = @team AND s.deleted_at IS NULL
       AND (@title IS NULL OR (s.title, s.id) > (@title, @id))
     ORDER BY s.title, s.id LIMIT @limit`
  )
  const teamSpaceCount = db
    .prepare<[string], number>(
      `SELECT count(*) FROM space_grants g JOIN spaces s ON s.id = g.space_id
     WHERE g.principal_type = 'team' AND g.principal_id = ? AND s.deleted_at IS NULL`
    )
    .pluck()

  return {
    /** Users granted a role on the target, by name then id, after the keyset `after` ([name, id]). */
    users: (target: GrantTarget, targetId: string, orgId: string, after: [string, string] | undefined, limit: number) =>
      st[target].usersPage.all({ target: targetId, org: orgId, name: after?.[0] ?? null, id: after?.[1] ?? '', limit }),
    countUsers: (target: GrantTarget, targetId: string, orgId: string) => st[target].userCount.get({ target: targetId, org: orgId })!,
    teams: (target: GrantTarget, targetId: string, orgId: string, after: [string, string] | undefined, limit: number) =>
      st[target].teamsPage.all({ target: targetId, org: orgId, title: after?.[0] ?? null, id: after?.[1] ?? '', limit }),
    countTeams: (target: GrantTarget, targetId: string, orgId: string) => st[target].teamCount.get({ target: targetId, org: orgId })!,
    /** The role granted to one user or team, or undefined. */
    role: (target: GrantTarget, targetId: string, type: 'user' | 'team', principalId: string) =>
      st[target].one.get(targetId, type, principalId),
    /** Admin grants on any of `targetIds` that give someone the role (see the statement). */
    adminGrants: (target: GrantTarget, targetIds: string[], orgId: string) =>
      st[target].adminGrants.all({ targets: JSON.stringify(targetIds), org: orgId }),
    /** Every grant on any of `targetIds`. */
    grantsOn: (target: GrantTarget, targetIds: string[]) => st[target].all.all(JSON.stringify(targetIds)),
    /** Sets (or with null removes) a grant. */
    set(target: GrantTarget, targetId: string, type: 'user' | 'team', principalId: string, role: string | null, now: string): void {
      if (role) st[target].upsert.run(targetId, type, principalId, role, now)
      else st[target].remove.run(targetId, type, principalId)
    },
    /** The roles granted on the target to a user and their teams. */
    rolesOf: (target: GrantTarget, targetId: string, userId: string) =>
      st[target].ofPrincipals.all(targetId, JSON.stringify([userId, ...teamsOf.all(userId)])),
    /** Every member of the organization (guests and disabled ones too), in joining order. */
    orgMembers: (orgId: string) => orgMembers.all(orgId),
    /** Per user of the organization: their teams (id and title), by title. */
    teamsByUser(orgId: string): Map<string, { id: string; title: string }[]> {
      const result = new Map<string, { id: string; title: string }[]>()
      for (const row of teamsOfOrgMembers.all(orgId)) {
        const list = result.get(row.user_id) ?? []
        list.push({ id: row.team_id, title: row.title })
        result.set(row.user_id, list)
      }
      return result
    },
    /** Live spaces granted to a team, by title then id, after the keyset `after` ([title, id]). */
    teamSpaces: (teamId: string, after: [string, string] | undefined, limit: number) =>
      teamSpaces.all({ team: teamId, title: after?.[0] ?? null, id: after?.[1] ?? '', limit }),
    countTeamSpaces: (teamId: string) => teamSpaceCount.get(teamId)!
  }
}
