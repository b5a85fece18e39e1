import { describe, expect, it } from 'vitest'
import type { ChangeRequestLink } from '../../api/types.ts'
import type { PageChange } from './changes.ts'
import { describeBrokenLink, links } from './mergeGuard.ts'

const link = (
  href: string,
  targetReference: ChangeRequestLink['targetReference'],
  page = 'p1',
  changeRequest: string | null = 'cr1'
): ChangeRequestLink => ({
  status: 'broken',
  relation: 'link',
  href,
  introduced: true,
  targetReference,
  locationReferences: [
    { kind: 'page', page, space: 's1', organization: 'o1', versionContext: { revision: 'r1', ...(changeRequest ? { changeRequest } : {}) } }
  ]
})
const side = (title: string, path: string) => ({ title, path, markdown: '' })
const changes: PageChange[] = [
  {
    type: 'page_deleted',
    page: { id: 'p9', type: 'document', title: 'Configure', path: 'guide/configure' },
    before: side('Configure', 'guide/configure')
  },
  {
    type: 'page_moved',
    page: { id: 'p8', type: 'document', title: 'Home', path: 'guide/home' },
    before: side('Home', 'home'),
    after: side('Home', 'guide/home')
  }
]
const pages = new Map([['p1', { title: 'Install', path: 'guide/install' }]])

describe('merge guard', () => {
  it('says a link breaks because the change request removes or moves the page it names', () => {
    expect(describeBrokenLink(link('./configure', { kind: 'page', path: 'guide/configure' }), changes, pages)).toEqual({
      key: 'p1 link ./configure',
      page: { id: 'p1', title: 'Install', path: 'guide/install', inChangeRequest: true },
      href: './configure',
      target: '/guide/configure',
      why: 'This change request removes “Configure”'
    })
    expect(describeBrokenLink(link('/pages/p9', { kind: 'page', page: 'p9' }), changes, pages).why).toBe(
      'This change request removes “Configure”'
    )
    expect(describeBrokenLink(link('../home', { kind: 'page', path: 'home' }), changes, pages).why).toBe(
      'This change request moves “Home” to /guide/home'
    )
  })

  it('says a new link leads nowhere as the links report does; a page only main has is read there', () => {
    expect(describeBrokenLink(link('./nowhere', { kind: 'page', path: 'guide/nowhere' }), changes, pages)).toMatchObject({
      target: '/guide/nowhere',
      why: 'No page at this path'
    })
    expect(describeBrokenLink(link('shot.png', { kind: 'file', name: 'shot.png' }), [], pages)).toMatchObject({
      target: 'shot.png',
      why: 'No such file in this space'
    })
    expect(describeBrokenLink(link('/home', { kind: 'page', path: 'home' }, 'p5', null), [], pages).page).toEqual({
      id: 'p5',
      title: 'Untitled page',
      path: undefined,
      inChangeRequest: false
    })
    expect([links(1), links(3)]).toEqual(['1 link', '3 links'])
  })
})
