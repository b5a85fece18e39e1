import { slugify } from '../../src-shared/slug'
import { mergeText } from '../../src-shared/textMerge'
import type { Db } from '../storage/database'
import { readDocuments, storeDocument } from './documents'
import type { MergeConflict } from './merge'
import type { ReusableContentRecord } from './revisions'

/** Where the hosted service keeps reusable contents in Git, relative to the docs root. */
export const INCLUDES_DIR = '.gitbook/includes'

/**
 * The Git path a reusable content made in the app gets: `.gitbook/includes/<title's slug>.md`, numbered when a
 * content of the revision has it (regardless of case). `{% include %}` tags name contents by this path, as they
 * do those that came from Git, and a Git export writes it there.
 */
export function includePathFor(title: string, contents: Iterable<ReusableContentRecord>): string {
  const taken = new Set<string>()
  for (const c of contents) if (c.git?.path) taken.add(c.git.path.toLowerCase())
  const stem = `${INCLUDES_DIR}/${slugify(title) || 'content'}`
  let path = `${stem}.md`
  for (let n = 2; taken.has(path.toLowerCase()); n++) path = `${stem}-${n}.md`
  return path
}

export interface ReusableMerge {
  /** The merged contents, and what differs from `ours` (the input of writeRevision). */
  changes: { upsert: ReusableContentRecord[]; remove: string[] }
  conflicts: MergeConflict[]
}

const same = (a: ReusableContentRecord, b: ReusableContentRecord) =>
  a.title === b.title && a.documentHash === b.documentHash && JSON.stringify(a.git) === JSON.stringify(b.git)

/**
 * Three-way merge of reusable contents against their common `base`, as pages merge: each side's additions come in;
 * a removal wins unless the other side edited the content (a conflict); a title changed on both sides to different
 * titles is a conflict; texts changed on both sides merge line by line (the same lines changed: a conflict). A
 * content added on `theirs` whose Git path `ours` already uses (two change requests each made "Note") is numbered.
 * Conflicts name the content by id and title, with reason `reusable-content`. `store: false` only finds conflicts.
 */
export function mergeReusableContents(
  db: Db,
  base: ReusableContentRecord[],
  ours: ReusableContentRecord[],
  theirs: ReusableContentRecord[],
  store = true
): ReusableMerge {
  const b = new Map(base.map((c) => [c.id, c]))
  const o = new Map(ours.map((c) => [c.id, c]))
  const t = new Map(theirs.map((c) => [c.id, c]))
  const conflicts: MergeConflict[] = []
  const upsert: ReusableContentRecord[] = []
  const remove: string[] = []
  const clash = (c: ReusableContentRecord) => conflicts.push({ pageId: c.id, title: c.title, reason: 'reusable-content' })
  const merged = new Map(o)

  // Both sides changed a text: read only those (base, ours, theirs).
  const hashes: string[] = []
  for (const [id, tc] of t) {
    const bc = b.get(id)
    const oc = o.get(id)
    if (bc && oc && oc.documentHash !== tc.documentHash && oc.documentHash !== bc.documentHash && tc.documentHash !== bc.documentHash) {
      hashes.push(bc.documentHash, oc.documentHash, tc.documentHash)
    }
  }
  const texts = readDocuments(db, hashes)

  for (const [id, tc] of t) {
    const bc = b.get(id)
    const oc = o.get(id)
    if (!bc) {
      if (!oc) {
        const path =
          tc.git?.path && !tc.git.oid && [...merged.values()].some((c) => c.git?.path?.toLowerCase() === tc.git!.path!.toLowerCase())
            ? includePathFor(tc.title, merged.values())
            : undefined
        const added = path ? { ...tc, git: { ...tc.git, path } } : tc
        merged.set(id, added)
        upsert.push(added)
      }
      continue
    }
    if (!oc) {
      // Ours removed it: removed, unless theirs edited it meanwhile.
      if (!same(bc, tc)) clash(tc)
      continue
    }
    if (same(oc, tc) || same(tc, bc)) continue
    if (same(oc, bc)) {
      merged.set(id, tc)
      upsert.push(tc)
      continue
    }
    // Both changed it.
    const title = oc.title === tc.title || tc.title === bc.title ? oc.title : oc.title === bc.title ? tc.title : undefined
    if (title === undefined) {
      clash(oc)
      continue
    }
    let documentHash = oc.documentHash
    if (oc.documentHash !== tc.documentHash) {
      if (oc.documentHash === bc.documentHash) documentHash = tc.documentHash
      else if (tc.documentHash !== bc.documentHash) {
        const text = mergeText(texts.get(bc.documentHash) ?? '', texts.get(oc.documentHash) ?? '', texts.get(tc.documentHash) ?? '')
        if (text === undefined) {
          clash(oc)
          continue
        }
        if (store) documentHash = storeDocument(db, text)
      }
    }
    const git = JSON.stringify(oc.git) === JSON.stringify(bc.git) ? tc.git : oc.git
    const next = { ...oc, title, documentHash, git }
    if (!same(next, oc)) {
      merged.set(id, next)
      upsert.push(next)
    }
  }
  for (const [id, bc] of b) {
    const oc = o.get(id)
    if (oc && !t.has(id)) {
      // Theirs removed it: removed, unless ours edited it meanwhile.
      if (!same(bc, oc)) clash(oc)
      else remove.push(id)
    }
  }
  return { changes: { upsert, remove }, conflicts }
}
