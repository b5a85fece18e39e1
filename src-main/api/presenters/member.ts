import type { Role } from '../../../src-shared/schemas/common'
import type { Member } from '../../../src-shared/schemas/members'
import { memberRepository, type MemberRow } from '../../storage/repositories/memberRepository'
import { userRepository } from '../../storage/repositories/userRepository'
import type { Ctx } from '../../workspace/context'
import { presentUser } from './user'

/** Members of one organization: their users and their space/team/site counts in one query each for the page. */
export function presentMembers(orgId: string, rows: MemberRow[], ctx: Ctx): Member[] {
  const ids = rows.map((r) => r.user_id)
  const users = ctx.repo(userRepository).getMany(ids)
  const members = ctx.repo(memberRepository)
  const spaces = members.spaceGrantCounts(orgId, ids)
  const teams = members.teamCounts(orgId, ids)
  const sites = members.siteGrantCounts(orgId, ids)
  return rows.map((row) => {
    const member: Member = {
      object: 'member',
      id: row.user_id,
      role: row.role as Role | null,
      user: presentUser(users.get(row.user_id)!, ctx),
      disabled: !!row.disabled,
      joinedAt: row.joined_at,
      sso: !!row.sso,
      spaces: spaces.get(row.user_id) ?? 0,
      teams: teams.get(row.user_id) ?? 0,
      sites: sites.get(row.user_id) ?? 0
    }
    if (row.last_seen_at) member.lastSeenAt = row.last_seen_at
    return member
  })
}

export function presentMember(row: MemberRow, ctx: Ctx): Member {
  return presentMembers(row.organization_id, [row], ctx)[0]!
}
