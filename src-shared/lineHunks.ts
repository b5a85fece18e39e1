import { structuredPatch } from 'diff'

/** A unified-diff hunk: 1-based line numbers, lines prefixed with ' ' (kept), '-' (removed) or '+' (added). */
export interface LineHunk {
  oldStart: number
  oldLines: number
  newStart: number
  newLines: number
  lines: string[]
}

/** A text as the diff reads it: lines ending in a newline, so a missing final newline is no change of its own. */
const terminated = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`)

/**
 * The line changes from `before` to `after` as unified-diff hunks with `context` unchanged lines around each
 * change; changes closer than twice that share a hunk. jsdiff's Myers diff finds them: a 10,000-line page with a
 * hundred scattered edits diffs in a few milliseconds (node-diff3's LCS, which the merges use, took about 100 ms).
 */
export function lineHunks(before: string, after: string, context = 3): LineHunk[] {
  return structuredPatch('', '', terminated(before), terminated(after), '', '', { context }).hunks.map(
    ({ oldStart, oldLines, newStart, newLines, lines }) => ({
      oldStart,
      oldLines,
      newStart,
      newLines,
      lines
    })
  )
}
