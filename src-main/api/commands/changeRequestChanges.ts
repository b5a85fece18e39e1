import type { ChangeRequestChange } from '../../../src-shared/schemas/history'
import { mergeTrees } from '../../content/merge'
import { PageTree } from '../../content/pageTree'
import { loadPages, type PageRecord } from '../../content/revisions'
import { readDocuments } from '../../content/documents'
import type { ChangeRequestRow } from '../../storage/repositories/changeRequestRepository'
import type { SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'
import { mergeBase } from './changeRequestMerger'
import { pageChanges } from './revisionChanges'

/**
 * What a change request changes against its merge base, page by page, as a revision's changes name them
 * (`pageChanges`), each with the page's title, path and text on the side(s) that have it; `conflict` marks pages
 * the primary content changed meanwhile in a way a merge could not reconcile.
 */
export function changeRequestChanges(ctx: Ctx, space: SpaceRow, cr: ChangeRequestRow): ChangeRequestChange[] {
  const baseId = mergeBase(cr)
  const base = PageTree.readOnly(loadPages(ctx.db, baseId))
  const head = PageTree.readOnly(loadPages(ctx.db, cr.revision_id))
  const primary = space.revision_id === baseId ? base : PageTree.readOnly(loadPages(ctx.db, space.revision_id!))
  const changes = pageChanges(ctx, base, head, baseId, cr.revision_id) as ChangeRequestChange[]

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

  // The texts of the changed pages, in one query.
  const docs = readDocuments(
    ctx.db,
    changes.flatMap((c) => [base.get(c.page.id)?.documentHash ?? null, head.get(c.page.id)?.documentHash ?? null])
  )
  const basePaths = base.paths()
  const headPaths = head.paths()
  const side = (p: PageRecord, paths: Map<string, string>) => ({
    title: p.title,
    path: paths.get(p.id) ?? p.slug,
    markdown: p.documentHash ? (docs.get(p.documentHash) ?? '') : ''
  })
  // A page both edited and moved is one conflicting page: its edit carries the flag, so counts agree.
  const edited = new Set(changes.filter((c) => c.type === 'page_edited').map((c) => c.page.id))
  for (const change of changes) {
    const b = change.type === 'page_created' ? undefined : base.get(change.page.id)
    const h = change.type === 'page_deleted' ? undefined : head.get(change.page.id)
    if (b) change.before = side(b, basePaths)
    if (h) change.after = side(h, headPaths)
    if (conflicting.has(change.page.id) && (change.type !== 'page_moved' || !edited.has(change.page.id))) change.conflict = true
  }
  return changes
}
