import type { Role } from '../../../src-shared/schemas/common'
import type { Collection } from '../../../src-shared/schemas/collections'
import type { Ctx } from '../../workspace/context'
import { authorize, collectionRole, orgRole, type CollectionLike } from './access'
import { atLeast } from './roles'

/** What a role on a collection allows. The `permissions` of Collection and the route checks both read this table. */
export const COLLECTION_ACTIONS = {
  view: 'read',
  create: 'create',
  admin: 'admin',
  viewInviteLinks: 'admin'
} as const satisfies Record<keyof Collection['permissions'], Role>

export type CollectionAction = keyof typeof COLLECTION_ACTIONS

export function collectionPermissions(role: Role | null): Collection['permissions'] {
  const can = (action: CollectionAction) => atLeast(role, COLLECTION_ACTIONS[action])
  return { view: can('view'), admin: can('admin'), viewInviteLinks: can('viewInviteLinks'), create: can('create') }
}

/** 404 when the caller cannot see the collection, 403 when the action needs more than their role. */
export function authorizeCollection(ctx: Ctx, collection: CollectionLike, action: CollectionAction): Role {
  return authorize(collectionRole(ctx, collection), COLLECTION_ACTIONS[action], 'Collection')
}

/**
 * Whether the caller may put a new or moved collection under `parent` (null: the organization's root): the
 * organization's create role, or the create action on the parent collection.
 */
export function canCreateIn(ctx: Ctx, organizationId: string, parent: CollectionLike | null): boolean {
  if (atLeast(orgRole(ctx, organizationId), COLLECTION_ACTIONS.create)) return true
  return !!parent && atLeast(collectionRole(ctx, parent), COLLECTION_ACTIONS.create)
}
