import { openapiSpecRepository, type OpenAPISpecRow } from '../../../storage/repositories/openapiSpecRepository'
import type { Ctx } from '../../../workspace/context'
import { notFound } from '../../../base/errors'
import { requireOrgMember, requireOrgRole } from '../../policies/access'
import { OPENAPI_SPEC_ACTIONS } from '../../policies/openapiSpec'

/**
 * The organization's spec `slug`, after the caller's right to `action` it: non-members 404, guests and roles
 * below the action's 403, unknown slugs 404.
 */
export function findSpec(ctx: Ctx, organizationId: string, slug: string, action: keyof typeof OPENAPI_SPEC_ACTIONS): OpenAPISpecRow {
  authorizeSpecs(ctx, organizationId, action)
  const spec = ctx.repo(openapiSpecRepository).getBySlug(organizationId, slug)
  if (!spec) throw notFound('OpenAPI spec')
  return spec
}

export function authorizeSpecs(ctx: Ctx, organizationId: string, action: keyof typeof OPENAPI_SPEC_ACTIONS): void {
  requireOrgMember(ctx, organizationId)
  if (action !== 'view') requireOrgRole(ctx, organizationId, OPENAPI_SPEC_ACTIONS[action])
}
