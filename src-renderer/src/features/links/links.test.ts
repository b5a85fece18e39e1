import { describe, expect, it } from 'vitest'
import type { ContentLink } from '../../api/types.ts'
import { describeTarget, parseLinkSearch } from './links.ts'

const link = (status: ContentLink['status'], targetReference: ContentLink['targetReference'], href = 'x'): ContentLink => ({
  status,
  relation: 'link',
  href,
  targetReference,
  locationReferences: [{ kind: 'page', page: 'p1', space: 's1', organization: 'o1', versionContext: { revision: 'r1' } }]
})

describe('links report', () => {
  it('reads the status filter from the address, anything else meaning every link', () => {
    expect(parseLinkSearch({ status: 'broken' })).toEqual({ status: 'broken' })
    expect(parseLinkSearch({ status: 'in-app' })).toEqual({ status: 'in-app' })
    expect(parseLinkSearch({ status: 'all' })).toEqual({})
    expect(parseLinkSearch({ status: 'nope' })).toEqual({})
    expect(parseLinkSearch({ status: 3 })).toEqual({})
  })

  it('names what a link points at, and why a broken one leads nowhere', () => {
    const titles = new Map([['p2', 'Install']])
    const files = new Map([['f1', 'shot.png']])
    expect(describeTarget(link('ok', { kind: 'page', page: 'p2' }, './install'), titles, files)).toEqual({ label: 'Install', pageId: 'p2' })
    expect(describeTarget(link('broken', { kind: 'page', path: 'guide/missing' }, '../missing'), titles, files)).toEqual({
      label: '/guide/missing',
      note: 'No page at this path'
    })
    expect(describeTarget(link('broken', { kind: 'page', page: 'gone' }, '/pages/gone'), titles, files)).toEqual({
      label: 'gone',
      note: 'No page with this id'
    })
    expect(describeTarget(link('ok', { kind: 'file', file: 'f1' }, '/files/f1'), titles, files)).toEqual({ label: 'shot.png' })
    expect(describeTarget(link('broken', { kind: 'file', name: 'old.pdf' }, 'old.pdf'), titles, files)).toEqual({
      label: 'old.pdf',
      note: 'No such file in this space'
    })
    expect(describeTarget(link('ok', { kind: 'url', url: 'https://example.com' }), titles, files)).toEqual({
      label: 'https://example.com',
      note: undefined
    })
    expect(describeTarget(link('in-app', { kind: 'url', url: 'http://127.0.0.1/#/spaces/s' }), titles, files).note).toMatch(
      /link the page instead/
    )
  })
})
