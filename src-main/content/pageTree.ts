import type { PageRecord } from './revisions'
import { isNumberedSlug, numberedSlug, slugify } from '../../src-shared/slug'

/**
 * A revision's pages in memory, for edits and merges: lookups by id, children in order, and the invariants
 * every written revision keeps (positions 0..n-1 under each parent, slugs unique among siblings, no orphans).
 */
export class PageTree {
  readonly pages = new Map<string, PageRecord>()

  /** A tree of copies of `pages`, free to change. */
  constructor(pages: Iterable<PageRecord> = []) {
    for (const p of pages) this.pages.set(p.id, { ...p })
  }

  /**
   * A tree over `pages` themselves, not copies: for reading a revision (merges, diffs, presenting). The
   * records `loadPages` returns are frozen, so a change through such a tree throws instead of corrupting the
   * revision cache.
   */
  static readOnly(pages: Iterable<PageRecord>): PageTree {
    const tree = new PageTree()
    for (const p of pages) tree.pages.set(p.id, p)
    return tree
  }

  get(id: string): PageRecord | undefined {
    return this.pages.get(id)
  }

  has(id: string): boolean {
    return this.pages.has(id)
  }

  children(parentId: string | null): PageRecord[] {
    const list: PageRecord[] = []
    for (const p of this.pages.values()) if (p.parentId === parentId) list.push(p)
    return list.sort((a, b) => a.position - b.position || a.id.localeCompare(b.id))
  }

  /** Children lists of every parent, built once (for whole-tree walks). */
  childrenIndex(): Map<string | null, PageRecord[]> {
    const index = new Map<string | null, PageRecord[]>()
    for (const p of this.pages.values()) {
      const list = index.get(p.parentId)
      if (list) list.push(p)
      else index.set(p.parentId, [p])
    }
    for (const list of index.values()) list.sort((a, b) => a.position - b.position || a.id.localeCompare(b.id))
    return index
  }

  /** True when `id` is `ancestorId` or lies under it. */
  isWithin(id: string, ancestorId: string): boolean {
    for (let cur: string | null | undefined = id; cur; cur = this.pages.get(cur)?.parentId) if (cur === ancestorId) return true
    return false
  }

  /** Places `page` under `parentId` at `index` (end when absent), shifting its new siblings. */
  place(page: PageRecord, parentId: string | null, index?: number): void {
    const siblings = this.children(parentId).filter((p) => p.id !== page.id)
    const at = index === undefined ? siblings.length : Math.max(0, Math.min(index, siblings.length))
    siblings.splice(at, 0, page)
    page.parentId = parentId
    this.pages.set(page.id, page)
    siblings.forEach((p, i) => (p.position = i))
  }

  /** Removes a page and everything under it; returns the removed ids. */
  remove(id: string): string[] {
    const index = this.childrenIndex()
    const removed: string[] = []
    const visit = (pageId: string) => {
      removed.push(pageId)
      for (const child of index.get(pageId) ?? []) visit(child.id)
    }
    if (this.pages.has(id)) visit(id)
    for (const r of removed) this.pages.delete(r)
    return removed
  }

  /**
   * Restores the invariants after edits or a merge: pages whose parent is gone go with it, positions become
   * 0..n-1 in order, and a slug taken by a sibling gets a numeric suffix. `kept` is the tree these pages come
   * from (the revision before a batch, the primary content in a merge): a page that held its slug under the same
   * parent there keeps it, so existing paths (and links to them) do not move to a page added beside them; other
   * clashes are settled in position order.
   */
  normalize(kept?: PageTree): void {
    let changed = true
    while (changed) {
      changed = false
      for (const p of [...this.pages.values()]) {
        if (p.parentId && !this.pages.has(p.parentId)) {
          this.pages.delete(p.id)
          changed = true
        }
      }
    }
    for (const list of this.childrenIndex().values()) {
      list.forEach((p, i) => (p.position = i))
      const held = (p: PageRecord) => {
        const k = kept?.get(p.id)
        return !!k && k.parentId === p.parentId && k.slug === p.slug
      }
      // Slugs the kept tree gave these pages first (the first of two, should it ever have broken the rule).
      const used = new Set<string>()
      const keeping = new Set<PageRecord>()
      for (const p of list) {
        if (p.slug && held(p) && !used.has(p.slug)) {
          used.add(p.slug)
          keeping.add(p)
        }
      }
      for (const p of list) {
        if (keeping.has(p)) continue
        // A slug already numbered after the title (`setup-2`) is numbered again from the title (`setup-3`).
        const fromTitle = slugify(p.title)
        const base = (isNumberedSlug(p.slug, fromTitle) ? fromTitle : p.slug) || fromTitle || 'page'
        let slug = base
        // Numbered within the 100 characters of a slug (a long base is cut to make room).
        for (let n = 2; used.has(slug); n++) slug = numberedSlug(base, n)
        used.add(slug)
        p.slug = slug
      }
    }
  }

  /** Path of every page: its ancestors' slugs and its own, joined by `/`. */
  paths(): Map<string, string> {
    const paths = new Map<string, string>()
    const index = this.childrenIndex()
    const walk = (parentId: string | null, prefix: string) => {
      for (const p of index.get(parentId) ?? []) {
        const path = prefix ? `${prefix}/${p.slug}` : p.slug
        paths.set(p.id, path)
        walk(p.id, path)
      }
    }
    walk(null, '')
    return paths
  }

  /** What differs from `base`: pages to write and ids to drop (the input of writeRevision). */
  diffFrom(base: PageTree): { upsert: PageRecord[]; remove: string[] } {
    const upsert: PageRecord[] = []
    for (const p of this.pages.values()) {
      const b = base.get(p.id)
      if (!b || !samePage(b, p)) upsert.push(p)
    }
    const remove = [...base.pages.keys()].filter((id) => !this.pages.has(id))
    return { upsert, remove }
  }
}

export function samePage(a: PageRecord, b: PageRecord): boolean {
  return (
    a.parentId === b.parentId &&
    a.position === b.position &&
    a.type === b.type &&
    a.title === b.title &&
    a.emoji === b.emoji &&
    a.slug === b.slug &&
    a.description === b.description &&
    a.documentId === b.documentId &&
    a.documentHash === b.documentHash &&
    a.hidden === b.hidden &&
    JSON.stringify(a.props) === JSON.stringify(b.props) &&
    a.updatedAt === b.updatedAt
  )
}
