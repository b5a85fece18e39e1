import { describe, expect, it } from 'vitest'
import {
  ancestorsOf,
  applyMove,
  descendantCount,
  dropZoneAt,
  flattenPages,
  indexPages,
  insertedPage,
  isWithin,
  pageAfterDelete,
  pageMove,
  updatePage,
  type TreePage
} from './pageTreeModel.ts'

const page = (id: string, pages: TreePage[] = [], extra: Partial<TreePage> = {}): TreePage => ({
  id,
  title: id.toUpperCase(),
  pages,
  ...extra
})

// a
//   a1
//     a1x
//   a2
// b
// c
const tree = (): TreePage[] => [page('a', [page('a1', [page('a1x')]), page('a2')]), page('b', [], { emoji: '📄', hidden: true }), page('c')]
const outline = (pages: TreePage[]): string[] => flattenPages(pages, () => false).map((r) => `${'  '.repeat(r.depth)}${r.id}`)

describe('page tree', () => {
  it('flattens depth first and folds collapsed pages', () => {
    expect(outline(tree())).toEqual(['a', '  a1', '    a1x', '  a2', 'b', 'c'])
    const rows = flattenPages(tree(), (id) => id === 'a1')
    expect(rows.map((r) => r.id)).toEqual(['a', 'a1', 'a2', 'b', 'c'])
    expect(rows[1]).toMatchObject({ parent: 'a', index: 0, depth: 1, childCount: 1, expanded: false })
    expect(rows[0]).toMatchObject({ expanded: true, childCount: 2 })
    expect(rows[3]).toMatchObject({ emoji: '📄', hidden: true, index: 1, expanded: false })
  })

  it('knows ancestors, subtrees and descendant counts', () => {
    const index = indexPages(tree())
    expect(ancestorsOf(index, 'a1x')).toEqual(['a', 'a1'])
    expect(ancestorsOf(index, 'b')).toEqual([])
    expect(isWithin(index, 'a1x', 'a')).toBe(true)
    expect(isWithin(index, 'a', 'a')).toBe(true)
    expect(isWithin(index, 'b', 'a')).toBe(false)
    expect(descendantCount(tree()[0]!)).toBe(3)
  })

  it('splits a row into before / inside / after', () => {
    expect(dropZoneAt(2, 32)).toBe('before')
    expect(dropZoneAt(16, 32)).toBe('inside')
    expect(dropZoneAt(30, 32)).toBe('after')
  })

  it('turns drops into update_page moves, counting siblings without the moved page', () => {
    const index = indexPages(tree())
    expect(pageMove(index, 'c', { id: 'a', zone: 'before' })).toEqual({ into: null, at: 0 })
    expect(pageMove(index, 'a', { id: 'c', zone: 'after' })).toEqual({ into: null, at: 2 })
    expect(pageMove(index, 'a', { id: 'b', zone: 'after' })).toEqual({ into: null, at: 1 })
    expect(pageMove(index, 'c', { id: 'a1', zone: 'after' })).toEqual({ into: 'a', at: 1 })
    expect(pageMove(index, 'a2', { id: 'a1', zone: 'before' })).toEqual({ into: 'a', at: 0 })
    expect(pageMove(index, 'b', { id: 'a1x', zone: 'inside' })).toEqual({ into: 'a1x' })
    // Out of a parent to the top level.
    expect(pageMove(index, 'a1x', { id: 'c', zone: 'after' })).toEqual({ into: null, at: 3 })
  })

  it('puts a page dropped just below an unfolded page first among its children', () => {
    const index = indexPages(tree())
    expect(pageMove(index, 'c', { id: 'a', zone: 'after', expanded: true })).toEqual({ into: 'a', at: 0 })
    expect(pageMove(index, 'a1', { id: 'a', zone: 'after', expanded: true })).toBeNull()
    expect(pageMove(index, 'c', { id: 'a', zone: 'after', expanded: false })).toEqual({ into: null, at: 1 })
  })

  it('refuses drops that change nothing or move a page into its own subtree', () => {
    const index = indexPages(tree())
    expect(pageMove(index, 'a', { id: 'a', zone: 'inside' })).toBeNull()
    expect(pageMove(index, 'a', { id: 'a1x', zone: 'before' })).toBeNull()
    expect(pageMove(index, 'a', { id: 'a1', zone: 'inside' })).toBeNull()
    expect(pageMove(index, 'b', { id: 'a', zone: 'after' })).toBeNull()
    expect(pageMove(index, 'b', { id: 'c', zone: 'before' })).toBeNull()
    expect(pageMove(index, 'a2', { id: 'a', zone: 'inside' })).toBeNull()
    expect(pageMove(index, 'a1', { id: 'a', zone: 'inside' })).toEqual({ into: 'a' })
  })

  it('applies a move locally the way the API places pages', () => {
    expect(outline(applyMove(tree(), 'c', { into: null, at: 0 }))).toEqual(['c', 'a', '  a1', '    a1x', '  a2', 'b'])
    expect(outline(applyMove(tree(), 'b', { into: 'a1' }))).toEqual(['a', '  a1', '    a1x', '    b', '  a2', 'c'])
    expect(outline(applyMove(tree(), 'a1', { into: null, at: 2 }))).toEqual(['a', '  a2', 'b', 'a1', '  a1x', 'c'])
    expect(applyMove(tree(), 'missing', { into: null })).toHaveLength(3)
  })

  it('renames a page deep in the tree', () => {
    const renamed = updatePage(tree(), 'a1x', { title: 'Deep' })
    expect(indexPages(renamed).get('a1x')?.page.title).toBe('Deep')
    expect(indexPages(renamed).get('a1')?.page.title).toBe('A1')
  })

  it('finds the page an insert created and where to go after a delete', () => {
    const before = indexPages(tree())
    const after = [page('a', [page('a1', [page('a1x')]), page('a2'), page('new')]), page('b'), page('c')]
    expect(insertedPage(before, after, 'a')?.id).toBe('new')
    expect(insertedPage(before, after, null)).toBeUndefined()
    expect(pageAfterDelete(before, 'a1')).toBe('a2')
    expect(pageAfterDelete(before, 'a2')).toBe('a1')
    expect(pageAfterDelete(before, 'a1x')).toBe('a1')
    expect(pageAfterDelete(before, 'c')).toBe('b')
  })
})
