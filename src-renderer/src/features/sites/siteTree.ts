// A site's structure (section groups → sections → site spaces, or site spaces at the root) as the rows a
// virtualized tree draws, and the moves the API accepts: an item only moves among its own siblings, before
// or after one of them. Pure functions: tested in Node.
import type { PublishedSite, SiteSection, SiteSectionGroup, SiteSpace } from '../../api/types.ts'

export type StructureKind = 'group' | 'section' | 'site-space'

export interface ItemRef {
  kind: StructureKind
  id: string
}

interface RowBase extends ItemRef {
  /** `${kind}:${id}`: unique in the tree, stable across refetches. */
  key: string
  title: string
  depth: number
  /** The list the row is ordered in: `top` (sections and groups), `group:<id>`, `section:<id>` or `root`. */
  container: string
  parentKey: string | null
  index: number
  siblings: number
  prev?: ItemRef
  next?: ItemRef
  /** Groups and sections: how many rows they hold directly. */
  childCount: number
  expanded: boolean
}

export type StructureRow = RowBase &
  ({ kind: 'group'; group: SiteSectionGroup } | { kind: 'section'; section: SiteSection } | { kind: 'site-space'; siteSpace: SiteSpace })

export type Structure = PublishedSite['structure']
type Item = Structure['structure'][number]

export const rowKey = (ref: ItemRef): string => `${ref.kind}:${ref.id}`

const kindOf = (item: Item): StructureKind =>
  item.object === 'site-section-group' ? 'group' : item.object === 'site-section' ? 'section' : 'site-space'

/**
 * The rows to draw, depth first, in the API's reading order (`GET …/published` gives the structure in order:
 * the separate lists cannot say how sections and groups interleave). Children of collapsed rows are left out.
 */
export function buildStructureRows(structure: Structure, isCollapsed: (key: string) => boolean = () => false): StructureRow[] {
  const rows: StructureRow[] = []
  const walk = (items: Item[], depth: number, container: string, parentKey: string | null) => {
    items.forEach((item, index) => {
      const kind = kindOf(item)
      const ref = { kind, id: item.id }
      const key = rowKey(ref)
      const children: Item[] =
        item.object === 'site-section-group' ? (item.sections ?? []) : item.object === 'site-section' ? item.siteSpaces : []
      const expanded = kind !== 'site-space' && !isCollapsed(key)
      const neighbour = (i: number): ItemRef | undefined => (items[i] ? { kind: kindOf(items[i]!), id: items[i]!.id } : undefined)
      const base: RowBase = {
        ...ref,
        key,
        title: item.title,
        depth,
        container,
        parentKey,
        index,
        siblings: items.length,
        prev: neighbour(index - 1),
        next: neighbour(index + 1),
        childCount: children.length,
        expanded
      }
      if (item.object === 'site-section-group') rows.push({ ...base, kind: 'group', group: item })
      else if (item.object === 'site-section') rows.push({ ...base, kind: 'section', section: item })
      else rows.push({ ...base, kind: 'site-space', siteSpace: item })
      if (expanded && children.length) walk(children, depth + 1, key, key)
    })
  }
  walk(structure.structure, 0, structure.type === 'sections' ? 'top' : 'root', null)
  return rows
}

/** Every section of the structure, in reading order (grouped ones carry `sectionGroup`). */
export function sectionsOf(structure: Structure): SiteSection[] {
  return structure.structure.flatMap((item) =>
    item.object === 'site-section' ? [item] : item.object === 'site-section-group' ? (item.sections ?? []) : []
  )
}

export function groupsOf(structure: Structure): SiteSectionGroup[] {
  return structure.structure.filter((item): item is SiteSectionGroup => item.object === 'site-section-group')
}

/** Every site space of the structure, in reading order. */
export function siteSpacesOf(structure: Structure): SiteSpace[] {
  if (structure.type === 'siteSpaces') return structure.structure.filter((item): item is SiteSpace => item.object === 'site-space')
  return sectionsOf(structure).flatMap((s) => s.siteSpaces)
}

// --- moves -------------------------------------------------------------------------------------------------

export type Anchor = { type: 'site-space'; siteSpace: string } | { type: 'site-section' | 'site-section-group'; id: string }
export type MoveBody = { position: { before: Anchor } | { after: Anchor } }

/** A move the API understands: `POST …/{site-spaces|sections|section-groups}/{id}/move` with `body`. */
export interface MoveRequest {
  kind: StructureKind
  id: string
  body: MoveBody
}

export function anchorOf(ref: ItemRef): Anchor {
  if (ref.kind === 'site-space') return { type: 'site-space', siteSpace: ref.id }
  return { type: ref.kind === 'group' ? 'site-section-group' : 'site-section', id: ref.id }
}

/** The path of a move under the site: `site-spaces/{id}/move`, `sections/{id}/move` or `section-groups/{id}/move`. */
export function movePath(req: Pick<MoveRequest, 'kind' | 'id'>): string {
  const collection = req.kind === 'site-space' ? 'site-spaces' : req.kind === 'section' ? 'sections' : 'section-groups'
  return `${collection}/${encodeURIComponent(req.id)}/move`
}

/** One step up (before the previous sibling) or down (after the next one); null at either end. */
export function stepMove(row: StructureRow, direction: 'up' | 'down'): MoveRequest | null {
  const neighbour = direction === 'up' ? row.prev : row.next
  if (!neighbour) return null
  const anchor = anchorOf(neighbour)
  return { kind: row.kind, id: row.id, body: { position: direction === 'up' ? { before: anchor } : { after: anchor } } }
}

export type DropZone = 'before' | 'after'

/** Upper half of a row: before it; lower half: after it. */
export function dropZoneAt(offsetY: number, height: number): DropZone {
  return offsetY < height / 2 ? 'before' : 'after'
}

/**
 * Dropping `dragged` before or after `target`: only among its own siblings (the API moves nothing across
 * sections or groups), and null when the drop would leave it where it is.
 */
export function dropMove(dragged: StructureRow, target: StructureRow, zone: DropZone): MoveRequest | null {
  if (dragged.key === target.key || dragged.container !== target.container) return null
  if (zone === 'before' && target.index === dragged.index + 1) return null
  if (zone === 'after' && target.index === dragged.index - 1) return null
  const anchor = anchorOf(target)
  return { kind: dragged.kind, id: dragged.id, body: { position: zone === 'before' ? { before: anchor } : { after: anchor } } }
}

/** Where making a site space the default goes: its section (PATCH the section) or the root (PATCH the site). */
export function defaultTarget(siteSpace: Pick<SiteSpace, 'id' | 'section'>): { section: string } | { site: true } {
  return siteSpace.section ? { section: siteSpace.section } : { site: true }
}

/** The proxy as the user typed it (`example.com/docs`), from the API's `{origin: 'https://example.com/docs'}`. */
export function proxyInput(proxy: { origin: string } | undefined): string {
  return proxy ? proxy.origin.replace(/^https?:\/\//, '') : ''
}
