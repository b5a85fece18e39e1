import { describe, expect, it } from 'vitest'
import { pageLinkContext, resolvePageLink, type PageLinkContext } from './pageLinks.ts'

// guide (has children) › install, configure; faq
const idsByPath = new Map([
  ['guide', 'g'],
  ['guide/install', 'i'],
  ['guide/configure', 'c'],
  ['faq', 'f']
])
const from = (fromPath: string, fromHasChildren = false): PageLinkContext => ({
  idsByPath,
  pageIds: new Set(idsByPath.values()),
  fromPath,
  fromHasChildren
})

describe('links between pages in the preview', () => {
  it('finds the page an absolute or relative path names, as the server resolves it', () => {
    expect(resolvePageLink('/guide/install', from('faq'))).toEqual({ pageId: 'i' })
    expect(resolvePageLink('./configure', from('guide/install'))).toEqual({ pageId: 'c' })
    expect(resolvePageLink('../faq.md', from('guide/install'))).toEqual({ pageId: 'f' })
    // A page with children is its folder's README: its relative links start inside it.
    expect(resolvePageLink('install', from('guide', true))).toEqual({ pageId: 'i' })
    expect(resolvePageLink('guide/README.md', from('faq'))).toEqual({ pageId: 'g' })
    expect(resolvePageLink('/pages/c', from('faq'))).toEqual({ pageId: 'c' })
  })

  it('keeps the heading a link points at', () => {
    expect(resolvePageLink('/guide/install#first-steps', from('faq'))).toEqual({ pageId: 'i', section: 'first-steps' })
    expect(resolvePageLink('./configure?x=1#a%20b', from('guide/install'))).toEqual({ pageId: 'c', section: 'a b' })
  })

  it('says which path no page has, and leaves URLs, anchors and files alone', () => {
    expect(resolvePageLink('./missing', from('guide/install'))).toEqual({ missing: './missing' })
    expect(resolvePageLink('../../above', from('faq'))).toEqual({ missing: '../../above' })
    expect(resolvePageLink('https://example.com/guide', from('faq'))).toBeUndefined()
    expect(resolvePageLink('mailto:a@b.c', from('faq'))).toBeUndefined()
    expect(resolvePageLink('//cdn.example.com/x', from('faq'))).toBeUndefined()
    expect(resolvePageLink('#steps', from('faq'))).toBeUndefined()
    expect(resolvePageLink('/files/f1', from('faq'))).toBeUndefined()
    expect(resolvePageLink('diagram.png', from('faq'))).toBeUndefined()
  })

  it('reads the context from the page tree', () => {
    const tree = [
      { id: 'g', path: 'guide', pages: [{ id: 'i', path: 'guide/install', pages: [] }] },
      { id: 'f', path: 'faq', pages: [] }
    ]
    expect(pageLinkContext(tree, 'g')).toEqual({
      idsByPath: new Map([
        ['guide', 'g'],
        ['guide/install', 'i'],
        ['faq', 'f']
      ]),
      pageIds: new Set(['g', 'i', 'f']),
      fromPath: 'guide',
      fromHasChildren: true
    })
    expect(pageLinkContext(tree, 'i')).toMatchObject({ fromPath: 'guide/install', fromHasChildren: false })
  })
})
