import type { Role } from '../../../src-shared/schemas/common'
import type { Team, TeamRole } from '../../../src-shared/schemas/teams'
import { forbidden, notFound } from '../../base/errors'

/** The caller as team rules see it: their organization role (null for guests) and their role in the team. */
export interface TeamActor {
  orgRole: Role | null
  teamRole: TeamRole | null
}

/**
 * Who may do what with a team. Org admins manage every team; a team's owners manage its title and members;
 * non-guest members see every team, guests only the teams they belong to. The `permissions` of Team and the
 * route checks both read this table.
 */
export const TEAM_RULES = {
  view: (a: TeamActor) => a.orgRole !== null || a.teamRole !== null,
  admin: (a: TeamActor) => a.orgRole === 'admin' || a.teamRole === 'owner',
  delete: (a: TeamActor) => a.orgRole === 'admin'
} satisfies Record<string, (a: TeamActor) => boolean>

export type TeamAction = keyof typeof TEAM_RULES

export function teamPermissions(a: TeamActor): Team['permissions'] {
  return { admin: TEAM_RULES.admin(a), view: TEAM_RULES.view(a) }
}

/** 404 when the caller cannot see the team, 403 when they can but may not do `action`. */
export function authorizeTeam(a: TeamActor, action: TeamAction): void {
  if (!TEAM_RULES.view(a)) throw notFound('Team')
  if (!TEAM_RULES[action](a)) {
    throw forbidden(
      action === 'delete' ? 'Only organization admins can delete a team' : 'Only organization admins and team owners can manage this team'
    )
  }
}
