import { describe, expect, it } from 'vitest'
import {
  changeKey,
  changeRows,
  conflictAdvice,
  conflictCount,
  conflictingPages,
  groupChanges,
  pages,
  pickSelection,
  type PageChange
} from './changes.ts'

const side = (path: string, markdown = '', title = path) => ({ title, path, markdown })
const change = (type: PageChange['type'], id: string, path: string, extra: Partial<PageChange> = {}): PageChange => ({
  type,
  page: { id, type: 'document', title: path, path },
  ...extra
})

const sample: PageChange[] = [
  change('page_deleted', 'r1', 'old'),
  change('page_edited', 'e2', 'guide/setup', { before: side('guide/setup', 'a'), after: side('guide/setup', 'b') }),
  change('page_created', 'a1', 'new-b'),
  change('page_moved', 'e2', 'guide/setup', { before: side('setup'), after: side('guide/setup') }),
  change('page_edited', 'e1', 'guide/intro', { conflict: true }),
  change('page_created', 'a2', 'new-a')
]

describe('grouping changes', () => {
  it('groups Added, Edited, Moved, Removed in that order, sorted by path, without empty groups', () => {
    const groups = groupChanges(sample)
    expect(groups.map((g) => [g.label, g.changes.map((c) => c.page.id)])).toEqual([
      ['Added', ['a2', 'a1']],
      ['Edited', ['e1', 'e2']],
      ['Moved', ['e2']],
      ['Removed', ['r1']]
    ])
    expect(groupChanges([change('page_created', 'x', 'x')]).map((g) => g.key)).toEqual(['added'])
    expect(groupChanges([])).toEqual([])
  })

  it('keys an edited-and-moved page once per kind', () => {
    const keys = sample.map(changeKey)
    expect(new Set(keys).size).toBe(keys.length)
    expect(keys).toContain('edited:e2')
    expect(keys).toContain('moved:e2')
  })

  it('flattens groups into heading and page rows for the virtual list', () => {
    const rows = changeRows(groupChanges(sample))
    expect(rows.map((r) => (r.kind === 'group' ? `# ${r.group.label}` : r.key))).toEqual([
      '# Added',
      'added:a2',
      'added:a1',
      '# Edited',
      'edited:e1',
      'edited:e2',
      '# Moved',
      'moved:e2',
      '# Removed',
      'removed:r1'
    ])
  })

  it('says "1 page" and "2 pages"', () => {
    expect(pages(1)).toBe('1 page')
    expect(pages(0)).toBe('0 pages')
  })
})

describe('conflicts', () => {
  it('joins the pages /changes flags with those a merge answered', () => {
    const pagesInConflict = conflictingPages(sample, [{ page: { id: 'a1', title: 'new-b' }, reason: 'removed' }])
    expect([...pagesInConflict.entries()]).toEqual([
      ['e1', undefined],
      ['a1', 'removed']
    ])
    expect(conflictingPages([]).size).toBe(0)
  })

  it('counts conflicting pages, not entries: a page both edited and moved is one', () => {
    const both = [
      change('page_edited', 'm1', 'guide/moved', { conflict: true }),
      change('page_moved', 'm1', 'guide/moved', { conflict: true }),
      change('page_deleted', 'r1', 'old', { conflict: true }),
      change('page_edited', 'e1', 'guide/intro')
    ]
    expect(conflictCount(both)).toBe(2)
    expect(conflictCount(sample)).toBe(1)
    expect(conflictCount([])).toBe(0)
  })

  it('selects the wanted entry, else the first conflict, else the first entry', () => {
    const groups = groupChanges(sample)
    const none = new Map()
    expect(pickSelection(groups, 'moved:e2', none)?.type).toBe('page_moved')
    expect(pickSelection(groups, 'gone:zz', none)?.page.id).toBe('a2')
    expect(pickSelection(groups, undefined, conflictingPages(sample))?.page.id).toBe('e1')
    expect(pickSelection([], undefined, none)).toBeUndefined()
  })

  it('advises what resolves each kind of conflict', () => {
    const edited = change('page_edited', 'p', 'p', { before: side('p', 'a', 'Old'), after: side('p', 'b', 'Mine') })
    expect(conflictAdvice(edited, 'content', { title: 'Old', exists: true })).toMatch(
      /In Resolve conflicts, keep main’s lines, yours or both/
    )
    expect(conflictAdvice(edited, undefined, { title: 'Theirs', exists: true })).toBe(
      'Both renamed the page. Choose or write its title in Resolve conflicts (main’s is “Theirs”), then merge again.'
    )
    expect(conflictAdvice(edited, undefined, { exists: false })).toMatch(/^Main removed this page/)
    expect(conflictAdvice(change('page_deleted', 'p', 'p'), undefined, { exists: true })).toMatch(/^This change request removes the page/)
    expect(conflictAdvice(change('page_created', 'p', 'p'), 'removed', { exists: false })).toMatch(/under a page the other side removed/)
    expect(conflictAdvice(change('page_moved', 'p', 'p'), 'removed', { exists: true })).toMatch(
      /^This change request moves the page under a page main removed/
    )
  })
})
