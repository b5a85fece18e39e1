import { describe, expect, it } from 'vitest'
import { lineHunks } from './lineHunks'

const text = (n: number, edit: (i: number) => string | undefined = () => undefined) =>
  Array.from({ length: n }, (_, i) => edit(i + 1) ?? `line ${i + 1}`).join('\n') + '\n'

describe('lineHunks', () => {
  it('answers unified-diff hunks with three lines of context', () => {
    expect(
      lineHunks(
        text(10),
        text(10, (i) => (i === 5 ? 'five' : undefined))
      )
    ).toEqual([
      {
        oldStart: 2,
        oldLines: 7,
        newStart: 2,
        newLines: 7,
        lines: [' line 2', ' line 3', ' line 4', '-line 5', '+five', ' line 6', ' line 7', ' line 8']
      }
    ])
  })

  it('joins changes closer than twice the context, keeps distant ones apart, and counts insertions and deletions', () => {
    const before = text(30)
    const after = text(30, (i) => (i === 2 ? 'two' : i === 7 ? 'seven' : i === 25 ? 'x\ny' : undefined)).replace('line 28\n', '')
    const hunks = lineHunks(before, after)
    expect(hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines])).toEqual([
      [1, 10, 1, 10],
      [22, 9, 22, 9]
    ])
    expect(hunks[0]!.lines.filter((l) => l[0] !== ' ')).toEqual(['-line 2', '+two', '-line 7', '+seven'])
    expect(hunks[1]!.lines).toEqual([
      ' line 22',
      ' line 23',
      ' line 24',
      '-line 25',
      '+x',
      '+y',
      ' line 26',
      ' line 27',
      '-line 28',
      ' line 29',
      ' line 30'
    ])
  })

  it('handles texts from and to nothing', () => {
    expect(lineHunks('', 'a\nb\n')).toEqual([{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 2, lines: ['+a', '+b'] }])
    expect(lineHunks('a\n', '')).toEqual([{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 0, lines: ['-a'] }])
    expect(lineHunks('same\n', 'same\n')).toEqual([])
  })
})
