// A revision's pages (the API's nested `pages`) as the rows a virtualized tree draws, and the rules for where a
// dragged page may land. Pure functions: tested in Node.
import { emojiText } from '../common/emoji.ts'

/** The part of a page the tree needs; the API's `Page` fits. */
export interface TreePage {
  id: string
  title: string
  emoji?: string
  type?: string
  hidden?: boolean
  pages: TreePage[]
}

export interface PageRow {
  id: string
  title: string
  emoji: string
  type: string
  hidden: boolean
  depth: number
  parent: string | null
  /** Position among its siblings. */
  index: number
  childCount: number
  expanded: boolean
}

/** Where each page sits: parent, position, depth and children ids. */
export interface PageIndexEntry {
  page: TreePage
  parent: string | null
  index: number
  depth: number
}
export type PageIndex = Map<string, PageIndexEntry>

export function indexPages(pages: TreePage[]): PageIndex {
  const index: PageIndex = new Map()
  const walk = (list: TreePage[], parent: string | null, depth: number) =>
    list.forEach((page, i) => {
      index.set(page.id, { page, parent, index: i, depth })
      walk(page.pages, page.id, depth + 1)
    })
  walk(pages, null, 0)
  return index
}

/** The rows to draw: a depth-first walk that skips the children of collapsed pages. */
export function flattenPages(pages: TreePage[], isCollapsed: (pageId: string) => boolean): PageRow[] {
  const rows: PageRow[] = []
  const walk = (list: TreePage[], parent: string | null, depth: number) =>
    list.forEach((page, index) => {
      const expanded = page.pages.length > 0 && !isCollapsed(page.id)
      rows.push({
        id: page.id,
        title: page.title,
        emoji: emojiText(page.emoji),
        type: page.type ?? 'document',
        hidden: !!page.hidden,
        depth,
        parent,
        index,
        childCount: page.pages.length,
        expanded
      })
      if (expanded) walk(page.pages, page.id, depth + 1)
    })
  walk(pages, null, 0)
  return rows
}

/** Ids of the page's ancestors, outermost first (they must be expanded for the page to show). */
export function ancestorsOf(index: PageIndex, pageId: string): string[] {
  const out: string[] = []
  const seen = new Set<string>()
  for (let cur = index.get(pageId)?.parent ?? null; cur && !seen.has(cur); cur = index.get(cur)?.parent ?? null) {
    seen.add(cur)
    out.unshift(cur)
  }
  return out
}

/** True when `pageId` is `ancestorId` or lies under it. */
export function isWithin(index: PageIndex, pageId: string, ancestorId: string): boolean {
  const seen = new Set<string>()
  for (let cur: string | null = pageId; cur && !seen.has(cur); cur = index.get(cur)?.parent ?? null) {
    if (cur === ancestorId) return true
    seen.add(cur)
  }
  return false
}

/** How many pages lie under a page (they are deleted with it). */
export function descendantCount(page: TreePage): number {
  return page.pages.reduce((n, child) => n + 1 + descendantCount(child), 0)
}

export type DropZone = 'before' | 'inside' | 'after'

/** Which part of a row the pointer is over: the upper quarter is "before", the lower "after", the rest "inside". */
export function dropZoneAt(offsetY: number, height: number): DropZone {
  const ratio = height > 0 ? offsetY / height : 0.5
  return ratio < 0.25 ? 'before' : ratio > 0.75 ? 'after' : 'inside'
}

/** An `update_page` move: the new parent (null = top level) and the position among its children (end when absent). */
export interface PageMove {
  into: string | null
  at?: number
}

/**
 * The move for dropping page `dragged` on row `target` at `zone` (`expanded`: the row shows its children), or
 * null when the drop would do nothing or is not allowed (onto itself or into its own subtree). `at` counts the new
 * siblings without the moved page, as the API places it.
 */
export function pageMove(index: PageIndex, dragged: string, target: { id: string; zone: DropZone; expanded?: boolean }): PageMove | null {
  const item = index.get(dragged)
  const over = index.get(target.id)
  if (!item || !over) return null
  if (isWithin(index, target.id, dragged)) return null
  // Just below an unfolded page is above its first child: that is where the line is drawn, so land there.
  if (target.zone === 'after' && target.expanded && over.page.pages.length > 0) {
    if (over.page.pages[0]!.id === dragged) return null
    return { into: target.id, at: 0 }
  }
  if (target.zone === 'inside') {
    const children = over.page.pages
    if (item.parent === target.id && children[children.length - 1]?.id === dragged) return null
    return { into: target.id }
  }
  const parent = over.parent
  const siblings = siblingsOf(index, parent).filter((id) => id !== dragged)
  const at = siblings.indexOf(target.id) + (target.zone === 'after' ? 1 : 0)
  if (item.parent === parent && item.index === at) return null
  return { into: parent, at }
}

function siblingsOf(index: PageIndex, parent: string | null): string[] {
  if (parent === null) {
    const roots: { id: string; index: number }[] = []
    for (const [id, entry] of index) if (entry.parent === null) roots.push({ id, index: entry.index })
    return roots.sort((a, b) => a.index - b.index).map((r) => r.id)
  }
  return index.get(parent)?.page.pages.map((p) => p.id) ?? []
}

/** The tree with one page moved, as the API would answer it (shown at once while the write is under way). */
export function applyMove<T extends TreePage>(pages: T[], pageId: string, move: PageMove): T[] {
  let moved: T | undefined
  const without = (list: T[]): T[] =>
    list.flatMap((p) => {
      if (p.id === pageId) {
        moved = p
        return []
      }
      return [{ ...p, pages: without(p.pages as T[]) }]
    })
  const rest = without(pages)
  if (!moved) return pages
  const place = (list: T[]): T[] => {
    const next = [...list]
    next.splice(move.at === undefined ? next.length : Math.max(0, Math.min(move.at, next.length)), 0, moved!)
    return next
  }
  if (move.into === null) return place(rest)
  const into = (list: T[]): T[] =>
    list.map((p) => (p.id === move.into ? { ...p, pages: place(p.pages as T[]) } : { ...p, pages: into(p.pages as T[]) }))
  return into(rest)
}

/** The tree with one page's fields changed (a rename shown before the tree is fetched again). */
export function updatePage<T extends TreePage>(pages: T[], pageId: string, patch: Partial<Omit<T, 'id' | 'pages'>>): T[] {
  return pages.map((p) =>
    p.id === pageId ? { ...p, ...patch } : p.pages.length ? { ...p, pages: updatePage(p.pages as T[], pageId, patch) } : p
  )
}

/**
 * The page an `insert_page` at the end of `parent` created: the API answers with the change request only, so the
 * new page is the last child there that was not in the tree before.
 */
export function insertedPage(before: PageIndex, after: TreePage[], parent: string | null): TreePage | undefined {
  const children = parent === null ? after : indexPages(after).get(parent)?.page.pages
  return [...(children ?? [])].reverse().find((p) => !before.has(p.id))
}

/** Where the open page goes once it is deleted: its next sibling, else the previous one, else its parent. */
export function pageAfterDelete(index: PageIndex, pageId: string): string | null {
  const entry = index.get(pageId)
  if (!entry) return null
  const siblings = siblingsOf(index, entry.parent)
  return siblings[entry.index + 1] ?? siblings[entry.index - 1] ?? entry.parent
}
