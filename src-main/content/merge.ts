import { merge as diff3Merge } from 'node-diff3'
import type { Db } from '../storage/database'
import { PageTree } from './pageTree'
import { readDocuments, storeDocument, type FileRecord, type PageRecord } from './revisions'

export interface MergeConflict {
  pageId: string
  title: string
  /** What both sides changed: the same lines of the document, the title, or one edited what the other removed. */
  reason: 'content' | 'title' | 'removed'
}

export interface TreeMerge {
  tree: PageTree
  conflicts: MergeConflict[]
}

const lines = (text: string) => text.split('\n')

/**
 * Three-way merge of markdown by lines (diff3). Returns the merged text, or undefined when both sides changed
 * the same lines.
 */
export function mergeText(base: string, ours: string, theirs: string): string | undefined {
  if (ours === theirs || theirs === base) return ours
  if (ours === base) return theirs
  const result = diff3Merge(lines(ours), lines(base), lines(theirs), { stringSeparator: '\n' })
  return result.conflict ? undefined : result.result.join('\n')
}

function pick<T>(base: T, ours: T, theirs: T, same = (a: T, b: T) => a === b): { value: T; clash: boolean } {
  if (same(ours, theirs) || same(theirs, base)) return { value: ours, clash: false }
  if (same(ours, base)) return { value: theirs, clash: false }
  return { value: theirs, clash: true }
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * Three-way merge of page trees against their common `base`: `ours` is the side merged into, `theirs` the side
 * brought in. Each page merges field by field; documents merge line by line. Both sides changing the same lines
 * or the title, or one side editing a page the other removed, is a conflict. Where both moved a page, theirs
 * wins (order is not content).
 */
export function mergeTrees(db: Db, base: PageTree, ours: PageTree, theirs: PageTree, now: string): TreeMerge {
  const result = new PageTree()
  const conflicts: MergeConflict[] = []
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
    if (o.documentHash !== t.documentHash) {
      if (o.documentHash === b.documentHash) documentHash = t.documentHash
      else if (t.documentHash !== b.documentHash) {
        const merged = mergeText(doc(b), doc(o), doc(t))
        if (merged === undefined) conflicts.push({ pageId: id, title: o.title, reason: 'content' })
        else documentHash = storeDocument(db, merged)
      }
    }
    const moved = o.parentId !== b.parentId || o.position !== b.position
    const theirsMoved = t.parentId !== b.parentId || t.position !== b.position
    const structure = theirsMoved || !moved ? t : o
    const merged: PageRecord = {
      ...o,
      title: title.value,
      emoji: pick(b.emoji, o.emoji, t.emoji).value,
      description: pick(b.description, o.description, t.description).value,
      hidden: pick(b.hidden, o.hidden, t.hidden).value,
      type: pick(b.type, o.type, t.type).value,
      slug: pick(b.slug, o.slug, t.slug).value,
      props: pick(b.props, o.props, t.props, sameJson).value,
      parentId: structure.parentId,
      position: structure.position,
      documentHash
    }
    merged.updatedAt = o.updatedAt === t.updatedAt ? o.updatedAt : documentHash !== o.documentHash || documentHash !== t.documentHash ? now : t.updatedAt > o.updatedAt ? t.updatedAt : o.updatedAt
    result.pages.set(id, merged)
  }

  // A page added (or kept) under a parent the other side removed has nowhere to go: a conflict, not a loss.
  for (const p of result.pages.values()) {
    if (p.parentId && !result.has(p.parentId)) conflicts.push({ pageId: p.id, title: p.title, reason: 'removed' })
  }
  result.normalize()
  return { tree: result, conflicts }
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
