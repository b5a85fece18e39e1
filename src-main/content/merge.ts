import type { Db } from '../storage/database'
import { PageTree } from './pageTree'
import { applyDocumentSettings } from './pageSettings'
import { type FileRecord, type PageRecord } from './revisions'
import { hashDocument, readDocuments, storeDocument } from './documents'
import { mergeText } from '../../src-shared/textMerge'

export interface MergeConflict {
  pageId: string
  title: string
  /**
   * What both sides changed: the same lines of the document, the title, or one edited what the other removed.
   * `reusable-content`: any of those in a reusable content (`pageId` is then the content's id).
   */
  reason: 'content' | 'title' | 'removed' | 'reusable-content'
}

export interface TreeMerge {
  tree: PageTree
  conflicts: MergeConflict[]
  /** Without `store`: the text of each merged document by its hash (the tree names them, the database does not). */
  unstored: Map<string, string>
}

function pick<T>(base: T, ours: T, theirs: T, same = (a: T, b: T) => a === b): { value: T; clash: boolean } {
  if (same(ours, theirs) || same(theirs, base)) return { value: ours, clash: false }
  if (same(ours, base)) return { value: theirs, clash: false }
  return { value: theirs, clash: true }
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** Which side of a tree merge is the primary content, and whether merged documents are stored. */
export interface TreeMergeOptions {
  /**
   * The side holding the primary content: `ours` when a change request merges into it, `theirs` when an update
   * pulls it into a change request. Its pages keep their slugs where an added page would take them.
   */
  primary: 'ours' | 'theirs'
  /** False for a read (the conflicts, or what a merge would make): merged documents are not stored but answered. */
  store?: boolean
}

/**
 * Three-way merge of page trees against their common `base`: `ours` is the side merged into, `theirs` the side
 * brought in. Each page merges field by field; documents merge line by line. Both sides changing the same lines
 * or the title, or one side editing a page the other removed (or placing a page under it), is a conflict.
 *
 * Structure merges by intent, not by raw positions: a side *placed* a page when it added it, moved it to another
 * parent or reordered it among the siblings it shares with base (placedBy). A page that only shifted because
 * pages were added or removed beside it keeps whatever the other side did with it. The parent merges like any
 * field (where both moved a page to different parents, the change request's side wins: order is not content);
 * each parent's children then follow ours' order, with the pages theirs placed put back after the sibling they
 * follow in theirs.
 */
export function mergeTrees(db: Db, base: PageTree, ours: PageTree, theirs: PageTree, now: string, options: TreeMergeOptions): TreeMerge {
  const result = new PageTree()
  const conflicts: MergeConflict[] = []
  const unstored = new Map<string, string>()
  const ids = new Set([...base.pages.keys(), ...ours.pages.keys(), ...theirs.pages.keys()])
  // Only pages both sides edited need their text: read those documents, not the whole revision's.
  const hashes: (string | null)[] = []
  for (const id of ids) {
    const b = base.get(id)?.documentHash
    const o = ours.get(id)?.documentHash
    const t = theirs.get(id)?.documentHash
    if (b !== undefined && o !== undefined && t !== undefined && o !== t && o !== b && t !== b) hashes.push(b, o, t)
  }
  const docs = readDocuments(db, hashes)
  const doc = (p: PageRecord | undefined) => (p?.documentHash ? (docs.get(p.documentHash) ?? '') : '')

  for (const id of ids) {
    const b = base.get(id)
    const o = ours.get(id)
    const t = theirs.get(id)
    if (!b) {
      const added = t ?? o
      if (added) result.pages.set(id, { ...added })
      continue
    }
    if (!o || !t) {
      const kept = o ?? t
      // A side that removed the page wins unless the other side edited it meanwhile.
      if (kept && (kept.documentHash !== b.documentHash || kept.title !== b.title)) {
        conflicts.push({ pageId: id, title: kept.title, reason: 'removed' })
      }
      continue
    }
    const title = pick(b.title, o.title, t.title)
    if (title.clash) conflicts.push({ pageId: id, title: o.title, reason: 'title' })
    let documentHash = o.documentHash
    let mergedText: string | undefined
    if (o.documentHash !== t.documentHash) {
      if (o.documentHash === b.documentHash) documentHash = t.documentHash
      else if (t.documentHash !== b.documentHash) {
        mergedText = mergeText(doc(b), doc(o), doc(t))
        if (mergedText === undefined) conflicts.push({ pageId: id, title: o.title, reason: 'content' })
        else if (options.store !== false) documentHash = storeDocument(db, mergedText)
        else unstored.set((documentHash = hashDocument(mergedText)), mergedText)
      }
    }
    const parent = pick(b.parentId, o.parentId, t.parentId)
    const merged: PageRecord = {
      ...o,
      title: title.value,
      emoji: pick(b.emoji, o.emoji, t.emoji).value,
      description: pick(b.description, o.description, t.description).value,
      hidden: pick(b.hidden, o.hidden, t.hidden).value,
      type: pick(b.type, o.type, t.type).value,
      slug: pick(b.slug, o.slug, t.slug).value,
      props: pick(b.props, o.props, t.props, sameJson).value,
      // Where both moved it to different parents, the change request's side wins; orderChildren sets the position.
      parentId: parent.clash && options.primary === 'theirs' ? o.parentId : parent.value,
      documentHash
    }
    // A document written by the merge sets what its front matter sets, as any new document does.
    if (mergedText !== undefined) applyDocumentSettings(merged, mergedText)
    merged.updatedAt =
      o.updatedAt === t.updatedAt
        ? o.updatedAt
        : documentHash !== o.documentHash || documentHash !== t.documentHash
          ? now
          : t.updatedAt > o.updatedAt
            ? t.updatedAt
            : o.updatedAt
    result.pages.set(id, merged)
  }

  // A page added, kept or moved under a parent the other side removed has nowhere to go: a conflict, not a loss.
  for (const p of result.pages.values()) {
    if (p.parentId && !result.has(p.parentId)) conflicts.push({ pageId: p.id, title: p.title, reason: 'removed' })
  }
  orderChildren(result, ours, theirs, placedBy(base, theirs))
  result.normalize(options.primary === 'ours' ? ours : theirs)
  return { tree: result, conflicts, unstored }
}

/**
 * The pages `side` placed itself, against `base`: those it added, moved to another parent, or reordered among
 * the siblings it keeps from base under the same parent. Of those siblings, the longest run still in base order
 * stayed; the others were moved (moving one page to the top reorders one page, not all the others).
 */
export function placedBy(base: PageTree, side: PageTree): Set<string> {
  const placed = new Set<string>()
  // Only parents where a page came, went or changed position need a look (none, when only documents changed:
  // a merge of many edited pages skips the sorting).
  const changed = new Set<string | null>()
  for (const p of side.pages.values()) {
    const b = base.get(p.id)
    if (!b || b.parentId !== p.parentId || b.position !== p.position) changed.add(p.parentId)
  }
  if (!changed.size) return placed
  const baseIndex = base.childrenIndex()
  for (const [parentId, children] of side.childrenIndex()) {
    if (!changed.has(parentId)) continue
    const baseRank = new Map((baseIndex.get(parentId) ?? []).map((p, i) => [p.id, i]))
    const kept: string[] = []
    const ranks: number[] = []
    for (const p of children) {
      const rank = baseRank.get(p.id)
      if (rank === undefined) placed.add(p.id)
      else {
        kept.push(p.id)
        ranks.push(rank)
      }
    }
    const stayed = longestIncreasingRun(ranks)
    kept.forEach((id, i) => stayed.has(i) || placed.add(id))
  }
  return placed
}

/** Indexes of a longest strictly increasing subsequence of `values` (patience sorting, O(n log n)). */
function longestIncreasingRun(values: number[]): Set<number> {
  const tails: number[] = []
  const previous = new Int32Array(values.length).fill(-1)
  values.forEach((v, i) => {
    let lo = 0
    let hi = tails.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (values[tails[mid]!]! < v) lo = mid + 1
      else hi = mid
    }
    if (lo > 0) previous[i] = tails[lo - 1]!
    tails[lo] = i
  })
  const run = new Set<number>()
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i >= 0; i = previous[i]!) run.add(i)
  return run
}

/**
 * Sets the positions of the merged pages: under each parent, ours' order of the pages ours holds there, and each
 * page theirs placed there inserted after the sibling it follows in theirs (first when none), so both sides'
 * additions and moves land where their side put them.
 */
function orderChildren(result: PageTree, ours: PageTree, theirs: PageTree, theirsPlaced: Set<string>): void {
  // Every other page came from ours with ours' parent and position: under a parent theirs placed nothing in,
  // ours' positions already give the order (normalize closes the gaps).
  const parents = new Set<string | null>()
  for (const id of theirsPlaced) {
    const page = result.get(id)
    if (page && page.parentId === theirs.get(id)?.parentId) parents.add(page.parentId)
  }
  if (!parents.size) return
  const oursIndex = ours.childrenIndex()
  const theirsIndex = theirs.childrenIndex()
  for (const [parentId, members] of result.childrenIndex()) {
    if (!parents.has(parentId)) continue
    const fromTheirs = (id: string) => theirsPlaced.has(id) && theirs.get(id)?.parentId === parentId
    const here = new Set(members.map((p) => p.id))
    const order = (oursIndex.get(parentId) ?? []).map((p) => p.id).filter((id) => here.has(id) && !fromTheirs(id))
    const ordered = new Set(order)
    // Pages of neither list (none are expected) keep their place after the others.
    for (const p of members) if (!fromTheirs(p.id) && !ordered.has(p.id)) order.push(p.id)
    let after: string | undefined
    for (const p of theirsIndex.get(parentId) ?? []) {
      if (!here.has(p.id)) continue
      if (fromTheirs(p.id)) order.splice(after === undefined ? 0 : order.indexOf(after) + 1, 0, p.id)
      after = p.id
    }
    order.forEach((id, i) => (result.get(id)!.position = i))
  }
}

/** Three-way merge of a revision's files by id: a side that changed a file wins; both changed: theirs. */
export function mergeFiles(base: FileRecord[], ours: FileRecord[], theirs: FileRecord[]): FileRecord[] {
  const b = new Map(base.map((f) => [f.id, f]))
  const o = new Map(ours.map((f) => [f.id, f]))
  const t = new Map(theirs.map((f) => [f.id, f]))
  const result: FileRecord[] = []
  for (const id of new Set([...b.keys(), ...o.keys(), ...t.keys()])) {
    const picked = pick<FileRecord | undefined>(b.get(id), o.get(id), t.get(id), sameJson).value
    if (picked) result.push(picked)
  }
  return result
}
