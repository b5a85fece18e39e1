// The merge editor's text model: a three-way merge of one page (merge base, main, change request) by the
// server's rule (src-shared/textMerge.ts), where each conflict is written into the result between markers, as
// Git writes them with `merge.conflictStyle = diff3`. The markers are plain text, so the result can be edited
// freely; a conflict is resolved once its markers are gone, by a button or by hand.
import { clashes, hunks, sameHunk, type Hunk } from '../../../../src-shared/textMerge.ts'

export const MARKERS = {
  main: '<<<<<<< main',
  base: '||||||| base',
  changeRequest: '======= change request',
  end: '>>>>>>> end'
} as const

export type MergeChunk = { kind: 'clean'; lines: string[] } | { kind: 'conflict'; base: string[]; main: string[]; changeRequest: string[] }

type Sided = Hunk & { side: 'main' | 'changeRequest' }

const meets = (h: Hunk, r: { start: number; end: number }) => h.start <= r.end && r.start <= h.end

function slice(lines: string[], from: number, to: number): string[] {
  return lines.slice(from, to)
}

/** Base lines [start, end) with one side's hunks inside that range applied. */
function applyWithin(base: string[], start: number, end: number, side: Hunk[]): string[] {
  const out: string[] = []
  let at = start
  for (const h of side) {
    out.push(...slice(base, at, h.start), ...h.lines)
    at = h.end
  }
  out.push(...slice(base, at, end))
  return out
}

/**
 * The page as chunks in base order: clean lines (what both sides agree on, or what only one side changed) and
 * conflicts, each with the base lines it covers and both sides' versions of them. A conflict spans every hunk
 * that clashes (the server's rule) and every hunk that meets those, so each side's version of it is whole.
 * Without conflicts, the clean lines are exactly the server's merge.
 */
export function mergeChunks(baseText: string, mainText: string, changeRequestText: string): MergeChunk[] {
  const base = baseText.split('\n')
  const main = mainText.split('\n')
  const cr = changeRequestText.split('\n')
  const all: Sided[] = [
    ...hunks(base, main).map((h) => ({ ...h, side: 'main' as const })),
    ...hunks(base, cr).map((h) => ({ ...h, side: 'changeRequest' as const }))
  ].sort((x, y) => x.start - y.start || x.end - y.end)

  // Regions: each clashing pair, then grown over every hunk that meets one, and joined where they meet.
  let regions: { start: number; end: number }[] = []
  for (const a of all) {
    if (a.side !== 'main') continue
    for (const b of all)
      if (b.side === 'changeRequest' && meets(a, b) && clashes(a, b))
        regions.push({ start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) })
  }
  for (let changed = regions.length > 0; changed;) {
    changed = false
    for (const r of regions) {
      for (const h of all) {
        if (meets(h, r) && (h.start < r.start || h.end > r.end)) {
          r.start = Math.min(r.start, h.start)
          r.end = Math.max(r.end, h.end)
          changed = true
        }
      }
    }
    regions.sort((x, y) => x.start - y.start)
    const joined: typeof regions = []
    for (const r of regions) {
      const last = joined[joined.length - 1]
      if (last && r.start <= last.end) {
        if (r.end > last.end) last.end = r.end
        changed = true
      } else joined.push({ ...r })
    }
    regions = joined
  }

  const chunks: MergeChunk[] = []
  const clean = (lines: string[]) => {
    if (!lines.length) return
    const last = chunks[chunks.length - 1]
    if (last?.kind === 'clean') last.lines.push(...lines)
    else chunks.push({ kind: 'clean', lines: [...lines] })
  }
  let at = 0
  let previous: Hunk | undefined
  let next = 0
  for (const h of all) {
    const region = regions.find((r) => meets(h, r))
    if (region) {
      // Every hunk of a region is reached here; the region is written at its first one.
      if (regions.indexOf(region) < next) continue
      next = regions.indexOf(region) + 1
      clean(slice(base, at, region.start))
      const inside = (side: Sided['side']) => all.filter((x) => x.side === side && meets(x, region))
      chunks.push({
        kind: 'conflict',
        base: slice(base, region.start, region.end),
        main: applyWithin(base, region.start, region.end, inside('main')),
        changeRequest: applyWithin(base, region.start, region.end, inside('changeRequest'))
      })
      at = region.end
      previous = undefined
      continue
    }
    if (previous && sameHunk(previous, h)) continue
    clean(slice(base, at, h.start))
    clean(h.lines)
    at = h.end
    previous = h
  }
  clean(slice(base, at, base.length))
  return chunks
}

/** The result to start from: clean lines as they are, each conflict between markers (main, base, change request). */
export function withMarkers(chunks: readonly MergeChunk[]): string {
  const lines: string[] = []
  for (const c of chunks) {
    if (c.kind === 'clean') lines.push(...c.lines)
    else lines.push(MARKERS.main, ...c.main, MARKERS.base, ...c.base, MARKERS.changeRequest, ...c.changeRequest, MARKERS.end)
  }
  return lines.join('\n')
}

export interface ConflictBlock {
  /** Character offsets of the block in the text, from its first marker to the end of its last (without the line break after it). */
  from: number
  to: number
  main: string[]
  base: string[]
  changeRequest: string[]
}

/** The conflict blocks still marked in a result, in order. A block whose markers were edited away no longer counts. */
export function conflictBlocks(text: string): ConflictBlock[] {
  const lines = text.split('\n')
  const offsets: number[] = []
  let offset = 0
  for (const line of lines) {
    offsets.push(offset)
    offset += line.length + 1
  }
  const blocks: ConflictBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== MARKERS.main) continue
    const find = (marker: string, from: number) => {
      for (let j = from; j < lines.length; j++) {
        if (lines[j] === marker) return j
        if (lines[j] === MARKERS.main) return -1
      }
      return -1
    }
    const b = find(MARKERS.base, i + 1)
    const c = b < 0 ? -1 : find(MARKERS.changeRequest, b + 1)
    const e = c < 0 ? -1 : find(MARKERS.end, c + 1)
    if (e < 0) continue
    blocks.push({
      from: offsets[i]!,
      to: offsets[e]! + lines[e]!.length,
      main: lines.slice(i + 1, b),
      base: lines.slice(b + 1, c),
      changeRequest: lines.slice(c + 1, e)
    })
    i = e
  }
  return blocks
}

export type Choice = 'main' | 'changeRequest' | 'both'

/** What resolving a block with a choice replaces (a CodeMirror change): main's lines, the change request's, or main's then the change request's. */
export function blockReplacement(block: ConflictBlock, choice: Choice): { from: number; to: number; insert: string } {
  const lines = choice === 'main' ? block.main : choice === 'changeRequest' ? block.changeRequest : [...block.main, ...block.changeRequest]
  let { from, to } = block
  // A side with no lines removes the block's own line too, so no empty line stays behind.
  if (!lines.length) {
    if (from > 0) from -= 1
    else to += 1
  }
  return { from, to, insert: lines.join('\n') }
}

/** The text with the `index`th conflict block resolved by `choice`. */
export function resolveBlock(text: string, index: number, choice: Choice): string {
  const block = conflictBlocks(text)[index]
  if (!block) return text
  const { from, to, insert } = blockReplacement(block, choice)
  return text.slice(0, from) + insert + text.slice(Math.min(to, text.length))
}
