import type { SiteSection, SiteSectionGroup } from '../../../src-shared/schemas/sites'
import type { SiteRow } from '../../storage/repositories/siteRepository'
import { siteSectionRepository, type SiteSectionGroupRow, type SiteSectionRow } from '../../storage/repositories/siteSectionRepository'
import { siteSpaceRepository, type SiteSpaceRow } from '../../storage/repositories/siteSpaceRepository'
import type { Ctx } from '../../workspace/context'
import { publishedUrl } from './site'
import { presentSiteSpace, siteSpaceBatch } from './siteSpace'

/**
 * Sections with their site spaces. `siteSpaces` may be given when the caller already loaded them (the
 * published structure); otherwise they are read in one query for the whole batch.
 */
export function presentSections(
  rows: SiteSectionRow[],
  ctx: Ctx,
  site: SiteRow,
  options: { shareKey?: string; siteSpaces?: SiteSpaceRow[] } = {}
): SiteSection[] {
  const siteSpaceRows = options.siteSpaces ?? ctx.repo(siteSpaceRepository).inSections(rows.map((r) => r.id))
  const batch = siteSpaceBatch(ctx, site, siteSpaceRows, options.shareKey)
  const bySection = new Map<string, SiteSpaceRow[]>()
  for (const ss of siteSpaceRows) if (ss.section_id) bySection.set(ss.section_id, [...(bySection.get(ss.section_id) ?? []), ss])
  return rows.map((row) => {
    const section: SiteSection = {
      object: 'site-section',
      id: row.id,
      title: row.title,
      default: site.default_section_id === row.id,
      path: row.path,
      siteSpaces: (bySection.get(row.id) ?? []).map((ss) => presentSiteSpace(ss, ctx, batch)),
      draft: !site.published,
      urls: { published: publishedUrl(ctx, site.id, [row.path], options.shareKey) }
    }
    if (row.description) section.description = row.description
    if (row.condition) section.condition = row.condition
    if (row.group_id) section.sectionGroup = row.group_id
    if (row.icon) section.icon = row.icon
    return section
  })
}

/** Groups with their sections (and their site spaces), in a fixed number of queries. */
export function presentGroups(rows: SiteSectionGroupRow[], ctx: Ctx, site: SiteRow): SiteSectionGroup[] {
  const sections = ctx.repo(siteSectionRepository).inGroups(rows.map((g) => g.id))
  const presented = presentSections(sections, ctx, site)
  const byGroup = new Map<string, SiteSection[]>()
  presented.forEach((s) => byGroup.set(s.sectionGroup!, [...(byGroup.get(s.sectionGroup!) ?? []), s]))
  return rows.map((row) => presentGroup(row, site, byGroup.get(row.id) ?? []))
}

export function presentGroup(row: SiteSectionGroupRow, site: SiteRow, sections: SiteSection[]): SiteSectionGroup {
  const group: SiteSectionGroup = {
    object: 'site-section-group',
    id: row.id,
    title: row.title,
    draft: !site.published,
    sections,
    children: sections
  }
  if (row.icon) group.icon = row.icon
  return group
}
