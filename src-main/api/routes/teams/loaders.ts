import type { Role } from '../../../../src-shared/schemas/common'
import type { OrganizationRow } from '../../../storage/repositories/organizationRepository'
import { teamRepository, type TeamRow } from '../../../storage/repositories/teamRepository'
import type { Ctx } from '../../../workspace/context'
import { notFound } from '../../../base/errors'
import { requireOrg } from '../../policies/access'
import { authorizeTeam, type TeamAction, type TeamActor } from '../../policies/team'

/**
 * A team of an organization the caller belongs to: 404 when either is unknown or the caller may not see the
 * team, 403 when they may see it but not do `action`.
 */
export function loadTeam(
  ctx: Ctx,
  orgId: string,
  teamId: string,
  action: TeamAction = 'view'
): { org: OrganizationRow; team: TeamRow; actor: TeamActor } {
  const { org, member } = requireOrg(ctx, orgId)
  const teams = ctx.repo(teamRepository)
  const team = teams.get(teamId)
  if (!team || team.organization_id !== org.id) throw notFound('Team')
  const actor: TeamActor = { orgRole: member.role as Role | null, teamRole: teams.membership(team.id, ctx.actor.id)?.role ?? null }
  authorizeTeam(actor, action)
  return { org, team, actor }
}
