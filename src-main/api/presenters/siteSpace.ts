import type { Space } from '../../../src-shared/schemas/spaces'
import type { SiteSpace } from '../../../src-shared/schemas/sites'
import type { SiteRow } from '../../storage/repositories/siteRepository'
import { siteSectionRepository } from '../../storage/repositories/siteSectionRepository'
import { siteSpaceRepository, type PublishedPlace, type SiteSpaceRow } from '../../storage/repositories/siteSpaceRepository'
import { spaceRepository, type SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'
import { spaceRoles } from '../policies/access'
import { presentSpaces } from './space'
import { publishedUrl } from './site'

/** What presenting a batch of site spaces needs, loaded once for the batch. */
export interface SiteSpaceBatch {
  site: SiteRow
  shareKey?: string
  sectionPaths: Map<string, string>
  spaceRows: Map<string, SpaceRow>
  /** The space as the caller may see it; absent when the caller has no role on it. */
  spaces: Map<string, Space>
}

/** Loads the spaces (with the caller's permissions) and section paths of these site spaces in a fixed number of queries. */
export function siteSpaceBatch(ctx: Ctx, site: SiteRow, rows: SiteSpaceRow[], shareKey?: string): SiteSpaceBatch {
  const spaceRows = ctx.repo(spaceRepository).getMany(rows.map((r) => r.space_id))
  const list = [...spaceRows.values()]
  const roles = spaceRoles(ctx, site.organization_id, list)
  const visible = list.filter((s) => roles.get(s.id))
  const spaces = new Map(presentSpaces(visible, ctx, roles).map((s) => [s.id, s]))
  const sectionPaths = rows.some((r) => r.section_id)
    ? new Map(
        ctx
          .repo(siteSectionRepository)
          .inSite(site.id)
          .map((s) => [s.id, s.path])
      )
    : new Map<string, string>()
  return { site, shareKey, sectionPaths, spaceRows, spaces }
}

/** The preview path segments of a site space: its section's path (when in one), then its own. */
export function siteSpaceSegments(row: SiteSpaceRow, sectionPaths: Map<string, string>): string[] {
  const section = row.section_id ? sectionPaths.get(row.section_id) : undefined
  return section ? [section, row.path] : [row.path]
}

export function presentSiteSpace(row: SiteSpaceRow, ctx: Ctx, batch: SiteSpaceBatch): SiteSpace {
  const siteSpace: SiteSpace = {
    object: 'site-space',
    id: row.id,
    path: row.path,
    title: batch.spaceRows.get(row.space_id)?.title ?? '',
    default: !!row.is_default,
    hasAdvancedCustomizationFeature: batch.site.type === 'premium' || batch.site.type === 'ultimate',
    draft: !batch.site.published,
    urls: { published: publishedUrl(ctx, batch.site.id, siteSpaceSegments(row, batch.sectionPaths), batch.shareKey) }
  }
  if (row.section_id) siteSpace.section = row.section_id
  const space = batch.spaces.get(row.space_id)
  if (space) siteSpace.space = space
  if (row.condition) siteSpace.condition = row.condition
  return siteSpace
}

export function presentSiteSpaces(rows: SiteSpaceRow[], ctx: Ctx, site: SiteRow, shareKey?: string): SiteSpace[] {
  const batch = siteSpaceBatch(ctx, site, rows, shareKey)
  return rows.map((row) => presentSiteSpace(row, ctx, batch))
}

/**
 * `urls.published` for spaces: the local preview URL of the first published site that shows each space, in
 * one query for the batch. Spaces on no published site have none. (For the space presenter.)
 */
export function spacePublishedUrls(ctx: Ctx, spaceIds: string[]): Map<string, string> {
  const places = ctx.repo(siteSpaceRepository).publishedPlaces(spaceIds)
  return new Map([...places].map(([spaceId, p]) => [spaceId, placeUrl(ctx, p)]))
}

/** The preview URL of a space where a published site shows it, carrying a share key when given. */
export function placeUrl(ctx: Ctx, place: PublishedPlace, shareKey?: string): string {
  return publishedUrl(ctx, place.site_id, place.section_path ? [place.section_path, place.path] : [place.path], shareKey)
}
