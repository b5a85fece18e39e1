import type { Role } from '../../../src-shared/schemas/common'
import type { Space } from '../../../src-shared/schemas/spaces'
import { atLeast } from './roles'

/** What a role on a space allows. The `permissions` of Space and the route checks both read this table. */
export const SPACE_ACTIONS = {
  view: 'read',
  access: 'read',
  comment: 'comment',
  edit: 'edit',
  triggerGitSync: 'edit',
  merge: 'edit',
  review: 'review',
  admin: 'admin',
  viewInviteLinks: 'admin',
  // Installing an integration on a space (installationTargets.ts) needs the admin role on it.
  installIntegration: 'admin'
} as const satisfies Record<keyof Space['permissions'], Role>

export type SpaceAction = keyof typeof SPACE_ACTIONS

export function spacePermissions(role: Role | null, editMode: string): Space['permissions'] {
  const can = (action: SpaceAction) => atLeast(role, SPACE_ACTIONS[action])
  return {
    view: can('view'),
    access: can('access'),
    admin: can('admin'),
    viewInviteLinks: can('viewInviteLinks'),
    // A locked space refuses content edits from everyone until an admin unlocks it.
    edit: can('edit') && editMode !== 'locked',
    triggerGitSync: can('triggerGitSync') && editMode !== 'locked',
    comment: can('comment'),
    merge: can('merge') && editMode !== 'locked',
    review: can('review'),
    installIntegration: can('installIntegration')
  }
}
