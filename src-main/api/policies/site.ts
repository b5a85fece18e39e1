import type { Role } from '../../../src-shared/schemas/common'
import { grantRepository } from '../../storage/repositories/grantRepository'
import type { Ctx } from '../../workspace/context'
import { forbidden } from '../../base/errors'
import { atLeast, maxRole } from './roles'

/**
 * What an organization role allows on its sites. Sites belong to the organization, not to a space, so the
 * organization role decides. Non-guest members read sites (structure, published shape, customization, adaptive
 * schema). Managing them needs `create`, the role that may create content: the hosted service lets content
 * creators run sites, and an admin-only rule would lock out the content managers sites are for. Share links
 * carry secret keys that open the site, so even listing them is management.
 */
export const SITE_ACTIONS = {
  view: 'read',
  create: 'create',
  update: 'create',
  delete: 'create',
  publish: 'create',
  arrange: 'create',
  share: 'create',
  customize: 'create',
  /** Who else holds a role on the site (grants). */
  access: 'admin',
  // Redirects reroute every reader of the published site, even away from it: its admins set them.
  redirect: 'admin',
  // The draft preview shows the site to those who may change it, published or not.
  preview: 'create',
  // A visitor token opens visitor-auth sites with any claims: only admins mint them.
  mintVisitorToken: 'admin'
} as const satisfies Record<string, Role>

export type SiteAction = keyof typeof SITE_ACTIONS

export function canOnSite(orgRole: Role | null, action: SiteAction): boolean {
  return atLeast(orgRole, SITE_ACTIONS[action])
}

/** 403 when the caller's organization role does not allow `action` (guests have no role: they see no site). */
export function authorizeSite(orgRole: Role | null, action: SiteAction): void {
  if (canOnSite(orgRole, action)) return
  throw forbidden(
    orgRole === null
      ? 'Guests cannot see the sites of the organization'
      : `This operation needs the ${SITE_ACTIONS[action]} role in the organization`
  )
}

/**
 * The caller's role on one site: the highest of their organization role (guests have none) and the grants on the
 * site to them and their teams. Organization-wide site operations (list, create) read the organization role alone.
 */
export function siteRole(ctx: Ctx, siteId: string, orgRole: Role | null): Role | null {
  let role = orgRole
  for (const granted of ctx.repo(grantRepository).rolesOf('site', siteId, ctx.actor.id)) role = maxRole(role, granted as Role)
  return role
}
