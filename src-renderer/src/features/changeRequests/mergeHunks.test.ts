import { describe, expect, it } from 'vitest'
import { mergeText } from '../../../../src-shared/textMerge.ts'
import { blockReplacement, conflictBlocks, MARKERS, mergeChunks, resolveBlock, withMarkers, type MergeChunk } from './mergeHunks.ts'

const BASE = 'one\ntwo\nthree\nfour\nfive\n'
const conflictsOf = (chunks: MergeChunk[]) => chunks.filter((c) => c.kind === 'conflict')

describe('mergeChunks', () => {
  it('is the server’s merge when nothing conflicts: neighbouring edits of both sides are clean lines', () => {
    const main = BASE.replace('two', 'TWO')
    const cr = BASE.replace('three', 'THREE').replace('five', 'FIVE')
    const chunks = mergeChunks(BASE, main, cr)
    expect(conflictsOf(chunks)).toEqual([])
    expect(withMarkers(chunks)).toBe(mergeText(BASE, main, cr))
  })

  it('puts lines both sides changed in one conflict, with base, main and the change request, and keeps the rest clean', () => {
    const main = BASE.replace('two', 'two (main)').replace('five', 'five (main)')
    const cr = BASE.replace('two', 'two (cr)')
    const chunks = mergeChunks(BASE, main, cr)
    expect(chunks).toEqual([
      { kind: 'clean', lines: ['one'] },
      { kind: 'conflict', base: ['two'], main: ['two (main)'], changeRequest: ['two (cr)'] },
      { kind: 'clean', lines: ['three', 'four', 'five (main)', ''] }
    ])
  })

  it('grows a conflict over the hunks that meet it, so each side’s version is whole', () => {
    // Main rewrites two and three; the change request rewrites three and inserts a line after four (touching nothing of main’s).
    const main = BASE.replace('two\nthree', 'TWO\nTHREE')
    const cr = BASE.replace('three\nfour', 'three (cr)\nfour\nfour and a half')
    const [, conflict] = mergeChunks(BASE, main, cr)
    expect(conflict).toEqual({ kind: 'conflict', base: ['two', 'three'], main: ['TWO', 'THREE'], changeRequest: ['two', 'three (cr)'] })
    expect(withMarkers(mergeChunks(BASE, main, cr))).toContain('four\nfour and a half\nfive')
  })

  it('agrees with the server on whether a page conflicts, over many small edits', () => {
    const lines = ['a', 'b', 'c', 'd', 'e']
    const edits = (seed: number) => {
      const out = [...lines]
      // Deterministic variety: replace, delete or insert around one or two positions.
      const at = seed % 5
      const kind = Math.floor(seed / 5) % 4
      if (kind === 0) out[at] = `${out[at]}${seed}`
      else if (kind === 1) out.splice(at, 1)
      else if (kind === 2) out.splice(at, 0, `new${seed}`)
      else out.splice(at, 2, `x${seed}`)
      return out.join('\n')
    }
    const base = lines.join('\n')
    for (let i = 0; i < 20; i++) {
      for (let j = 0; j < 20; j++) {
        const main = edits(i)
        const cr = edits(j + 100)
        const merged = mergeText(base, main, cr)
        const chunks = mergeChunks(base, main, cr)
        expect(conflictsOf(chunks).length > 0, `${i}/${j}`).toBe(merged === undefined)
        if (merged !== undefined) expect(withMarkers(chunks)).toBe(merged)
        // A side that changed nothing never conflicts.
        if (main === base || cr === base) expect(conflictsOf(chunks)).toEqual([])
      }
    }
  })
})

describe('conflict markers', () => {
  const main = BASE.replace('two', 'two (main)')
  const cr = BASE.replace('two', 'two (cr)').replace('four', 'four (cr)')
  const text = withMarkers(mergeChunks(BASE, main, cr))

  it('writes each conflict between main, base and change request markers', () => {
    expect(text).toBe(
      [
        'one',
        MARKERS.main,
        'two (main)',
        MARKERS.base,
        'two',
        MARKERS.changeRequest,
        'two (cr)',
        MARKERS.end,
        'three',
        'four (cr)',
        'five',
        ''
      ].join('\n')
    )
    expect(conflictBlocks(text)).toEqual([
      { from: 4, to: text.indexOf(MARKERS.end) + MARKERS.end.length, main: ['two (main)'], base: ['two'], changeRequest: ['two (cr)'] }
    ])
  })

  it('resolves a block with main’s lines, the change request’s, or both (main first)', () => {
    expect(resolveBlock(text, 0, 'main')).toBe('one\ntwo (main)\nthree\nfour (cr)\nfive\n')
    expect(resolveBlock(text, 0, 'changeRequest')).toBe('one\ntwo (cr)\nthree\nfour (cr)\nfive\n')
    expect(resolveBlock(text, 0, 'both')).toBe('one\ntwo (main)\ntwo (cr)\nthree\nfour (cr)\nfive\n')
    expect(conflictBlocks(resolveBlock(text, 0, 'both'))).toEqual([])
  })

  it('takes a block’s sides as edited, and drops the line of a side with no lines', () => {
    const edited = text.replace('two (main)', 'two, edited in the result')
    expect(resolveBlock(edited, 0, 'main')).toBe('one\ntwo, edited in the result\nthree\nfour (cr)\nfive\n')
    const removedOnMain = withMarkers(mergeChunks(BASE, BASE.replace('two\n', ''), BASE.replace('two', 'two (cr)')))
    expect(resolveBlock(removedOnMain, 0, 'main')).toBe('one\nthree\nfour\nfive\n')
    expect(blockReplacement(conflictBlocks(removedOnMain)[0]!, 'main').insert).toBe('')
  })

  it('finds each of several blocks, and none once its markers are edited away', () => {
    const two = withMarkers(
      mergeChunks(BASE, BASE.replace('one', '1m').replace('five', '5m'), BASE.replace('one', '1c').replace('five', '5c'))
    )
    expect(conflictBlocks(two).map((b) => b.main)).toEqual([['1m'], ['5m']])
    expect(resolveBlock(resolveBlock(two, 1, 'changeRequest'), 0, 'main')).toBe('1m\ntwo\nthree\nfour\n5c\n')
    expect(conflictBlocks(two.replace(MARKERS.base, 'base'))).toHaveLength(1)
    expect(resolveBlock(two, 5, 'main')).toBe(two)
  })
})
