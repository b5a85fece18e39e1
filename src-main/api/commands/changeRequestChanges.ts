import { mergeTrees, placedBy } from '../../content/merge'
import { PageTree } from '../../content/pageTree'
import { loadPages, type PageRecord } from '../../content/revisions'
import { readDocument, readDocuments } from '../../content/documents'
import type { ChangeRequestRow } from '../../storage/repositories/changeRequestRepository'
import type { SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'
import { mergeBase } from './changeRequestMerger'

type ChangeType = 'page_added' | 'page_removed' | 'page_edited' | 'page_moved'
interface Side {
  title: string
  path: string
  markdown: string
}
export interface PageChange {
  type: ChangeType
  page: { id: string; title: string; path: string }
  before?: Side
  after?: Side
  conflict?: boolean
}

/**
 * What a change request changes against its merge base, page by page; `conflict` marks pages the primary
 * content changed meanwhile in a way a merge could not reconcile.
 */
export function changeRequestChanges(ctx: Ctx, space: SpaceRow, cr: ChangeRequestRow): PageChange[] {
  const base = PageTree.readOnly(loadPages(ctx.db, mergeBase(cr)))
  const head = PageTree.readOnly(loadPages(ctx.db, cr.revision_id))
  const primary = space.revision_id === mergeBase(cr) ? base : PageTree.readOnly(loadPages(ctx.db, space.revision_id!))
  const basePaths = base.paths()
  const headPaths = head.paths()
  // Moved: to another parent, or reordered among its siblings (not merely shifted by the pages placed around it).
  const placed = placedBy(base, head)
  // Read the documents of the pages that differ in one query, not the whole space's (a page moved only by its
  // siblings' moves is rare and read on its own).
  const hashes: (string | null)[] = []
  for (const h of head.pages.values()) {
    const b = base.get(h.id)
    if (b && b.documentHash === h.documentHash && b.title === h.title && b.parentId === h.parentId && b.position === h.position) continue
    hashes.push(h.documentHash, b?.documentHash ?? null, primary.get(h.id)?.documentHash ?? null)
  }
  for (const b of base.pages.values()) if (!head.has(b.id)) hashes.push(b.documentHash, primary.get(b.id)?.documentHash ?? null)
  const docs = readDocuments(ctx.db, hashes)
  const md = (p: PageRecord) => {
    if (!p.documentHash) return ''
    let text = docs.get(p.documentHash)
    if (text === undefined) docs.set(p.documentHash, (text = readDocument(ctx.db, p.documentHash)))
    return text
  }
  const side = (p: PageRecord, paths: Map<string, string>): Side => ({ title: p.title, path: paths.get(p.id) ?? p.slug, markdown: md(p) })

  // The pages a merge would stop at now: the same three-way merge, without storing what it merges. A page the
  // primary content added or moved under one the change request removes is not among the changes: the removal
  // is marked instead.
  const conflicting = new Set<string>()
  if (primary !== base) {
    for (const { pageId } of mergeTrees(ctx.db, base, primary, head, ctx.now, { primary: 'ours', store: false }).conflicts) {
      conflicting.add(pageId)
      for (let up = primary.get(pageId)?.parentId; up; up = primary.get(up)?.parentId) if (!head.has(up)) conflicting.add(up)
    }
  }

  const changes: PageChange[] = []
  for (const h of head.pages.values()) {
    const b = base.get(h.id)
    const summary = { id: h.id, title: h.title, path: headPaths.get(h.id) ?? h.slug }
    if (!b) {
      changes.push({ type: 'page_added', page: summary, after: side(h, headPaths), ...(conflicting.has(h.id) ? { conflict: true } : {}) })
      continue
    }
    const edited = b.documentHash !== h.documentHash || b.title !== h.title
    if (edited) {
      const change: PageChange = { type: 'page_edited', page: summary, before: side(b, basePaths), after: side(h, headPaths) }
      if (conflicting.has(h.id)) change.conflict = true
      changes.push(change)
    }
    if (b.parentId !== h.parentId || placed.has(h.id)) {
      // A page both edited and moved is one conflicting page: its edit carries the flag, so counts agree.
      const flagged = conflicting.has(h.id) && !edited
      changes.push({
        type: 'page_moved',
        page: summary,
        before: side(b, basePaths),
        after: side(h, headPaths),
        ...(flagged ? { conflict: true } : {})
      })
    }
  }
  for (const b of base.pages.values()) {
    if (head.has(b.id)) continue
    const change: PageChange = {
      type: 'page_removed',
      page: { id: b.id, title: b.title, path: basePaths.get(b.id) ?? b.slug },
      before: side(b, basePaths)
    }
    if (conflicting.has(b.id)) change.conflict = true
    changes.push(change)
  }
  return changes
}
