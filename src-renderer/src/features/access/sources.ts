import type { AggregatePermission, PermissionSource } from '../../api/types.ts'
import { ROLE_LABELS } from '../common/roles.ts'

/** What the Share dialog manages; sites have no aggregate (their roles come from the organization and grants). */
export type AccessKind = 'space' | 'collection' | 'site'

/** Where one reason for a role comes from, in a few words ("from collection Handbooks"). */
export function sourceLabel(source: PermissionSource, kind: AccessKind): string {
  const collection = `collection “${source.collection?.title || 'Untitled collection'}”`
  const team = `team “${source.team?.title ?? ''}”`
  switch (source.type) {
    case 'organization':
      return `organization ${ROLE_LABELS[source.role].toLowerCase()}`
    case 'general':
      return `general access to this ${kind}`
    case 'direct':
      return 'shared directly'
    case 'team':
      return `through ${team}`
    case 'collection':
      return `from ${collection}`
    case 'collection-team':
      return `from ${collection}, through ${team}`
    case 'collection-general':
      return `general access to ${collection}`
  }
}

/** Whether a reason is a grant on the object itself (changed here) rather than inherited from elsewhere. */
export const isDirect = (source: PermissionSource): boolean => source.type === 'direct' || source.type === 'team'

function reason(source: PermissionSource, kind: AccessKind): string {
  const role = ROLE_LABELS[source.role]
  const collection = `the collection “${source.collection?.title || 'Untitled collection'}”`
  const team = `the team “${source.team?.title ?? ''}”`
  switch (source.type) {
    case 'organization':
      return `their organization role is ${role}`
    case 'general':
      return `everyone in the organization gets ${role} on this ${kind}`
    case 'direct':
      return `this ${kind} is shared with them as ${role}`
    case 'team':
      return `they are in ${team}, which has ${role} on this ${kind}`
    case 'collection':
      return `they have ${role} on ${collection}, which holds this ${kind}`
    case 'collection-team':
      return `they are in ${team}, which has ${role} on ${collection}, which holds this ${kind}`
    case 'collection-general':
      return `everyone in the organization gets ${role} on ${collection}, which holds this ${kind}`
  }
}

/**
 * "Why does this person have this role here?", in words: the reason that gives the role, then the others (each
 * would give at most that role). `sources` come highest first from the API.
 */
export function explainRole(item: AggregatePermission, kind: AccessKind): string {
  const name = item.user.displayName || item.user.email || 'This person'
  const [first, ...rest] = item.sources
  const role = ROLE_LABELS[item.permission]
  if (!first) return `${name} is ${role} here.`
  const main = `${name} is ${role} here because ${reason(first, kind)}.`
  if (item.permission === 'admin' && first.type === 'organization') {
    return `${main} Organization admins manage every ${kind}.${rest.length ? ` Also: ${rest.map((s) => reason(s, kind)).join('; ')}.` : ''}`
  }
  return rest.length ? `${main} Also: ${rest.map((s) => reason(s, kind)).join('; ')}.` : main
}
