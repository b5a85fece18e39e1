import type { Role } from '../../../../src-shared/schemas/common'
import { declaredClaims, type JsonSchema } from '../../commands/siteAdaptiveSchema'
import { ConditionError, parseCondition } from '../../../preview/conditions'
import type { OrganizationRow } from '../../../storage/repositories/organizationRepository'
import { siteRepository, type SiteRow } from '../../../storage/repositories/siteRepository'
import { siteSectionRepository, type SiteSectionGroupRow, type SiteSectionRow } from '../../../storage/repositories/siteSectionRepository'
import { siteShareLinkRepository, type ShareLinkRow } from '../../../storage/repositories/siteShareLinkRepository'
import { siteSpaceRepository, type SiteSpaceRow } from '../../../storage/repositories/siteSpaceRepository'
import type { Ctx } from '../../../workspace/context'
import { badRequest, notFound } from '../../../base/errors'
import { requireOrg } from '../../policies/access'
import { authorizeSite, siteRole, type SiteAction } from '../../policies/site'

/** The organization, when the caller's role there allows `action` on its sites (404 for non-members, 403 below). */
export function requireSiteRole(ctx: Ctx, organizationId: string, action: SiteAction): OrganizationRow {
  const { org, member } = requireOrg(ctx, organizationId)
  authorizeSite(member.role as Role | null, action)
  return org
}

/**
 * A site of the organization: 404 when either is unknown or the caller is not a member, 403 when their role on
 * the site (organization role or grants on the site) is too low.
 */
export function loadSite(ctx: Ctx, organizationId: string, siteId: string, action: SiteAction): SiteRow {
  const { org, member } = requireOrg(ctx, organizationId)
  const site = ctx.repo(siteRepository).get(siteId)
  if (!site || site.organization_id !== org.id) throw notFound('Site')
  authorizeSite(siteRole(ctx, site.id, member.role as Role | null), action)
  return site
}

export function loadSiteSpace(ctx: Ctx, site: SiteRow, siteSpaceId: string): SiteSpaceRow {
  const row = ctx.repo(siteSpaceRepository).get(siteSpaceId)
  if (!row || row.site_id !== site.id) throw notFound('Site space')
  return row
}

export function loadSection(ctx: Ctx, site: SiteRow, sectionId: string): SiteSectionRow {
  const row = ctx.repo(siteSectionRepository).get(sectionId)
  if (!row || row.site_id !== site.id) throw notFound('Site section')
  return row
}

export function loadGroup(ctx: Ctx, site: SiteRow, groupId: string): SiteSectionGroupRow {
  const row = ctx.repo(siteSectionRepository).getGroup(groupId)
  if (!row || row.site_id !== site.id) throw notFound('Site section group')
  return row
}

export function loadShareLink(ctx: Ctx, site: SiteRow, shareLinkId: string): ShareLinkRow {
  const row = ctx.repo(siteShareLinkRepository).get(shareLinkId)
  if (!row || row.site_id !== site.id) throw notFound('Share link')
  return row
}

/** A section of the site named in a request body as `field`: 400 otherwise. */
export function sectionInSite(ctx: Ctx, site: SiteRow, sectionId: string, field: string): SiteSectionRow {
  const row = ctx.repo(siteSectionRepository).get(sectionId)
  if (!row || row.site_id !== site.id) throw badRequest(`${field}: no section ${sectionId} in this site`)
  return row
}

/** A site space of the site named in a request body as `field`: 400 otherwise. */
export function siteSpaceInSite(ctx: Ctx, site: SiteRow, siteSpaceId: string, field: string): SiteSpaceRow {
  const row = ctx.repo(siteSpaceRepository).get(siteSpaceId)
  if (!row || row.site_id !== site.id) throw badRequest(`${field}: no site space ${siteSpaceId} in this site`)
  return row
}

/** The share key of a request, checked: it must open an active share link of the site (400 otherwise). */
export function checkShareKey(ctx: Ctx, site: SiteRow, shareKey: string | undefined): string | undefined {
  if (shareKey === undefined) return undefined
  if (!ctx.repo(siteShareLinkRepository).activeOfSite(site.id, shareKey))
    throw badRequest('shareKey: not the key of an active share link of this site')
  return shareKey
}

/**
 * A condition written to a site space or section: parsed and checked now, so a typo answers 400 instead of
 * hiding content from everyone. When the site has an adaptive schema, the claims named must be declared there.
 */
export function checkCondition(site: SiteRow, condition: string): void {
  const declared = site.adaptive_schema ? declaredClaims(JSON.parse(site.adaptive_schema) as JsonSchema) : undefined
  try {
    parseCondition(condition, declared)
  } catch (e) {
    if (e instanceof ConditionError) throw badRequest(`condition: ${e.message}`)
    throw e
  }
}
