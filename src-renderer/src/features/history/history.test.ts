import { describe, expect, it } from 'vitest'
import type { ContentPage } from '../../api/types.ts'
import {
  compareKey,
  compareRows,
  pageRows,
  pagesToRestore,
  pickChange,
  pickPage,
  restorable,
  revisionTitle,
  revisionTypeLabel,
  textChanged,
  toggled,
  type SemanticChange
} from './history.ts'

const page = (id: string, pages: ContentPage[] = [], type: ContentPage['type'] = 'document') =>
  ({ id, title: id, type, pages }) as unknown as ContentPage

const created: SemanticChange = { type: 'page_created', page: { id: 'a', type: 'document', title: 'A', path: 'a' } }
const edited: SemanticChange = {
  type: 'page_edited',
  page: { id: 'b', type: 'document', title: 'B', path: 'b' },
  attributes: { document: { before: 'h1', after: 'h2', hunks: [] } }
}
const renamed: SemanticChange = {
  type: 'page_edited',
  page: { id: 'c', type: 'document', title: 'C', path: 'c' },
  attributes: { title: { before: 'Old', after: 'C' } }
}
const moved: SemanticChange = {
  type: 'page_moved',
  page: { id: 'b', type: 'document', title: 'B', path: 'x/b' },
  parent: { after: { id: 'x', type: 'group', title: 'X', path: 'x' } },
  path: { before: 'b', after: 'x/b' }
}
const deleted: SemanticChange = { type: 'page_deleted', page: { id: 'd', type: 'document', title: 'D', path: 'd' } }
const file: SemanticChange = {
  type: 'file_created',
  file: { id: 'f', name: 'f.png', contentType: 'image/png', size: 3, downloadURL: 'http://127.0.0.1/files/f.png' }
}

describe('revision names', () => {
  it('names a merge by its change request, the first revision as such, and others by their type', () => {
    expect(revisionTitle({ type: 'merge', parents: ['p', 'q'], changeRequest: { id: 'cr', number: 3, subject: 'Fix typo' } })).toBe(
      '#3 Fix typo'
    )
    expect(revisionTitle({ type: 'edits', parents: [] })).toBe('First revision')
    expect(revisionTitle({ type: 'rollback', parents: ['p'] })).toBe('Restore')
    expect(revisionTypeLabel('merge')).toBe('Merge')
    expect(revisionTypeLabel('some-new_kind')).toBe('Some new kind')
  })
})

describe('a revision’s page tree', () => {
  it('lists pages in tree order with their depth, and picks the asked page or the first document', () => {
    const rows = pageRows([page('g', [page('a'), page('b', [page('c')])], 'group'), page('d')])
    expect(rows.map((r) => `${r.page.id}${r.depth}`)).toEqual(['g0', 'a1', 'b1', 'c2', 'd0'])
    expect(pickPage(rows, 'c')?.id).toBe('c')
    expect(pickPage(rows, 'gone')?.id).toBe('a')
    expect(pickPage([], undefined)).toBeUndefined()
  })
})

describe('comparing two revisions', () => {
  it('groups changes Created / Edited / Moved / Deleted / Files, keeping the API’s order inside a group', () => {
    const rows = compareRows([edited, moved, created, deleted, renamed, file])
    expect(rows.map((r) => (r.kind === 'group' ? `[${r.label} ${r.count}]` : r.key))).toEqual([
      '[Created 1]',
      'page_created:a',
      '[Edited 2]',
      'page_edited:b',
      'page_edited:c',
      '[Moved 1]',
      'page_moved:b',
      '[Deleted 1]',
      'page_deleted:d',
      '[Files 1]',
      'file_created:f'
    ])
    expect(compareRows([])).toEqual([])
  })

  it('keeps the entry asked for (an edited and a moved page are two), else shows the first', () => {
    const rows = compareRows([edited, moved])
    expect(pickChange(rows, compareKey(moved))).toBe(moved)
    expect(pickChange(rows, 'page_created:zz')).toBe(edited)
    expect(pickChange([], undefined)).toBeUndefined()
  })

  it('restores only pages the compared revision has, each once', () => {
    expect([created, edited, moved, renamed, deleted, file].map(restorable)).toEqual([true, true, true, true, false, false])
    expect(pagesToRestore([created, edited, moved, deleted], new Set(['b', 'd', 'a']))).toEqual(['a', 'b'])
    expect(pagesToRestore([created], new Set())).toEqual([])
  })

  it('tells a text change from a change of the page’s settings only', () => {
    expect(textChanged(edited)).toBe(true)
    expect(textChanged(renamed)).toBe(false)
    expect(textChanged(created)).toBe(false)
  })
})

describe('toggled', () => {
  it('takes an id out when it is in, and puts it in when it is not, leaving the set given as it was', () => {
    const set = new Set(['a', 'b'])
    expect([...toggled(set, 'a')]).toEqual(['b'])
    expect([...toggled(set, 'c')]).toEqual(['a', 'b', 'c'])
    expect([...set]).toEqual(['a', 'b'])
  })
})
