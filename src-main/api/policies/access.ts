import type { Role } from '../../../src-shared/schemas/common'
import type { Db } from '../../storage/database'
import { organizationRepository, type MemberRow, type OrganizationRow } from '../../storage/repositories/organizationRepository'
import type { Ctx } from '../../workspace/context'
import { forbidden, notFound } from '../../base/errors'
import { atLeast, maxRole } from './roles'

/**
 * Who may do what. The effective role of a caller on a space or collection is the highest of:
 * their organization role (guests have none), direct grants, grants to their teams, the `defaultLevel` of the
 * object and of every ancestor collection (for non-guest members), and grants on ancestor collections.
 * Objects the caller has no role on answer 404, so their existence is not revealed.
 */

function memo<T>(ctx: Ctx, key: string, compute: () => T): T {
  if (ctx.memo.has(key)) return ctx.memo.get(key) as T
  const value = compute()
  ctx.memo.set(key, value)
  return value
}

export function membership(ctx: Ctx, organizationId: string, userId = ctx.actor.id): MemberRow | undefined {
  return memo(ctx, `member:${organizationId}:${userId}`, () => {
    const m = ctx.repo(organizationRepository).member(organizationId, userId)
    return m && !m.disabled ? m : undefined
  })
}

export function orgRole(ctx: Ctx, organizationId: string): Role | null {
  return (membership(ctx, organizationId)?.role as Role | null | undefined) ?? null
}

/** The organization, when the caller belongs to it (guests included); 404 otherwise. */
export function requireOrg(ctx: Ctx, organizationId: string): { org: OrganizationRow; member: MemberRow } {
  const member = membership(ctx, organizationId)
  const org = member && ctx.repo(organizationRepository).get(organizationId)
  if (!member || !org) throw notFound('Organization')
  return { org, member }
}

/** As requireOrg, and the caller's organization role must be at least `needed` (403 otherwise). */
export function requireOrgRole(ctx: Ctx, organizationId: string, needed: Role) {
  const found = requireOrg(ctx, organizationId)
  if (!atLeast(found.member.role as Role | null, needed)) throw forbidden(`This operation needs the ${needed} role in the organization`)
  return found
}

/** Non-guest members (any role) see the organization's people and teams. */
export function requireOrgMember(ctx: Ctx, organizationId: string) {
  const found = requireOrg(ctx, organizationId)
  if (found.member.role === null) throw forbidden('Guests cannot see the organization members')
  return found
}

// --- spaces and collections -------------------------------------------------------------------------------

interface Access {
  principals: string
  collections: Map<string, { parent_id: string | null; default_level: string | null }>
  collectionGrants: Map<string, Role>
}

function accessStatements(db: Db) {
  return {
    teams: db.prepare<[string], string>('SELECT team_id FROM team_members WHERE user_id = ?').pluck(),
    collections: db.prepare<[string], { id: string; parent_id: string | null; default_level: string | null }>(
      'SELECT id, parent_id, default_level FROM collections WHERE organization_id = ?'
    ),
    collectionGrants: db.prepare<[string], { collection_id: string; role: Role }>(
      'SELECT collection_id, role FROM collection_grants WHERE principal_id IN (SELECT value FROM json_each(?))'
    ),
    spaceGrants: db.prepare<[string, string], { space_id: string; role: Role }>(
      `SELECT space_id, role FROM space_grants
       WHERE space_id IN (SELECT value FROM json_each(?)) AND principal_id IN (SELECT value FROM json_each(?))`
    )
  }
}

/** The user and their teams, as the JSON array the grant queries take. */
function principalsOf(ctx: Ctx, userId: string): string {
  return memo(ctx, `principals:${userId}`, () => JSON.stringify([userId, ...ctx.repo(accessStatements).teams.all(userId)]))
}

/** The organization's collection tree and the user's grants on it (loaded only when a collection matters). */
function access(ctx: Ctx, organizationId: string, userId: string): Access {
  const st = ctx.repo(accessStatements)
  const principals = principalsOf(ctx, userId)
  return memo(ctx, `access:${organizationId}:${userId}`, () => {
    const collections = new Map(st.collections.all(organizationId).map((c) => [c.id, c]))
    const collectionGrants = new Map<string, Role>()
    for (const g of st.collectionGrants.all(principals)) {
      collectionGrants.set(g.collection_id, maxRole(collectionGrants.get(g.collection_id), g.role)!)
    }
    return { principals, collections, collectionGrants }
  })
}

/** Highest role inherited from a collection and its ancestors. */
function inheritedFrom(a: Access, collectionId: string | null, isMember: boolean): Role | null {
  let role: Role | null = null
  const seen = new Set<string>()
  for (let id = collectionId; id && !seen.has(id);) {
    seen.add(id)
    const c = a.collections.get(id)
    if (!c) break
    if (isMember) role = maxRole(role, c.default_level as Role | null)
    role = maxRole(role, a.collectionGrants.get(id))
    id = c.parent_id
  }
  return role
}

export interface SpaceLike {
  id: string
  organization_id: string
  parent_id: string | null
  default_level: string | null
}

/**
 * Effective roles on many spaces of one organization, in a fixed number of queries. `userId` defaults to the
 * caller (another member's roles are read for the member's spaces list).
 */
export function spaceRoles(ctx: Ctx, organizationId: string, spaces: SpaceLike[], userId = ctx.actor.id): Map<string, Role | null> {
  const result = new Map<string, Role | null>()
  const member = membership(ctx, organizationId, userId)
  if (!member || member.role === 'admin') {
    for (const s of spaces) result.set(s.id, member ? 'admin' : null)
    return result
  }
  const isMember = member.role !== null
  // Spaces at the organization's root inherit nothing: the collection tree is read only when one is nested.
  const a = spaces.some((s) => s.parent_id) ? access(ctx, organizationId, userId) : undefined
  const grants = new Map<string, Role>()
  if (spaces.length) {
    for (const g of ctx.repo(accessStatements).spaceGrants.all(JSON.stringify(spaces.map((s) => s.id)), principalsOf(ctx, userId))) {
      grants.set(g.space_id, maxRole(grants.get(g.space_id), g.role)!)
    }
  }
  for (const s of spaces) {
    let role = isMember ? maxRole(member.role as Role, s.default_level as Role | null) : null
    role = maxRole(role, grants.get(s.id))
    if (a) role = maxRole(role, inheritedFrom(a, s.parent_id, isMember))
    result.set(s.id, role)
  }
  return result
}

export function spaceRole(ctx: Ctx, space: SpaceLike): Role | null {
  return memo(ctx, `space-role:${space.id}`, () => spaceRoles(ctx, space.organization_id, [space]).get(space.id) ?? null)
}

export interface CollectionLike {
  id: string
  organization_id: string
}

export function collectionRole(ctx: Ctx, collection: CollectionLike, userId = ctx.actor.id): Role | null {
  const member = membership(ctx, collection.organization_id, userId)
  if (!member) return null
  if (member.role === 'admin') return 'admin'
  const isMember = member.role !== null
  const a = access(ctx, collection.organization_id, userId)
  return maxRole(isMember ? (member.role as Role) : null, inheritedFrom(a, collection.id, isMember))
}

/**
 * 404 when the caller cannot see the object at all, 403 when they can but their role is below `needed`.
 * Returns the role for presenters.
 */
export function authorize(role: Role | null, needed: Role, what: string): Role {
  if (!role) throw notFound(what)
  if (!atLeast(role, needed)) throw forbidden(`This operation needs the ${needed} role on this ${what.toLowerCase()}`)
  return role
}

/**
 * Which spaces of an organization the caller may list: all of them for non-guest members; for guests, those
 * granted to them or their teams, and those inside collections granted to them (at any depth).
 */
export function spaceListScope(
  ctx: Ctx,
  organizationId: string
): { all: true } | { all: false; principals: string; collectionIds: string } {
  const member = membership(ctx, organizationId)
  if (member && member.role !== null) return { all: true }
  const a = access(ctx, organizationId, ctx.actor.id)
  const visible = [...a.collections.keys()].filter((id) => inheritedFrom(a, id, false) !== null)
  return { all: false, principals: a.principals, collectionIds: JSON.stringify(visible) }
}
