import type { Role } from '../../../../src-shared/schemas/common'
import { memberRepository, type MemberRow } from '../../../storage/repositories/memberRepository'
import type { OrganizationRow } from '../../../storage/repositories/organizationRepository'
import type { Ctx } from '../../../workspace/context'
import { forbidden, notFound } from '../../../base/errors'
import { requireOrg } from '../../policies/access'
import { MEMBER_RULES, type MemberAction, type MemberActor } from '../../policies/member'

const DENIED: Record<MemberAction, string> = {
  view: 'Guests can only see themselves',
  updateRole: "Only organization admins can change a member's role",
  remove: 'Only organization admins can remove another member',
  markSso: 'Only organization admins can mark a member as SSO',
  listSpaces: "Only organization admins and the member themself can list a member's spaces",
  listTeams: 'Guests can only list their own teams'
}

export function memberActor(ctx: Ctx, member: MemberRow): MemberActor {
  return { userId: ctx.actor.id, orgRole: member.role as Role | null }
}

/**
 * A member of an organization the caller belongs to: 404 when either is unknown or the caller may not see the
 * member, 403 when they may see it but not do `action`.
 */
export function loadMember(
  ctx: Ctx,
  orgId: string,
  userId: string,
  action: MemberAction = 'view'
): { org: OrganizationRow; actor: MemberActor; target: MemberRow } {
  const { org, member } = requireOrg(ctx, orgId)
  const actor = memberActor(ctx, member)
  const target = ctx.repo(memberRepository).get(orgId, userId)
  if (!target || !MEMBER_RULES.view(actor, userId)) throw notFound('Member')
  if (!MEMBER_RULES[action](actor, userId)) throw forbidden(DENIED[action])
  return { org, actor, target }
}
