import { readSiteStructure, type StructureSection } from './siteStructure'
import { PageTree } from '../content/pageTree'
import { loadPages, type PageRecord } from '../content/revisions'
import type { Db } from '../storage/database'
import { repository } from '../storage/repositories/memo'
import type { SiteRow } from '../storage/repositories/siteRepository'
import type { SiteSectionGroupRow, SiteSectionRow } from '../storage/repositories/siteSectionRepository'
import type { SiteSpaceRow } from '../storage/repositories/siteSpaceRepository'
import { spaceRepository, type SpaceRow } from '../storage/repositories/spaceRepository'
import { evaluateCondition, type VisitorClaims } from './conditions'

export interface NavSiteSpace {
  row: SiteSpaceRow
  space: SpaceRow
  /** Preview path segments of the site space (its section's path first, when in one). */
  segments: string[]
}

export interface NavSection {
  section: SiteSectionRow
  siteSpaces: NavSiteSpace[]
}

export type NavItem = ({ kind: 'section' } & NavSection) | { kind: 'group'; group: SiteSectionGroupRow; sections: NavSection[] }

/** The part of a site's structure one visitor may see: what a condition hides is not there at all. */
export interface VisibleStructure {
  hasSections: boolean
  items: NavItem[]
  sections: NavSection[]
  /** Site spaces at the root of a site without sections. */
  rootSiteSpaces: NavSiteSpace[]
}

const shows = (condition: string | null, claims: VisitorClaims) => !condition || evaluateCondition(condition, claims)

export function visibleStructure(db: Db, site: SiteRow, claims: VisitorClaims): VisibleStructure {
  const structure = readSiteStructure(db, site)
  const spaces = repository(db, spaceRepository).getMany(structure.siteSpaces.map((ss) => ss.space_id))
  const siteSpaces = (rows: SiteSpaceRow[], prefix: string[]): NavSiteSpace[] =>
    rows
      .filter((row) => shows(row.condition, claims) && spaces.has(row.space_id))
      .map((row) => ({ row, space: spaces.get(row.space_id)!, segments: [...prefix, row.path] }))
  const section = (entry: StructureSection): NavSection | undefined => {
    if (!shows(entry.section.condition, claims)) return undefined
    const visible = siteSpaces(entry.siteSpaces, [entry.section.path])
    return visible.length ? { section: entry.section, siteSpaces: visible } : undefined
  }
  const items: NavItem[] = []
  for (const item of structure.items) {
    if (item.kind === 'section') {
      const s = section(item)
      if (s) items.push({ kind: 'section', ...s })
    } else {
      const sections = item.sections.map(section).filter((s): s is NavSection => !!s)
      if (sections.length) items.push({ kind: 'group', group: item.group, sections })
    }
  }
  const sections = items.flatMap((i) => (i.kind === 'section' ? [i] : i.sections))
  return { hasSections: structure.type === 'sections', items, sections, rootSiteSpaces: siteSpaces(structure.rootSiteSpaces, []) }
}

export interface PageNode {
  page: PageRecord
  path: string
  children: PageNode[]
}

/** A space's primary content as a tree of visible pages, with each page's path. */
export function pageTreeOf(db: Db, space: SpaceRow): PageNode[] {
  if (!space.revision_id) return []
  const tree = PageTree.readOnly(loadPages(db, space.revision_id))
  const paths = tree.paths()
  const index = tree.childrenIndex()
  const build = (parentId: string | null): PageNode[] =>
    (index.get(parentId) ?? []).filter((p) => !p.hidden).map((page) => ({ page, path: paths.get(page.id)!, children: build(page.id) }))
  return build(null)
}

/** The first page with content, depth first (group pages only gather their children; links lead away). */
export function firstPage(nodes: PageNode[]): PageNode | undefined {
  for (const node of nodes) {
    if (node.page.type === 'document') return node
    const child = firstPage(node.children)
    if (child) return child
  }
  return undefined
}

export function findPage(nodes: PageNode[], path: string): PageNode | undefined {
  for (const node of nodes) {
    if (node.path === path) return node
    const child = findPage(node.children, path)
    if (child) return child
  }
  return undefined
}

export interface Located {
  section?: NavSection
  siteSpace: NavSiteSpace
  /** Path segments after the site space's own. */
  rest: string[]
}

const pick = (list: NavSiteSpace[]) => list.find((ss) => ss.row.is_default) ?? list[0]

/**
 * Which section and site space a preview path names: `/<section>/<site space>/<page path>` on a site with
 * sections, `/<site space>/<page path>` without; missing parts fall back to the defaults. Undefined when the
 * path names something this visitor cannot see.
 */
export function locate(site: SiteRow, structure: VisibleStructure, segments: string[]): Located | undefined {
  if (!structure.hasSections) {
    if (!segments.length) {
      const siteSpace = pick(structure.rootSiteSpaces)
      return siteSpace && { siteSpace, rest: [] }
    }
    const siteSpace = structure.rootSiteSpaces.find((ss) => ss.row.path === segments[0])
    return siteSpace && { siteSpace, rest: segments.slice(1) }
  }
  const section = segments.length
    ? structure.sections.find((s) => s.section.path === segments[0])
    : (structure.sections.find((s) => s.section.id === site.default_section_id) ?? structure.sections[0])
  if (!section) return undefined
  if (segments.length <= 1) {
    const siteSpace = pick(section.siteSpaces)
    return siteSpace && { section, siteSpace, rest: [] }
  }
  const siteSpace = section.siteSpaces.find((ss) => ss.row.path === segments[1])
  return siteSpace && { section, siteSpace, rest: segments.slice(2) }
}
