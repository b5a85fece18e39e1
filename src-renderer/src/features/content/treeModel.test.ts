import { describe, expect, it } from 'vitest'
import type { Collection, Space } from '../../api/types.ts'
import { buildForest, dropZoneAt, flattenTree, moveDestinations, moveRequest } from './treeModel.ts'

const collection = (id: string, title: string, parent?: string) => ({ object: 'collection', id, title, parent }) as Collection
const space = (id: string, title: string, parent?: string) => ({ object: 'space', id, title, emoji: '📘', parent }) as Space

const collections = [collection('c1', 'Guides'), collection('c2', 'Internal', 'c1'), collection('c3', 'Archive')]
const spaces = [space('s1', 'Handbook', 'c1'), space('s2', 'API'), space('s3', 'Onboarding', 'c2'), space('s4', 'Orphan', 'gone')]

describe('content tree', () => {
  it('nests collections and spaces, collections first, and folds collapsed collections', () => {
    const rows = flattenTree(buildForest(collections, spaces), (id) => id === 'c2')
    expect(rows.map((r) => `${'  '.repeat(r.depth)}${r.title}`)).toEqual(['Guides', '  Internal', '  Handbook', 'Archive', 'API', 'Orphan'])
    expect(rows[0]).toMatchObject({ kind: 'collection', childCount: 2, expanded: true })
    expect(rows[1]).toMatchObject({ kind: 'collection', childCount: 1, expanded: false })
  })

  it('splits a row into before / inside / after by pointer height', () => {
    expect(dropZoneAt({ kind: 'collection' }, 2, 36)).toBe('before')
    expect(dropZoneAt({ kind: 'collection' }, 18, 36)).toBe('inside')
    expect(dropZoneAt({ kind: 'collection' }, 34, 36)).toBe('after')
    expect(dropZoneAt({ kind: 'space' }, 17, 36)).toBe('before')
    expect(dropZoneAt({ kind: 'space' }, 19, 36)).toBe('after')
  })

  it('turns drops into move requests', () => {
    const api = { kind: 'space' as const, id: 's2', parent: null }
    expect(moveRequest(api, { row: { kind: 'collection', id: 'c1', parent: null }, zone: 'inside' }, collections)).toEqual({ parent: 'c1' })
    expect(moveRequest(api, { row: { kind: 'space', id: 's1', parent: 'c1' }, zone: 'after' }, collections)).toEqual({
      parent: 'c1',
      position: { after: { type: 'space', space: 's1' } }
    })
    expect(moveRequest(api, { row: { kind: 'collection', id: 'c3', parent: null }, zone: 'before' }, collections)).toEqual({
      parent: null,
      position: { before: { type: 'collection', collection: 'c3' } }
    })
    // To the top level, from a collection; nothing to do when already there.
    expect(moveRequest({ kind: 'space', id: 's1', parent: 'c1' }, null, collections)).toEqual({ parent: null })
    expect(moveRequest(api, null, collections)).toBeNull()
  })

  it('refuses drops onto itself, into the same parent, or a collection into its own subtree', () => {
    const guides = { kind: 'collection' as const, id: 'c1', parent: null }
    expect(moveRequest(guides, { row: { kind: 'collection', id: 'c1', parent: null }, zone: 'inside' }, collections)).toBeNull()
    expect(moveRequest(guides, { row: { kind: 'collection', id: 'c2', parent: 'c1' }, zone: 'inside' }, collections)).toBeNull()
    expect(moveRequest(guides, { row: { kind: 'space', id: 's3', parent: 'c2' }, zone: 'before' }, collections)).toBeNull()
    expect(
      moveRequest(
        { kind: 'space', id: 's1', parent: 'c1' },
        { row: { kind: 'collection', id: 'c1', parent: null }, zone: 'inside' },
        collections
      )
    ).toBeNull()
  })

  it('offers the top level and every collection outside the moved one as destinations', () => {
    expect(moveDestinations({ kind: 'collection', id: 'c1', parent: null }, collections)).toEqual([
      { value: 'top-level', label: 'Top level' },
      { value: 'c3', label: 'Archive' }
    ])
    expect(moveDestinations({ kind: 'space', id: 's2', parent: null }, collections).map((d) => d.label)).toEqual([
      'Top level',
      'Archive',
      'Guides',
      'Guides / Internal'
    ])
  })
})
