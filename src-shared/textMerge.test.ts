import { describe, expect, it } from 'vitest'
import { mergeLines } from './textMerge'

/** Merges both ways round: which side is ours must not change whether it conflicts, nor the merged text. */
function merge(base: string[], ours: string[], theirs: string[]): string[] | undefined {
  const merged = mergeLines(base, ours, theirs)
  expect(mergeLines(base, theirs, ours)).toEqual(merged)
  return merged
}

const base = ['a', 'b', 'c', 'd', 'e', 'f']

describe('mergeLines', () => {
  it('merges edits to adjacent lines (2 and 3) with both edits', () => {
    expect(merge(base, ['a', 'B', 'c', 'd', 'e', 'f'], ['a', 'b', 'C', 'd', 'e', 'f'])).toEqual(['a', 'B', 'C', 'd', 'e', 'f'])
  })

  it('merges deleting line 2 against editing line 3', () => {
    expect(merge(base, ['a', 'c', 'd', 'e', 'f'], ['a', 'b', 'C', 'd', 'e', 'f'])).toEqual(['a', 'C', 'd', 'e', 'f'])
  })

  it('merges adjacent multi-line rewrites that change the line count', () => {
    const ours = ['a', 'B1', 'B2', 'B3', 'd', 'e', 'f']
    const theirs = ['a', 'b', 'c', 'D', 'f']
    expect(merge(base, ours, theirs)).toEqual(['a', 'B1', 'B2', 'B3', 'D', 'f'])
  })

  it('conflicts when the same line is edited differently', () => {
    expect(merge(base, ['a', 'b', 'X', 'd', 'e', 'f'], ['a', 'b', 'Y', 'd', 'e', 'f'])).toBeUndefined()
  })

  it('conflicts when one side edits a line the other deleted', () => {
    expect(merge(base, ['a', 'b', 'X', 'd', 'e', 'f'], ['a', 'b', 'd', 'e', 'f'])).toBeUndefined()
  })

  it('merges the same line edited identically, applying it once', () => {
    const edited = ['a', 'b', 'X', 'd', 'e', 'f']
    expect(merge(base, edited, ['a', 'b', 'X', 'd', 'e', 'F'])).toEqual(['a', 'b', 'X', 'd', 'e', 'F'])
  })

  it('conflicts when both sides insert different text at the same place', () => {
    expect(merge(base, ['a', 'b', 'X', 'c', 'd', 'e', 'f'], ['a', 'b', 'Y', 'c', 'd', 'e', 'f'])).toBeUndefined()
  })

  it('merges the same insertion at the same place once', () => {
    const ours = ['a', 'b', 'X', 'c', 'd', 'e', 'f']
    expect(merge(base, ours, ['A', 'b', 'X', 'c', 'd', 'e', 'f'])).toEqual(['A', 'b', 'X', 'c', 'd', 'e', 'f'])
  })

  it('merges insertions at different places', () => {
    const ours = ['a', 'X', 'b', 'c', 'd', 'e', 'f']
    const theirs = ['a', 'b', 'Y', 'c', 'd', 'e', 'f']
    expect(merge(base, ours, theirs)).toEqual(['a', 'X', 'b', 'Y', 'c', 'd', 'e', 'f'])
  })

  it('conflicts when one side inserts strictly inside the range the other replaced', () => {
    // Theirs rewrites b..d into one line; ours adds a line between c and d.
    expect(merge(base, ['a', 'b', 'c', 'X', 'd', 'e', 'f'], ['a', 'BCD', 'e', 'f'])).toBeUndefined()
    // The same against a pure deletion of b..d: the insertion would lose the lines it was written between.
    expect(merge(base, ['a', 'b', 'c', 'X', 'd', 'e', 'f'], ['a', 'e', 'f'])).toBeUndefined()
  })

  it('merges edits far apart', () => {
    expect(merge(base, ['A', 'b', 'c', 'd', 'e', 'f'], ['a', 'b', 'c', 'd', 'e', 'F', 'g'])).toEqual(['A', 'b', 'c', 'd', 'e', 'F', 'g'])
  })

  it('merges an append at the end with an edit of the first line', () => {
    expect(merge(base, ['A', 'b', 'c', 'd', 'e', 'f'], [...base, 'g', 'h'])).toEqual(['A', 'b', 'c', 'd', 'e', 'f', 'g', 'h'])
    // With a trailing newline the append lands before the final empty line, which neither side touched.
    const text = 'a\nb\nc\n'.split('\n')
    expect(merge(text, 'A\nb\nc\n'.split('\n'), 'a\nb\nc\nd\n'.split('\n'))?.join('\n')).toBe('A\nb\nc\nd\n')
  })

  it('merges both sides deleting the same range into one deletion', () => {
    const deleted = ['a', 'e', 'f']
    expect(merge(base, deleted, deleted)).toEqual(deleted)
    expect(merge(base, deleted, ['a', 'e', 'F'])).toEqual(['a', 'e', 'F'])
  })

  it('conflicts when the changed ranges overlap', () => {
    // Ours rewrites b..c, theirs c..d: line c is claimed by both.
    expect(merge(base, ['a', 'BC', 'd', 'e', 'f'], ['a', 'b', 'CD', 'e', 'f'])).toBeUndefined()
    // Overlapping but different deletions, and a range that contains the other side's.
    expect(merge(base, ['a', 'd', 'e', 'f'], ['a', 'b', 'e', 'f'])).toBeUndefined()
    expect(merge(base, ['a', 'BCDE', 'f'], ['a', 'b', 'C', 'd', 'e', 'f'])).toBeUndefined()
  })

  it('conflicts when one side inserts right before or right after a range the other rewrote', () => {
    const rewritten = ['a', 'b', 'CD', 'e', 'f']
    expect(merge(base, ['a', 'b', 'X', 'c', 'd', 'e', 'f'], rewritten)).toBeUndefined()
    expect(merge(base, ['a', 'b', 'c', 'd', 'X', 'e', 'f'], rewritten)).toBeUndefined()
    // The case the rule guards against: both add X, and theirs also edits the following line.
    expect(merge(base, ['a', 'b', 'X', 'c', 'd', 'e', 'f'], ['a', 'b', 'X', 'C', 'd', 'e', 'f'])).toBeUndefined()
  })

  it('merges an insertion right before or right after a range the other only deleted', () => {
    const deleted = ['a', 'b', 'e', 'f']
    expect(merge(base, ['a', 'b', 'X', 'c', 'd', 'e', 'f'], deleted)).toEqual(['a', 'b', 'X', 'e', 'f'])
    expect(merge(base, ['a', 'b', 'c', 'd', 'X', 'e', 'f'], deleted)).toEqual(['a', 'b', 'X', 'e', 'f'])
    // Insertions at both ends of the deleted range keep their order.
    expect(merge(base, ['a', 'b', 'X', 'c', 'd', 'Y', 'e', 'f'], deleted)).toEqual(['a', 'b', 'X', 'Y', 'e', 'f'])
  })

  it('finds a conflict after several clean merges in the same pass', () => {
    const ours = ['A', 'b', 'C', 'd', 'E', 'f']
    const theirs = ['a', 'B', 'c', 'D', 'e', 'F']
    expect(merge(base, ours, theirs)).toEqual(['A', 'B', 'C', 'D', 'E', 'F'])
    expect(merge(base, ours, ['a', 'B', 'c', 'D', 'X', 'F'])).toBeUndefined()
  })

  it('returns ours when both sides are identical and the changed side when the other is unchanged', () => {
    const ours = ['a', 'X']
    expect(mergeLines(base, ours, ['a', 'X'])).toBe(ours)
    expect(mergeLines(base, ours, base)).toBe(ours)
    const theirs = ['Y']
    expect(mergeLines(base, base, theirs)).toBe(theirs)
  })

  it('handles empty documents', () => {
    expect(merge([], [], [])).toEqual([])
    expect(merge([], ['x'], [])).toEqual(['x'])
    expect(merge([], ['x'], ['y'])).toBeUndefined()
    // ''.split('\n') is [''], a document of one empty line.
    expect(merge([''], ['x'], [''])).toEqual(['x'])
    expect(merge([''], ['x'], ['y'])).toBeUndefined()
    // Emptying a page against an edit of it conflicts: the edit would be lost.
    expect(merge(['a', 'b'], [''], ['a', 'B'])).toBeUndefined()
  })

  it('treats the final empty line of a trailing newline as an ordinary line', () => {
    const text = 'a\nb\n'.split('\n')
    // Ours drops the trailing newline, theirs edits the line before it: touching, so both apply.
    expect(merge(text, ['a', 'b'], ['a', 'B', ''])?.join('\n')).toBe('a\nB')
    // Both add a trailing newline identically.
    expect(merge(['a', 'b'], ['A', 'b', ''], ['a', 'b', ''])?.join('\n')).toBe('A\nb\n')
  })

  it('merges any mix of line edits and deletions that never claim the same line', () => {
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let round = 0; round < 300; round++) {
      const lines = Array.from({ length: 1 + Math.floor(random() * 20) }, (_, i) => `line ${i}`)
      const ours: string[] = []
      const theirs: string[] = []
      const expected: string[] = []
      for (const line of lines) {
        // Kept, edited by one side, or deleted by one side: neighbours may be touched by the other side.
        const [mine, other, result] = [
          [line, line, line],
          [`${line} ours`, line, `${line} ours`],
          [line, `${line} theirs`, `${line} theirs`],
          [undefined, line, undefined],
          [line, undefined, undefined]
        ][Math.floor(random() * 5)]
        if (mine !== undefined) ours.push(mine)
        if (other !== undefined) theirs.push(other)
        if (result !== undefined) expected.push(result)
      }
      expect(merge(lines, ours, theirs)).toEqual(expected)
    }
  })
})
