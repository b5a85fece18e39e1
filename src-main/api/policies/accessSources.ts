import type { Role } from '../../../src-shared/schemas/common'
import type { PermissionSource } from '../../../src-shared/schemas/permissions'
import { collectionRepository } from '../../storage/repositories/collectionRepository'
import { grantRepository, type GrantRow, type GrantTarget } from '../../storage/repositories/grantRepository'
import type { Ctx } from '../../workspace/context'
import { roleRank } from './roles'

/**
 * Why a user has their role on a space or collection: the same reasons `access.ts` takes the highest of
 * (organization role, general access, grants to them and their teams, the same on every collection above),
 * listed one by one. The aggregate's `permission` is the real check (`spaceRoles`/`collectionRole`); these
 * explain it, and a test holds that their highest always equals it.
 */

interface Link {
  id: string
  title: string
  defaultLevel: Role | null
  grants: GrantRow[]
}

export interface AccessFacts {
  /** The object itself, then each collection above it, nearest first. */
  chain: Link[]
  teamsByUser: Map<string, { id: string; title: string }[]>
}

/** The collections above an object, nearest first (as `access.ts` walks them: a cycle or a missing one ends it). */
export function ancestorCollections(
  ctx: Ctx,
  objectId: string,
  parentId: string | null
): { id: string; title: string; defaultLevel: Role | null }[] {
  const collections = ctx.repo(collectionRepository)
  const ancestors: { id: string; title: string; defaultLevel: Role | null }[] = []
  const seen = new Set<string>([objectId])
  for (let id = parentId; id && !seen.has(id);) {
    seen.add(id)
    const c = collections.get(id)
    if (!c) break
    ancestors.push({ id: c.id, title: c.title, defaultLevel: c.default_level as Role | null })
    id = c.parent_id
  }
  return ancestors
}

export interface AccessObject {
  id: string
  title: string
  default_level: string | null
  parent_id: string | null
  organization_id: string
}

/** Everything the reasons need for one object, read once for all the organization's members. */
export function accessFacts(ctx: Ctx, target: GrantTarget, object: AccessObject): AccessFacts {
  const grants = ctx.repo(grantRepository)
  const ancestors = ancestorCollections(ctx, object.id, object.parent_id)
  const byCollection = new Map<string, GrantRow[]>()
  for (const g of grants.grantsOn(
    'collection',
    ancestors.map((a) => a.id)
  )) {
    byCollection.set(g.target_id, [...(byCollection.get(g.target_id) ?? []), g])
  }
  const own: Link = {
    id: object.id,
    title: object.title,
    defaultLevel: object.default_level as Role | null,
    grants: grants.grantsOn(target, [object.id])
  }
  return {
    chain: [own, ...ancestors.map((a) => ({ ...a, grants: byCollection.get(a.id) ?? [] }))],
    teamsByUser: grants.teamsByUser(object.organization_id)
  }
}

/** The reasons for `userId`'s role, highest first; `orgRole` is their organization role (null: a guest). */
export function accessSources(facts: AccessFacts, userId: string, orgRole: Role | null): PermissionSource[] {
  const sources: PermissionSource[] = []
  const isMember = orgRole !== null
  if (orgRole) sources.push({ type: 'organization', role: orgRole })
  const teams = new Map((facts.teamsByUser.get(userId) ?? []).map((t) => [t.id, t]))
  facts.chain.forEach((link, depth) => {
    const collection = depth === 0 ? undefined : { id: link.id, title: link.title }
    if (isMember && link.defaultLevel)
      sources.push({ type: collection ? 'collection-general' : 'general', role: link.defaultLevel, ...(collection ? { collection } : {}) })
    for (const g of link.grants) {
      const role = g.role as Role
      if (g.principal_type === 'user' && g.principal_id === userId) {
        sources.push({ type: collection ? 'collection' : 'direct', role, ...(collection ? { collection } : {}) })
      } else if (g.principal_type === 'team' && teams.has(g.principal_id)) {
        const team = teams.get(g.principal_id)!
        sources.push({
          type: collection ? 'collection-team' : 'team',
          role,
          team: { id: team.id, title: team.title },
          ...(collection ? { collection } : {})
        })
      }
    }
  })
  // Stable: equal roles keep the order above (organization, the object, then outward).
  return sources.sort((a, b) => roleRank(b.role) - roleRank(a.role))
}
