import type { Role } from '../../../src-shared/schemas/common'
import type { AggregatePermission, TeamPermission, UserPermission } from '../../../src-shared/schemas/permissions'
import { grantRepository, type GrantTarget } from '../../storage/repositories/grantRepository'
import { userRepository } from '../../storage/repositories/userRepository'
import type { Ctx } from '../../workspace/context'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, encodeCursor, envelope, type ListEnvelope } from '../pagination'
import { accessFacts, accessSources, type AccessObject } from '../policies/accessSources'
import { presentTeams } from './team'
import { presentUser } from './user'

interface PageQuery {
  page?: string
  limit?: number
}

/** Users granted a role directly, by name (keyset: name, id). */
export function listUserPermissions(ctx: Ctx, target: GrantTarget, object: AccessObject, query: PageQuery): ListEnvelope<UserPermission> {
  const grants = ctx.repo(grantRepository)
  const limit = query.limit ?? DEFAULT_LIMIT
  const after = decodeCursor(query.page, ['string', 'string'] as const)
  const rows = grants.users(target, object.id, object.organization_id, after, limit + 1)
  const count = cachedCount(ctx, `grants:${target}:${object.id}:users`, () => grants.countUsers(target, object.id, object.organization_id))
  return envelope(
    rows,
    limit,
    count,
    (r) => [r.display_name, r.id],
    (page) => page.map((r) => ({ permission: r.role as Role, user: presentUser(r, ctx) }))
  )
}

/** Teams granted a role directly, by title (keyset: title, id). */
export function listTeamPermissions(ctx: Ctx, target: GrantTarget, object: AccessObject, query: PageQuery): ListEnvelope<TeamPermission> {
  const grants = ctx.repo(grantRepository)
  const limit = query.limit ?? DEFAULT_LIMIT
  const after = decodeCursor(query.page, ['string', 'string'] as const)
  const rows = grants.teams(target, object.id, object.organization_id, after, limit + 1)
  const count = cachedCount(ctx, `grants:${target}:${object.id}:teams`, () => grants.countTeams(target, object.id, object.organization_id))
  return envelope(
    rows,
    limit,
    count,
    (r) => [r.title, r.id],
    (page) => {
      const teams = presentTeams(object.organization_id, page, ctx)
      return page.map((r, i) => ({ permission: r.role as Role, team: teams[i]! }))
    }
  )
}

/**
 * Everyone with a role on the object, in the organization's member order (keyset: the member's seq), with the
 * reasons for it. `roleOf` is the real check, so the list and the access checks never disagree.
 */
export function listAggregatePermissions(
  ctx: Ctx,
  target: GrantTarget,
  object: AccessObject,
  query: PageQuery & { role?: Role },
  roleOf: (userId: string) => Role | null
): ListEnvelope<AggregatePermission> {
  const grants = ctx.repo(grantRepository)
  const limit = query.limit ?? DEFAULT_LIMIT
  const [afterSeq = 0] = decodeCursor(query.page, ['integer'] as const) ?? []
  const facts = accessFacts(ctx, target, object)
  const everyone = grants
    .orgMembers(object.organization_id)
    .map((m) => ({ member: m, role: m.disabled ? null : roleOf(m.user_id) }))
    .filter((e): e is typeof e & { role: Role } => e.role !== null && (!query.role || e.role === query.role))
  const rows = everyone.filter((e) => e.member.seq > afterSeq).slice(0, limit + 1)
  const more = rows.length > limit
  const page = rows.slice(0, limit)
  const users = ctx.repo(userRepository).getMany(page.map((e) => e.member.user_id))
  const result: ListEnvelope<AggregatePermission> = {
    items: page.map((e) => ({
      permission: e.role,
      user: presentUser(users.get(e.member.user_id)!, ctx),
      sources: accessSources(facts, e.member.user_id, e.member.role as Role | null)
    })),
    count: everyone.length
  }
  if (more) result.next = { page: encodeCursor([page[page.length - 1]!.member.seq]) }
  return result
}
