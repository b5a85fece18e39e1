import { mergeFiles, mergeTrees, type MergeConflict, type TreeMergeOptions } from '../../content/merge'
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
    spaceId: space.id, parents: [primary, cr.revision_id], type: 'merge', createdBy: ctx.actor.id, now: ctx.now,
    base: primary, pages: pages.tree.diffFrom(ours),
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

/**
 * Pulls the primary content into a change request (the same three-way merge, the other way round); the new
 * merge base is the primary revision pulled in.
 */
export function updateChangeRequest(ctx: Ctx, space: SpaceRow, cr: ChangeRequestRow): MergeOutcome {
  const primary = space.revision_id!
  const base = mergeBase(cr)
  if (primary === base) return { result: 'update', revision: cr.revision_id }
  const { ours, pages, files, reusable, conflicts } = threeWay(ctx, base, cr.revision_id, primary, 'theirs')
  if (conflicts.length) return { result: 'conflicts', revision: cr.revision_id, conflicts }
  const oursFiles = loadFiles(ctx.db, cr.revision_id).map((f) => f.id)
  const kept = new Set(files.map((f) => f.id))
  const revision = writeRevision(ctx.db, {
    spaceId: space.id, changeRequestId: cr.id, parents: [cr.revision_id, primary], type: 'update', createdBy: ctx.actor.id,
    now: ctx.now, base: cr.revision_id, pages: pages.tree.diffFrom(ours),
    files: { upsert: files, remove: [...oursFiles].filter((id) => !kept.has(id)) },
    reusableContents: reusable.changes
  })
  ctx.repo(changeRequestRepository).update(cr.id, { revision_id: revision, revision_merged_ancestor: primary, updated_at: ctx.now })
  return { result: 'update', revision }
}
