import type { Role } from '../../../src-shared/schemas/common'
import { SITE_FEATURES, type Site } from '../../../src-shared/schemas/sites'
import { previewPath } from '../../preview/urls'
import { siteRepository, type SiteRow } from '../../storage/repositories/siteRepository'
import type { Ctx } from '../../workspace/context'
import { orgRole } from '../policies/access'
import { canOnSite, siteRole } from '../policies/site'

/** `urls.published` of a site or of something on it: the local preview (with the share key when given). */
export function publishedUrl(ctx: Ctx, siteId: string, segments: string[] = [], shareKey?: string): string {
  return ctx.url(previewPath(siteId, segments, shareKey))
}

/** Sites with their site-space counts, read in one query. */
export function presentSites(rows: SiteRow[], ctx: Ctx, shareKey?: string): Site[] {
  const counts = ctx.repo(siteRepository).siteSpaceCounts(rows.map((r) => r.id))
  return rows.map((row) => presentSite(row, ctx, counts.get(row.id) ?? 0, shareKey))
}

export function presentSite(row: SiteRow, ctx: Ctx, siteSpaces: number, shareKey?: string): Site {
  const preview = publishedUrl(ctx, row.id)
  // The published document defines `urls.published` only while the site is published: readers reach nothing else.
  const published = row.published ? publishedUrl(ctx, row.id, [], shareKey) : undefined
  const type = row.type as Site['type']
  const site: Site = {
    object: 'site',
    id: row.id,
    type,
    appliedType: type,
    title: row.title,
    visibility: row.visibility as Site['visibility'],
    defaultLevel: 'inherit',
    permissions: sitePermissions(siteRole(ctx, row.id, orgRole(ctx, row.organization_id))),
    published: !!row.published,
    siteSpaces,
    createdAt: row.created_at,
    adaptiveContent: { enabled: !!row.adaptive_enabled },
    features: SITE_FEATURES.map((id) => ({ id, plan: type, frozen: false })),
    urls: {
      location: ctx.url(`/v1/orgs/${row.organization_id}/sites/${row.id}`),
      app: ctx.appUrl(`/orgs/${row.organization_id}/sites/${row.id}`),
      ...(published && { published }),
      preview
    }
  }
  if (row.icon) site.icon = JSON.parse(row.icon)
  if (row.hostname) site.hostname = row.hostname
  if (row.basename) site.basename = row.basename
  // The proxy serves the site under the customer's host and path prefix; the local preview is its target.
  if (row.proxy) site.proxy = { origin: row.proxy, target: published ?? preview }
  return site
}

export function presentOneSite(row: SiteRow, ctx: Ctx, shareKey?: string): Site {
  return presentSites([row], ctx, shareKey)[0]!
}

/**
 * The site permissions of a role, by Quire's site policy: managing content, structure, settings, integrations and
 * the adaptive schema takes `create`; `admin` (everything, with who has access) takes the admin role.
 */
export function sitePermissions(role: Role | null): Site['permissions'] {
  const view = canOnSite(role, 'view')
  const manage = canOnSite(role, 'update')
  return {
    view,
    access: view,
    edit: manage,
    create: manage,
    admin: canOnSite(role, 'access'),
    installIntegration: canOnSite(role, 'customize'),
    viewAdaptiveSchema: view,
    editAdaptiveSchema: canOnSite(role, 'customize')
  }
}
