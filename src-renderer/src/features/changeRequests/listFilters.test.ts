import { describe, expect, it } from 'vitest'
import { mergeNewestFirst, parseListStatus, sourcesOf } from './listFilters.ts'

const n = (x: number) => x

describe('change request list filters', () => {
  it('opens on Active unless the address names a status', () => {
    expect(parseListStatus(undefined)).toBe('active')
    expect(parseListStatus('nope')).toBe('active')
    expect(parseListStatus('open')).toBe('open')
    expect(parseListStatus('merged')).toBe('merged')
  })

  it('reads Active as the user’s drafts plus the open ones; other statuses as one list', () => {
    expect(sourcesOf('active', false, 'u1')).toEqual([
      { status: 'draft', contributor: 'u1' },
      { status: 'open', contributor: undefined }
    ])
    expect(sourcesOf('active', true, 'u1')).toEqual([
      { status: 'draft', contributor: 'u1' },
      { status: 'open', contributor: 'u1' }
    ])
    expect(sourcesOf('draft', false, 'u1')).toEqual([{ status: 'draft', contributor: undefined }])
    expect(sourcesOf('merged', true, 'u1')).toEqual([{ status: 'merged', contributor: 'u1' }])
  })

  it('merges newest-first lists, holding back what a list not loaded that far could still precede', () => {
    // Both loaded whole: everything, newest first.
    expect(
      mergeNewestFirst(
        [
          { items: [9, 4], more: false },
          { items: [7, 2], more: false }
        ],
        n
      )
    ).toEqual({ items: [9, 7, 4, 2] })
    // The second list has more below 7: 4 and 2 might come after its next items, so they wait; it loads next.
    expect(
      mergeNewestFirst(
        [
          { items: [9, 4, 2], more: false },
          { items: [8, 7], more: true }
        ],
        n
      )
    ).toEqual({ items: [9, 8, 7], next: 1 })
    // Both have more: the one that stops earlier (at 6) is loaded next, and nothing under 6 shows yet.
    expect(
      mergeNewestFirst(
        [
          { items: [9, 3], more: true },
          { items: [8, 6], more: true }
        ],
        n
      )
    ).toEqual({ items: [9, 8, 6], next: 1 })
    expect(
      mergeNewestFirst(
        [
          { items: [], more: false },
          { items: [5], more: false }
        ],
        n
      )
    ).toEqual({ items: [5] })
    // The same item in both (a list showing a previous answer while it loads) is shown once.
    expect(
      mergeNewestFirst(
        [
          { items: [5, 3], more: false },
          { items: [5, 4], more: false }
        ],
        n
      )
    ).toEqual({ items: [5, 4, 3] })
  })
})
