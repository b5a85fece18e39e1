import type { Site } from '../../../src-shared/schemas/sites'
import { previewPath } from '../../preview/urls'
import { siteRepository, type SiteRow } from '../../storage/repositories/siteRepository'
import type { Ctx } from '../../workspace/context'

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
  const published = publishedUrl(ctx, row.id, [], shareKey)
  const site: Site = {
    object: 'site',
    id: row.id,
    type: row.type as Site['type'],
    title: row.title,
    visibility: row.visibility as Site['visibility'],
    published: !!row.published,
    siteSpaces,
    createdAt: row.created_at,
    adaptiveContent: { enabled: !!row.adaptive_enabled },
    urls: {
      location: ctx.url(`/v1/orgs/${row.organization_id}/sites/${row.id}`),
      app: ctx.appUrl(`/orgs/${row.organization_id}/sites/${row.id}`),
      published
    }
  }
  if (row.icon) site.icon = JSON.parse(row.icon)
  if (row.hostname) site.hostname = row.hostname
  if (row.basename) site.basename = row.basename
  // The proxy serves the site under the customer's host and path prefix; the local preview is its target.
  if (row.proxy) site.proxy = { origin: `https://${row.proxy}`, target: published }
  return site
}

export function presentOneSite(row: SiteRow, ctx: Ctx, shareKey?: string): Site {
  return presentSites([row], ctx, shareKey)[0]!
}
