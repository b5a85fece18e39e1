import type { Role } from '../../../src-shared/schemas/common'
import type { Team } from '../../../src-shared/schemas/teams'
import { teamRepository, type TeamRow } from '../../storage/repositories/teamRepository'
import type { Ctx } from '../../workspace/context'
import { membership } from '../policies/access'
import { teamPermissions } from '../policies/team'

/** Teams of one organization for the caller: counts and the caller's team roles in one query each. */
export function presentTeams(orgId: string, rows: TeamRow[], ctx: Ctx): Team[] {
  const teams = ctx.repo(teamRepository)
  const ids = rows.map((r) => r.id)
  const members = teams.memberCounts(ids)
  const spaces = teams.spaceCounts(ids)
  const callerRoles = teams.rolesOf(ctx.actor.id, ids)
  const orgRole = (membership(ctx, orgId)?.role ?? null) as Role | null
  return rows.map((row) => ({
    object: 'team',
    id: row.id,
    title: row.title,
    members: members.get(row.id) ?? 0,
    spaces: spaces.get(row.id) ?? 0,
    createdAt: row.created_at,
    permissions: teamPermissions({ orgRole, teamRole: callerRoles.get(row.id) ?? null })
  }))
}

export function presentTeam(row: TeamRow, ctx: Ctx): Team {
  return presentTeams(row.organization_id, [row], ctx)[0]!
}
