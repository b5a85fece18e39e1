import { describe, expect, it } from 'vitest'
import type { PublishedSite, SiteSection, SiteSectionGroup, SiteSpace } from '../../api/types.ts'
import {
  buildStructureRows,
  defaultTarget,
  dropMove,
  dropZoneAt,
  movePath,
  proxyInput,
  sectionsOf,
  siteSpacesOf,
  stepMove,
  type StructureRow
} from './siteTree.ts'

type Structure = PublishedSite['structure']

const siteSpace = (id: string, section?: string): SiteSpace => ({
  object: 'site-space',
  id,
  path: id,
  title: `Space ${id}`,
  ...(section ? { section } : {}),
  default: false,
  draft: false,
  urls: {}
})
const section = (id: string, siteSpaces: SiteSpace[], sectionGroup?: string): SiteSection => ({
  object: 'site-section',
  id,
  title: `Section ${id}`,
  default: false,
  path: id,
  siteSpaces,
  draft: false,
  urls: {},
  ...(sectionGroup ? { sectionGroup } : {})
})
const group = (id: string, sections: SiteSection[]): SiteSectionGroup => ({
  object: 'site-section-group',
  id,
  title: `Group ${id}`,
  draft: false,
  sections,
  children: sections
})

// Group g (sections b, c) then section a; b holds site spaces b1, b2.
const withSections: Structure = {
  type: 'sections',
  structure: [
    group('g', [section('b', [siteSpace('b1', 'b'), siteSpace('b2', 'b')], 'g'), section('c', [], 'g')]),
    section('a', [siteSpace('a1', 'a')])
  ]
}
const atRoot: Structure = { type: 'siteSpaces', structure: [siteSpace('x'), siteSpace('y'), siteSpace('z')] }

const find = (rows: StructureRow[], key: string) => rows.find((r) => r.key === key)!

describe('buildStructureRows', () => {
  it('walks groups, sections and site spaces depth first, in reading order', () => {
    const rows = buildStructureRows(withSections)
    expect(rows.map((r) => [r.key, r.depth, r.container])).toEqual([
      ['group:g', 0, 'top'],
      ['section:b', 1, 'group:g'],
      ['site-space:b1', 2, 'section:b'],
      ['site-space:b2', 2, 'section:b'],
      ['section:c', 1, 'group:g'],
      ['section:a', 0, 'top'],
      ['site-space:a1', 1, 'section:a']
    ])
    expect(find(rows, 'group:g')).toMatchObject({ childCount: 2, expanded: true, next: { kind: 'section', id: 'a' } })
    expect(find(rows, 'site-space:b2')).toMatchObject({
      index: 1,
      siblings: 2,
      prev: { kind: 'site-space', id: 'b1' },
      parentKey: 'section:b'
    })
    expect(find(rows, 'site-space:b2').next).toBeUndefined()
  })

  it('lists site spaces at the root of a site without sections', () => {
    const rows = buildStructureRows(atRoot)
    expect(rows.map((r) => [r.key, r.depth, r.container])).toEqual([
      ['site-space:x', 0, 'root'],
      ['site-space:y', 0, 'root'],
      ['site-space:z', 0, 'root']
    ])
  })

  it('leaves out the children of collapsed rows', () => {
    const rows = buildStructureRows(withSections, (key) => key === 'group:g' || key === 'section:a')
    expect(rows.map((r) => r.key)).toEqual(['group:g', 'section:a'])
    expect(rows[0]).toMatchObject({ expanded: false, childCount: 2 })
  })
})

describe('moves', () => {
  const rows = buildStructureRows(withSections)

  it('steps up before the previous sibling and down after the next one', () => {
    expect(stepMove(find(rows, 'site-space:b2'), 'up')).toEqual({
      kind: 'site-space',
      id: 'b2',
      body: { position: { before: { type: 'site-space', siteSpace: 'b1' } } }
    })
    expect(stepMove(find(rows, 'group:g'), 'down')).toEqual({
      kind: 'group',
      id: 'g',
      body: { position: { after: { type: 'site-section', id: 'a' } } }
    })
    expect(stepMove(find(rows, 'section:a'), 'up')?.body).toEqual({ position: { before: { type: 'site-section-group', id: 'g' } } })
  })

  it('does not step past either end', () => {
    expect(stepMove(find(rows, 'site-space:b1'), 'up')).toBeNull()
    expect(stepMove(find(rows, 'section:c'), 'down')).toBeNull()
  })

  it('drops only among siblings, and not where the row already is', () => {
    const root = buildStructureRows(atRoot)
    const [x, y, z] = root as [StructureRow, StructureRow, StructureRow]
    expect(dropMove(x, z, 'after')?.body).toEqual({ position: { after: { type: 'site-space', siteSpace: 'z' } } })
    expect(dropMove(z, x, 'before')?.body).toEqual({ position: { before: { type: 'site-space', siteSpace: 'x' } } })
    expect(dropMove(x, y, 'before')).toBeNull() // already right before y
    expect(dropMove(y, x, 'after')).toBeNull() // already right after x
    expect(dropMove(x, x, 'after')).toBeNull()
    // b1 lives in section b, a1 in section a: the API does not move site spaces across sections.
    expect(dropMove(find(rows, 'site-space:b1'), find(rows, 'site-space:a1'), 'before')).toBeNull()
    expect(dropMove(find(rows, 'section:a'), find(rows, 'group:g'), 'before')?.body).toEqual({
      position: { before: { type: 'site-section-group', id: 'g' } }
    })
  })

  it('names the move endpoint of each kind', () => {
    expect(movePath({ kind: 'site-space', id: 's1' })).toBe('site-spaces/s1/move')
    expect(movePath({ kind: 'section', id: 'a' })).toBe('sections/a/move')
    expect(movePath({ kind: 'group', id: 'g' })).toBe('section-groups/g/move')
  })

  it('splits a row in two drop zones', () => {
    expect(dropZoneAt(5, 40)).toBe('before')
    expect(dropZoneAt(25, 40)).toBe('after')
  })
})

describe('reading the structure', () => {
  it('lists sections and site spaces in reading order', () => {
    expect(sectionsOf(withSections).map((s) => s.id)).toEqual(['b', 'c', 'a'])
    expect(siteSpacesOf(withSections).map((s) => s.id)).toEqual(['b1', 'b2', 'a1'])
    expect(siteSpacesOf(atRoot).map((s) => s.id)).toEqual(['x', 'y', 'z'])
  })

  it('sets a default on the section, or on the site at the root', () => {
    expect(defaultTarget({ id: 'b1', section: 'b' })).toEqual({ section: 'b' })
    expect(defaultTarget({ id: 'x' })).toEqual({ site: true })
  })

  it('shows the proxy as it was typed', () => {
    expect(proxyInput({ origin: 'https://example.com/docs' })).toBe('example.com/docs')
    expect(proxyInput(undefined)).toBe('')
  })
})
