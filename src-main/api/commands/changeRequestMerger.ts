import { badRequest } from '../../base/errors'
import { storeDocument } from '../../content/documents'
import { mergeFiles, mergeTrees, type MergeConflict, type TreeMergeOptions } from '../../content/merge'
import { applyDocumentSettings } from '../../content/pageSettings'
import { PageTree } from '../../content/pageTree'
import { mergeReusableContents } from '../../content/reusableContents'
import { loadFiles, loadPages, loadReusableContents, writeRevision } from '../../content/revisions'
import { scheduleSearchIndex } from '../../content/searchIndex'
import { changeRequestRepository, type ChangeRequestRow } from '../../storage/repositories/changeRequestRepository'
import { spaceRepository, type SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'

export interface MergeOutcome {
  result: 'merge' | 'update' | 'conflicts'
  revision: string
  conflicts?: MergeConflict[]
}

/** The revision a change request last had in common with the primary content. */
export function mergeBase(cr: ChangeRequestRow): string {
  return cr.revision_merged_ancestor ?? cr.revision_initial
}

/** True while the primary content has revisions the change request has not pulled in. */
export function isOutdated(cr: ChangeRequestRow, space: SpaceRow): boolean {
  return (cr.status === 'draft' || cr.status === 'open') && space.revision_id !== mergeBase(cr)
}

function threeWay(ctx: Ctx, baseId: string, oursId: string, theirsId: string, primary: TreeMergeOptions['primary']) {
  const trees = [baseId, oursId, theirsId].map((id) => PageTree.readOnly(loadPages(ctx.db, id))) as [PageTree, PageTree, PageTree]
  const pages = mergeTrees(ctx.db, ...trees, ctx.now, { primary })
  const files = mergeFiles(loadFiles(ctx.db, baseId), loadFiles(ctx.db, oursId), loadFiles(ctx.db, theirsId))
  const [b, o, t] = [baseId, oursId, theirsId].map((id) => loadReusableContents(ctx.db, id))
  const reusable = mergeReusableContents(ctx.db, b!, o!, t!)
  return { ours: trees[1], pages, files, reusable, conflicts: [...pages.conflicts, ...reusable.conflicts] }
}

/**
 * Merges a change request into the primary content: a three-way merge of every page against the merge base.
 * Conflicts change nothing. A clean merge writes a new primary revision holding both sides' edits, keeps the
 * search index in step, and marks the change request merged.
 */
export function mergeChangeRequest(ctx: Ctx, space: SpaceRow, cr: ChangeRequestRow): MergeOutcome {
  const primary = space.revision_id!
  const base = mergeBase(cr)
  const { ours, pages, files, reusable, conflicts } = threeWay(ctx, base, primary, cr.revision_id, 'ours')
  if (conflicts.length) return { result: 'conflicts', revision: primary, conflicts }
  const oursFiles = loadFiles(ctx.db, primary).map((f) => f.id)
  const kept = new Set(files.map((f) => f.id))
  const revision = writeRevision(ctx.db, {
    spaceId: space.id,
    parents: [primary, cr.revision_id],
    type: 'merge',
    createdBy: ctx.actor.id,
    now: ctx.now,
    base: primary,
    pages: pages.tree.diffFrom(ours),
    files: { upsert: files, remove: [...oursFiles].filter((id) => !kept.has(id)) },
    reusableContents: reusable.changes
  })
  ctx.repo(spaceRepository).update(space.id, { revision_id: revision, updated_at: ctx.now })
  const crs = ctx.repo(changeRequestRepository)
  crs.update(cr.id, { status: 'merged', revision_merged: revision, updated_at: ctx.now })
  crs.refreshSpaceCounters(space.id)
  // The index catches up after the commit (or before the next search): it is most of a large merge's cost.
  scheduleSearchIndex(ctx.db, space.id)
  return { result: 'merge', revision }
}

/** A conflicting page as it is to read once the primary content is pulled in (`POST …/update` `resolutions`). */
export interface Resolution {
  page: string
  document: { markdown: string }
  title?: string
}

/**
 * Pulls the primary content into a change request (the same three-way merge, the other way round); the new
 * merge base is the primary revision pulled in. `resolutions` settle conflicting pages: each one's document (and
 * title, if given) in the change request becomes the one given, over the primary's, so the next merge takes it.
 * Conflicts left unresolved answer as they would without resolutions (nothing changes).
 */
export function updateChangeRequest(ctx: Ctx, space: SpaceRow, cr: ChangeRequestRow, resolutions: Resolution[] = []): MergeOutcome {
  const primary = space.revision_id!
  const base = mergeBase(cr)
  if (primary === base) {
    if (resolutions.length) throw notInConflict(0, resolutions[0]!.page)
    return { result: 'update', revision: cr.revision_id }
  }
  const { ours, pages, files, reusable, conflicts } = threeWay(ctx, base, cr.revision_id, primary, 'theirs')
  const unresolved = settle(conflicts, resolutions)
  if (unresolved.length) return { result: 'conflicts', revision: cr.revision_id, conflicts: unresolved }
  for (const r of resolutions) {
    const page = pages.tree.get(r.page)!
    page.documentHash = storeDocument(ctx.db, r.document.markdown)
    applyDocumentSettings(page, r.document.markdown)
    if (r.title !== undefined) page.title = r.title
    page.updatedAt = ctx.now
  }
  const oursFiles = loadFiles(ctx.db, cr.revision_id).map((f) => f.id)
  const kept = new Set(files.map((f) => f.id))
  const revision = writeRevision(ctx.db, {
    spaceId: space.id,
    changeRequestId: cr.id,
    parents: [cr.revision_id, primary],
    type: 'update',
    createdBy: ctx.actor.id,
    now: ctx.now,
    base: cr.revision_id,
    pages: pages.tree.diffFrom(ours),
    files: { upsert: files, remove: [...oursFiles].filter((id) => !kept.has(id)) },
    reusableContents: reusable.changes
  })
  ctx.repo(changeRequestRepository).update(cr.id, { revision_id: revision, revision_merged_ancestor: primary, updated_at: ctx.now })
  return { result: 'update', revision }
}

const notInConflict = (i: number, page: string) =>
  badRequest(`resolutions.${i}.page: page ${page} does not conflict with main (only conflicting pages take a resolution)`)

/**
 * The conflicts `resolutions` leave: a page's content conflict is settled by its resolution, a title conflict
 * only by a resolution with a title. A resolution for a page that does not conflict, twice for one page, or for
 * a removal (a text cannot settle whether a page stays) is refused (400).
 */
function settle(conflicts: MergeConflict[], resolutions: Resolution[]): MergeConflict[] {
  const resolved = new Map<string, Resolution>()
  resolutions.forEach((r, i) => {
    const own = conflicts.filter((c) => c.pageId === r.page)
    if (!own.length) throw notInConflict(i, r.page)
    if (resolved.has(r.page)) throw badRequest(`resolutions.${i}.page: page ${r.page} is resolved twice`)
    if (own.some((c) => c.reason === 'reusable-content'))
      throw badRequest(
        `resolutions.${i}.page: ${r.page} is a reusable content, not a page; edit it in the change request to settle its conflict`
      )
    if (own.some((c) => c.reason === 'removed'))
      throw badRequest(
        `resolutions.${i}.page: page ${r.page} conflicts because one side removed it (or a page above it); a resolution settles text and titles, not removals`
      )
    resolved.set(r.page, r)
  })
  return conflicts.filter((c) => {
    const r = resolved.get(c.pageId)
    return !r || (c.reason === 'title' && r.title === undefined)
  })
}
