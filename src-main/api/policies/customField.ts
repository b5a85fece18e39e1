import type { Role } from '../../../src-shared/schemas/common'
import type { CustomField } from '../../../src-shared/schemas/customFields'
import type { MemberRow } from '../../storage/repositories/organizationRepository'
import { atLeast } from './roles'

/**
 * Custom field definitions belong to the organization: non-guest members read them, organization admins
 * change them. Values on a space follow the space's own roles (read to see, edit to change).
 */
export const CUSTOM_FIELD_ACTIONS = {
  view: 'read',
  edit: 'admin'
} as const satisfies Record<keyof CustomField['permissions'], Role>

export function customFieldPermissions(member: MemberRow | undefined): CustomField['permissions'] {
  const role = member?.role as Role | null | undefined
  return { view: atLeast(role, CUSTOM_FIELD_ACTIONS.view), edit: atLeast(role, CUSTOM_FIELD_ACTIONS.edit) }
}
