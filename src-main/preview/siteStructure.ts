import type { Db } from '../storage/database'
import { repository } from '../storage/repositories/memo'
import type { SiteRow } from '../storage/repositories/siteRepository'
import { siteSectionRepository, type SiteSectionGroupRow, type SiteSectionRow } from '../storage/repositories/siteSectionRepository'
import { siteSpaceRepository, type SiteSpaceRow } from '../storage/repositories/siteSpaceRepository'

export interface StructureSection {
  section: SiteSectionRow
  siteSpaces: SiteSpaceRow[]
}

export type StructureItem =
  ({ kind: 'section' } & StructureSection) | { kind: 'group'; group: SiteSectionGroupRow; sections: StructureSection[] }

/** A site's structure in reading order, from three queries. Shared by the published shape and the preview. */
export interface SiteStructure {
  /** `sections` when the site has sections (then `items` is the top of the site), else `siteSpaces`. */
  type: 'sections' | 'siteSpaces'
  items: StructureItem[]
  /** Site spaces at the root of the site (used when it has no sections). */
  rootSiteSpaces: SiteSpaceRow[]
  /** Every site space read, in order (for batch loading of their spaces). */
  siteSpaces: SiteSpaceRow[]
  sections: SiteSectionRow[]
}

export function readSiteStructure(db: Db, site: SiteRow): SiteStructure {
  const sectionRepo = repository(db, siteSectionRepository)
  const sections = sectionRepo.inSite(site.id)
  const siteSpaces = repository(db, siteSpaceRepository).inSite(site.id)
  if (!sections.length) {
    const root = siteSpaces.filter((ss) => !ss.section_id)
    return { type: 'siteSpaces', items: [], rootSiteSpaces: root, siteSpaces: root, sections }
  }
  const bySection = new Map<string, SiteSpaceRow[]>()
  for (const ss of siteSpaces) if (ss.section_id) bySection.set(ss.section_id, [...(bySection.get(ss.section_id) ?? []), ss])
  const entry = (section: SiteSectionRow): StructureSection => ({ section, siteSpaces: bySection.get(section.id) ?? [] })
  const top: (StructureItem & { position: number; seq: number })[] = []
  for (const section of sections)
    if (!section.group_id) top.push({ kind: 'section', ...entry(section), position: section.position, seq: section.seq })
  for (const group of sectionRepo.groupsInSite(site.id)) {
    const inGroup = sections.filter((s) => s.group_id === group.id).map(entry)
    top.push({ kind: 'group', group, sections: inGroup, position: group.position, seq: group.seq })
  }
  top.sort((a, b) => a.position - b.position || a.seq - b.seq)
  const items: StructureItem[] = top.map(({ position: _p, seq: _s, ...item }) => item as StructureItem)
  const ordered = items.flatMap((item) => (item.kind === 'section' ? [item] : item.sections)).flatMap((s) => s.siteSpaces)
  return { type: 'sections', items, rootSiteSpaces: [], siteSpaces: ordered, sections }
}
