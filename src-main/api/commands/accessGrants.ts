import type { Role } from '../../../src-shared/schemas/common'
import { collectionRepository } from '../../storage/repositories/collectionRepository'
import { grantRepository, type GrantTarget } from '../../storage/repositories/grantRepository'
import { organizationRepository } from '../../storage/repositories/organizationRepository'
import { spaceRepository } from '../../storage/repositories/spaceRepository'
import { userRepository } from '../../storage/repositories/userRepository'
import type { Ctx } from '../../workspace/context'
import { badRequest, conflict, notFound } from '../../base/errors'
import { ancestorCollections, type AccessObject } from '../policies/accessSources'

/**
 * Grants and removes roles on a space or collection. An object keeps at least one admin path besides the
 * organization's admins (an admin grant to an enabled member or to a team with one, on it or a collection above
 * it, or general access at admin): a change that would take the last one away answers 409, so someone is always
 * left who manages the object's access from inside it.
 */
export function setGrant(
  ctx: Ctx,
  target: GrantTarget,
  object: AccessObject,
  type: 'user' | 'team',
  principalId: string,
  role: Role | null,
  field: string
): void {
  const grants = ctx.repo(grantRepository)
  if (role !== 'admin' && grants.role(target, object.id, type, principalId) === 'admin') {
    const ancestors = ancestorCollections(ctx, object.id, object.parent_id)
    const own = grants.adminGrants(target, [object.id], object.organization_id)
    const counted = own.some((g) => g.principal_type === type && g.principal_id === principalId)
    const others =
      own.some((g) => !(g.principal_type === type && g.principal_id === principalId)) ||
      object.default_level === 'admin' ||
      ancestors.some((a) => a.defaultLevel === 'admin') ||
      grants.adminGrants(
        'collection',
        ancestors.map((a) => a.id),
        object.organization_id
      ).length > 0
    if (counted && !others) {
      throw conflict(
        `${field}: ${role ? 'demoting' : 'removing'} the last admin of this ${target} is not allowed; give another member or team the admin role first`
      )
    }
  }
  if (target === 'space') ctx.repo(spaceRepository).setGrant(object.id, type, principalId, role, ctx.now)
  else if (target === 'collection') ctx.repo(collectionRepository).setGrant(object.id, type, principalId, role, ctx.now)
  else grants.set(target, object.id, type, principalId, role, ctx.now)
}

/** A member named in the path (`…/permissions/users/{userId}`): 404 unless they belong to the organization. */
export function memberInPath(ctx: Ctx, organizationId: string, userId: string): string {
  if (!ctx.repo(organizationRepository).member(organizationId, userId)) throw notFound('User')
  return userId
}

/** A team named in the path (`…/permissions/teams/{teamId}`): 404 unless it is a team of the organization. */
export function teamInPath(ctx: Ctx, organizationId: string, teamId: string): string {
  if (ctx.repo(spaceRepository).teamOrganization(teamId) !== organizationId) throw notFound('Team')
  return teamId
}

/** Sets the roles an invite names (users by id or e-mail, teams by id); a bad name answers 400 and changes nothing. */
export function invite(
  ctx: Ctx,
  target: GrantTarget,
  object: AccessObject,
  body: { role: Role | null; users?: string[]; teams?: string[] }
): void {
  const { role, users = [], teams = [] } = body
  if (!users.length && !teams.length) throw badRequest('users: give at least one user or team')
  const what = `the ${target}'s organization`
  const userRepo = ctx.repo(userRepository)
  const orgs = ctx.repo(organizationRepository)
  const userIds = users.map((ref, i) => {
    const user = ref.includes('@') ? userRepo.getByEmail(ref) : userRepo.get(ref)
    if (!user || !orgs.member(object.organization_id, user.id)) throw badRequest(`users.${i}: ${ref} is not a member of ${what}`)
    return user.id
  })
  teams.forEach((teamId, i) => {
    if (ctx.repo(spaceRepository).teamOrganization(teamId) !== object.organization_id)
      throw badRequest(`teams.${i}: no team ${teamId} in ${what}`)
  })
  userIds.forEach((id, i) => setGrant(ctx, target, object, 'user', id, role, `users.${i}`))
  teams.forEach((id, i) => setGrant(ctx, target, object, 'team', id, role, `teams.${i}`))
}
