import { describe, expect, it } from 'vitest'
import { commentsPath, flattenPageTree, listFilters, parseCommentSearch } from './filters.ts'

describe('parseCommentSearch', () => {
  it('keeps known values and drops defaults and junk', () => {
    expect(parseCommentSearch({ status: 'resolved', page: 'p1', author: 'me', order: 'asc' })).toEqual({
      status: 'resolved',
      page: 'p1',
      author: 'me',
      order: 'asc'
    })
    expect(parseCommentSearch({ status: 'open', order: 'desc', page: '', author: 42 })).toEqual({
      status: undefined,
      page: undefined,
      author: undefined,
      order: undefined
    })
  })
})

describe('listFilters', () => {
  it('defaults to open comments, newest first', () => {
    expect(listFilters({})).toEqual({ status: 'open', order: 'desc' })
  })

  it('resolves "me" to the caller, and leaves it out until the caller is known', () => {
    expect(listFilters({ author: 'me', meId: 'u1', page: 'p', status: 'all', order: 'asc' })).toEqual({
      status: 'all',
      order: 'asc',
      targetPage: 'p',
      authors: ['u1']
    })
    expect(listFilters({ author: 'me' })).toEqual({ status: 'open', order: 'desc' })
    expect(listFilters({ author: 'u2', changeRequest: 'cr' })).toMatchObject({ authors: ['u2'], changeRequest: 'cr' })
  })
})

describe('commentsPath', () => {
  it('repeats authors and skips what is not set', () => {
    expect(commentsPath('s1', { status: 'open', order: 'desc', authors: ['a', 'b c'] }, 50)).toBe(
      '/v1/spaces/s1/comments?status=open&order=desc&limit=50&authors=a&authors=b%20c'
    )
    expect(commentsPath('s1', { status: 'all', order: 'asc', targetPage: 'p' }, 50, 'CUR')).toBe(
      '/v1/spaces/s1/comments?status=all&order=asc&targetPage=p&limit=50&page=CUR'
    )
  })
})

describe('flattenPageTree', () => {
  it('lists pages depth first with their depth', () => {
    const tree = [
      { id: 'a', title: 'A', type: 'document', pages: [{ id: 'a1', title: '', type: 'document', pages: [] }] },
      { id: 'b', title: 'B', emoji: '📘', type: 'group', pages: [] }
    ]
    expect(flattenPageTree(tree)).toEqual([
      { id: 'a', title: 'A', emoji: undefined, depth: 0 },
      { id: 'a1', title: 'Untitled page', emoji: undefined, depth: 1 },
      { id: 'b', title: 'B', emoji: '📘', depth: 0 }
    ])
  })
})
