import type { Role } from '../../../src-shared/schemas/common'
import type { OpenAPISpec } from '../../../src-shared/schemas/openapi'
import type { MemberRow } from '../../storage/repositories/organizationRepository'
import { atLeast } from './roles'

/**
 * OpenAPI specs belong to the organization: non-guest members read them and their versions; members who may
 * create content (the organization's `permissions.createOpenAPISpec`) create, replace and delete them.
 */
export const OPENAPI_SPEC_ACTIONS = {
  view: 'read',
  edit: 'create'
} as const satisfies Record<keyof OpenAPISpec['permissions'], Role>

export function openapiSpecPermissions(member: MemberRow | undefined): OpenAPISpec['permissions'] {
  const role = member?.role as Role | null | undefined
  return { view: atLeast(role, OPENAPI_SPEC_ACTIONS.view), edit: atLeast(role, OPENAPI_SPEC_ACTIONS.edit) }
}
