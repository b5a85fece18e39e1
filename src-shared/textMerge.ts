import { diffIndices } from 'node-diff3'

// Shared: the server merges change requests with it (content/merge.ts), the editor merges a save someone else
// made meanwhile into the text being typed (pageSession.ts).

/*
 * Why not diff3: node-diff3's merge (like GNU diff3 and git) treats any two hunks that merely touch as a conflict, so
 * editing bullet 2 while someone else edits bullet 3 is refused. Our contract only refuses "both changed the same
 * lines", so we diff each side against base ourselves and decide per pair of hunks:
 *
 * - Replaced base ranges that share a line conflict: both sides claim that line. Ranges that only touch merge, in
 *   base order: each hunk is anchored on the base lines it replaces, so its place in the result is not in doubt.
 * - Identical hunks (same range, same lines) merge once: both made the same change, there is nothing to choose.
 * - Two different insertions at the same position conflict: nothing tells which should come first.
 * - An insertion strictly inside the other side's replaced range conflicts: the lines around it are being rewritten
 *   or removed, so the text it was written against no longer exists.
 * - Boundary rule: an insertion exactly at the start or end of the other side's replaced range conflicts, unless that
 *   hunk is a pure deletion. A line diff cannot tell rewritten lines from inserted ones, so a replacement may begin
 *   (or end) with lines of its own inserted into that same gap: two insertions meeting with no order, the case above.
 *   A typical result of merging anyway is a duplicated line, when both added it and one also edited its neighbour. A
 *   pure deletion brings no lines, so every order gives the same text and the insertion simply takes the gap's place.
 *
 * Lines are compared as whole strings; callers split on '\n', so a trailing newline is a final '' line like any other.
 */

/** One side's change to base: base lines [start, end) become `lines` (start === end is a pure insertion). */
export interface Hunk {
  start: number
  end: number
  lines: string[]
}

const sameLines = (a: string[], b: string[]) => a.length === b.length && a.every((line, i) => line === b[i])

export const sameHunk = (a: Hunk, b: Hunk) => a.start === b.start && a.end === b.end && sameLines(a.lines, b.lines)

/** A side's hunks against base, in base order; consecutive hunks are always separated by at least one kept line. */
export function hunks(base: string[], side: string[]): Hunk[] {
  return diffIndices(base, side).map((d) => ({ start: d.buffer1[0], end: d.buffer1[0] + d.buffer1[1], lines: d.buffer2Content }))
}

function insertionClashes(at: number, other: Hunk): boolean {
  if (other.start < at && at < other.end) return true
  if (at === other.start || at === other.end) return other.lines.length > 0
  return false
}

/**
 * Whether hunks from different sides conflict; meaningful for hunks whose closed ranges meet or overlap. The merge
 * editor (src-renderer/…/mergeHunks.ts) shows the same conflicts the merge finds with it.
 */
export function clashes(a: Hunk, b: Hunk): boolean {
  if (sameHunk(a, b)) return false
  const aInserts = a.start === a.end
  const bInserts = b.start === b.end
  if (aInserts && bInserts) return a.start === b.start
  if (aInserts) return insertionClashes(a.start, b)
  if (bInserts) return insertionClashes(b.start, a)
  return a.start < b.end && b.start < a.end
}

function append(target: string[], source: string[], from = 0, to = source.length) {
  // A loop rather than push(...lines): spreading a long page's lines as arguments can overflow the stack.
  for (let i = from; i < to; i++) target.push(source[i])
}

/** Three-way line merge: the merged lines, or undefined when both sides changed overlapping lines. */
export function mergeLines(base: string[], ours: string[], theirs: string[]): string[] | undefined {
  if (sameLines(ours, theirs) || sameLines(theirs, base)) return ours
  if (sameLines(ours, base)) return theirs

  const mine = hunks(base, ours)
  const other = hunks(base, theirs)
  // Sweep both sorted lists: only hunks whose closed ranges meet (touching included) can conflict.
  let first = 0
  for (const a of mine) {
    while (first < other.length && other[first].end < a.start) first++
    for (let k = first; k < other.length && other[k].start <= a.end; k++) if (clashes(a, other[k])) return undefined
  }

  // Without conflicts the hunks are disjoint apart from identical pairs, which sort next to each other. Otherwise two
  // share a start only when an insertion borders a deletion: the insertion (shorter) sorts first, so `at` never goes
  // back over the deleted lines.
  const all = [...mine, ...other].sort((x, y) => x.start - y.start || x.end - y.end)
  const merged: string[] = []
  let at = 0
  let previous: Hunk | undefined
  for (const h of all) {
    if (previous && sameHunk(previous, h)) continue
    append(merged, base, at, h.start)
    append(merged, h.lines)
    at = h.end
    previous = h
  }
  append(merged, base, at)
  return merged
}

const lines = (text: string) => text.split('\n')

/**
 * Three-way merge of markdown by lines (mergeLines). Returns the merged text, or undefined when both sides
 * changed the same lines (edits of neighbouring lines merge).
 */
export function mergeText(base: string, ours: string, theirs: string): string | undefined {
  if (ours === theirs || theirs === base) return ours
  if (ours === base) return theirs
  return mergeLines(lines(base), lines(ours), lines(theirs))?.join('\n')
}
