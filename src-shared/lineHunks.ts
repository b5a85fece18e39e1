import { diffIndices } from 'node-diff3'

/** A unified-diff hunk: 1-based line numbers, lines prefixed with ' ' (kept), '-' (removed) or '+' (added). */
export interface LineHunk {
  oldStart: number
  oldLines: number
  newStart: number
  newLines: number
  lines: string[]
}

/** A text's lines; a final newline ends the last line rather than starting an empty one. */
const linesOf = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'))

/**
 * The line changes from `before` to `after` as unified-diff hunks with `context` unchanged lines around each
 * change; changes closer than twice that share a hunk. node-diff3 (the merges' line diff) finds the changes.
 */
export function lineHunks(before: string, after: string, context = 3): LineHunk[] {
  const a = linesOf(before)
  const b = linesOf(after)
  const hunks: LineHunk[] = []
  let hunk: LineHunk | undefined
  let oldEnd = 0
  const close = () => {
    if (!hunk) return
    for (let i = oldEnd; i < Math.min(a.length, oldEnd + context); i++) hunk.lines.push(` ${a[i]}`)
    hunk.oldLines = hunk.lines.filter((l) => l[0] !== '+').length
    hunk.newLines = hunk.lines.filter((l) => l[0] !== '-').length
    hunks.push(hunk)
  }
  for (const d of diffIndices(a, b)) {
    const [oldAt, oldCount] = d.buffer1
    const [newAt, newCount] = d.buffer2
    if (hunk && oldAt - context <= oldEnd + context) {
      for (let i = oldEnd; i < oldAt; i++) hunk.lines.push(` ${a[i]}`)
    } else {
      close()
      const from = Math.max(0, oldAt - context)
      hunk = { oldStart: from + 1, oldLines: 0, newStart: newAt - (oldAt - from) + 1, newLines: 0, lines: a.slice(from, oldAt).map((l) => ` ${l}`) }
    }
    for (let i = oldAt; i < oldAt + oldCount; i++) hunk.lines.push(`-${a[i]}`)
    for (let i = newAt; i < newAt + newCount; i++) hunk.lines.push(`+${b[i]}`)
    oldEnd = oldAt + oldCount
  }
  close()
  return hunks
}
