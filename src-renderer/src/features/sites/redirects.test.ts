import { describe, expect, it } from 'vitest'
import type { ContentPage, PublishedSite } from '../../api/types.ts'
import { batches, parseRedirectCsv, redirectsToCsv, redirectWarnings, sitePaths, type SitePaths } from './redirects.ts'

const page = (id: string, path: string, extra: Partial<ContentPage> = {}): ContentPage =>
  ({ id, path, title: id, type: 'document', hidden: false, pages: [], ...extra }) as unknown as ContentPage

/** A site with a section "docs" showing the space "guides" (pages intro, install, install/linux, a hidden one). */
function paths(): SitePaths {
  const structure = {
    type: 'sections',
    structure: [
      {
        object: 'site-section',
        id: 'sec',
        path: 'docs',
        title: 'Docs',
        default: true,
        urls: {},
        siteSpaces: [{ object: 'site-space', id: 'ss', path: 'guides', title: 'Guides', section: 'sec', space: { id: 'space' } }]
      }
    ]
  } as unknown as PublishedSite['structure']
  const pages = [
    page('intro', 'intro'),
    page('install', 'install', { pages: [page('linux', 'install/linux')] }),
    page('secret', 'secret', { hidden: true })
  ]
  return sitePaths(structure, new Map([['space', pages]]))
}

describe('parseRedirectCsv', () => {
  it('reads rows, with or without a header, quoted fields, CRLF and a BOM', () => {
    const csv = '\uFEFFsource,destination\r\n/old,/docs/guides/install\r\n"/a%20b","https://example.com/x?a=1,2"\r\n\r\n/g*, /docs\n'
    expect(parseRedirectCsv(csv, paths())).toEqual({
      rows: [
        { line: 2, source: '/old', destination: { kind: 'site-page', siteSpaceId: 'ss', pageId: 'install' } },
        { line: 3, source: '/a%20b', destination: { kind: 'external', url: 'https://example.com/x?a=1,2' } },
        { line: 5, source: '/g*', destination: { kind: 'site-section', siteSectionId: 'sec' } }
      ],
      errors: []
    })
    expect(parseRedirectCsv('/x,/docs/guides/install/linux/', paths()).rows[0]!.destination).toEqual({
      kind: 'site-page',
      siteSpaceId: 'ss',
      pageId: 'linux'
    })
  })

  it('names the line of every bad row', () => {
    const csv = [
      '/ok,/docs/guides',
      'no-slash,/docs',
      '/two,/docs',
      '/two,/docs',
      '/gone,/docs/guides/nope',
      '/ftp,ftp://example.com',
      '/c,/docs,extra',
      '/hidden,/docs/guides/secret',
      '"/multi',
      'line",/docs'
    ].join('\n')
    const { rows, errors } = parseRedirectCsv(csv, paths())
    expect(rows.map((r) => r.source)).toEqual(['/ok', '/two'])
    expect(errors).toEqual([
      { line: 2, message: expect.stringContaining('the source must be a path like /old/page') },
      { line: 4, message: '/two is already on line 3' },
      { line: 5, message: 'no page, site space or section at /docs/guides/nope in this site' },
      { line: 6, message: 'the destination must be an http(s) URL or a path of the site starting with /' },
      { line: 7, message: 'expected 2 columns (source,destination), found 3' },
      { line: 8, message: 'no page, site space or section at /docs/guides/secret in this site' },
      { line: 9, message: expect.stringContaining('the source must be a path') }
    ])
  })

  it('reads back what the export writes', () => {
    const redirects = [
      { source: '/a', destination: { kind: 'site-page' as const, siteSpaceId: 'ss', pageId: 'intro' } },
      { source: '/b', destination: { kind: 'external' as const, url: 'https://example.com/?q="x",y' } }
    ]
    const csv = redirectsToCsv(redirects, paths())
    expect(csv).toBe('source,destination\r\n/a,/docs/guides/intro\r\n/b,"https://example.com/?q=""x"",y"\r\n')
    expect(parseRedirectCsv(csv, paths()).rows.map(({ source, destination }) => ({ source, destination }))).toEqual(redirects)
  })
})

describe('redirectWarnings', () => {
  it('flags a destination that is gone and a source that is a live page', () => {
    expect(redirectWarnings({ source: '/docs/guides/intro', destination: { kind: 'external', url: 'https://x.org' } }, paths())).toEqual({
      missingDestination: false,
      shadowsPage: true
    })
    expect(redirectWarnings({ source: '/old', destination: { kind: 'site-page', siteSpaceId: 'ss', pageId: 'deleted' } }, paths())).toEqual(
      { missingDestination: true, shadowsPage: false }
    )
    expect(redirectWarnings({ source: '/docs/guides*', destination: { kind: 'site-space', siteSpaceId: 'ss' } }, paths())).toEqual({
      missingDestination: false,
      shadowsPage: false
    })
  })
})

it('batches rows by 500', () => {
  expect(batches(Array.from({ length: 1201 }, (_, i) => i)).map((b) => b.length)).toEqual([500, 500, 201])
})
