import { pathToFileURL } from 'node:url'
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { gitbookDocsRepo } from '../../../git/testing/gitbookDocs'
import { removeTempDirs } from '../../../git/testing/repos'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { DOWNLOAD_TOKEN_WINDOW_MS } from '../../downloads'
import { applyBatch, createSpace, download, makePng, openChangeRequest, seedContent, withoutToken } from '../files/fixtures'
import { findPage, newSpace, pagesOf, sync } from '../git/fixtures'

let t: TestServer
let spaceId: string
let ids: Record<string, string>

/** The text of every page of a PDF, as a reader (or pdftotext) extracts it: one string per sheet. */
async function pdfText(bytes: Buffer): Promise<string[]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise
  const sheets: string[] = []
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent()
    sheets.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''))
  }
  await pdf.destroy()
  return sheets
}

/** How many images each sheet of a PDF paints. */
async function pdfImageCounts(bytes: Buffer): Promise<number[]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise
  const counts: number[] = []
  for (let i = 1; i <= pdf.numPages; i++)
    counts.push((await (await pdf.getPage(i)).getOperatorList()).fnArray.filter((fn) => fn === OPS.paintImageXObject).length)
  await pdf.destroy()
  return counts
}

const GUIDE = `# Guide

Start with **bold** words and a [link](https://example.com).

## Steps

- Download the app
- Open a _workspace_

1. First
2. Second

\`\`\`sh
quire serve --port 4100
\`\`\`

> Quoted advice

| Plan | Seats |
| --- | --- |
| Free | 3 |
`

beforeEach(async () => {
  t = await startTestServer()
  spaceId = await createSpace(t, 'Handbook')
  await seedContent(t, spaceId, [
    { operation: 'insert_page', ref: 'guide', document: { markdown: GUIDE } },
    { operation: 'insert_page', into: 'guide', title: 'Setup', document: { markdown: 'Install the package first.\n' } },
    { operation: 'insert_page', title: 'Reference', document: { markdown: 'Every option explained.\n' } }
  ])
  const pages = (await t.owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages
  ids = { guide: pages[0].id, setup: pages[0].pages[0].id, reference: pages[1].id }
}, 30_000)
afterEach(() => t.close())

const pdfPath = (cr?: string) => (cr ? `/v1/spaces/${spaceId}/change-requests/${cr}/pdf` : `/v1/spaces/${spaceId}/pdf`)

describe('PDF: validation and authorization', () => {
  it('answers 401, 404 and 400 on the operation', async () => {
    expect((await t.anonymous.get(pdfPath())).status).toBe(401)
    const stranger = await t.user({ role: 'none' })
    expect((await stranger.api.get(pdfPath())).status).toBe(404)
    expect((await t.owner.api.get('/v1/spaces/nope/pdf')).status).toBe(404)
    expect((await t.owner.api.get(pdfPath('7'))).status).toBe(404)
    expect((await t.owner.api.get(pdfPath(), { page: 'nope' })).status).toBe(404)
    expect((await t.owner.api.get(pdfPath(), { only: true })).body.error).toEqual({
      code: 400,
      message: 'page: is required when only is true'
    })
    expect((await t.owner.api.get(pdfPath(), { only: 'maybe', page: ids.guide })).body.error.message).toBe('only: must be boolean')
  })

  it('serves the PDF only to callers who may read the space', async () => {
    const reader = await t.user({ role: 'read' })
    const { url } = (await reader.api.get(pdfPath())).body
    expect(url).toMatch(new RegExp(`^${t.url}/pdf/${spaceId}/[\\w-]+/handbook\\.pdf\\?token=`))
    expect((await download(url)).status).toBe(200)
    expect((await download(withoutToken(url))).status).toBe(401)
    expect((await download(withoutToken(url), reader.token)).status).toBe(200)
    const stranger = await t.user({ role: 'none' })
    expect((await download(withoutToken(url), stranger.token)).status).toBe(404)
    expect((await download(url.replace(`/pdf/${spaceId}/`, '/pdf/nope/'))).status).toBe(401)
    expect((await download(withoutToken(url).replace(`/pdf/${spaceId}/`, '/pdf/nope/'), t.owner.token)).status).toBe(404)
    const unknownPage = new URL(url)
    unknownPage.searchParams.set('page', 'nope')
    expect((await download(unknownPage.toString())).status).toBe(404)
    t.clock.advance(2 * DOWNLOAD_TOKEN_WINDOW_MS)
    expect((await download(url)).status).toBe(401)
  })
})

describe('PDF', () => {
  it('renders the whole space: every page in tree order with its title and text', async () => {
    const res = await t.owner.api.get(pdfPath())
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['url'])
    const pdf = await download(res.body.url)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.headers.get('content-disposition')).toMatch(/^inline; filename="Handbook\.pdf"/)
    expect(pdf.headers.get('x-content-type-options')).toBe('nosniff')
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-')

    const sheets = await pdfText(pdf.bytes)
    expect(sheets).toHaveLength(3)
    const text = sheets.join('\n')
    for (const title of ['Guide', 'Setup', 'Reference']) expect(text).toContain(title)
    expect(text.indexOf('Guide')).toBeLessThan(text.indexOf('Setup'))
    expect(text.indexOf('Setup')).toBeLessThan(text.indexOf('Reference'))
    expect(sheets[0]).toMatch(/^Guide\n/)
    // The title heading is not repeated from the document's own `# Guide`.
    expect(sheets[0].match(/Guide/g)).toHaveLength(1)
    for (const body of [
      'Start with bold words and a link',
      'Steps',
      'Download the app',
      'Open a workspace',
      'quire serve --port 4100',
      'Quoted advice',
      'Free',
      'Seats'
    ]) {
      expect(sheets[0].replace(/\s+/g, ' ')).toContain(body)
    }
    expect(sheets[1]).toContain('Install the package first.')
    expect(sheets[2]).toContain('Every option explained.')

    // Same revision, same bytes: revalidation answers 304.
    expect((await download(res.body.url, undefined, { 'if-none-match': pdf.headers.get('etag')! })).status).toBe(304)
  })

  it("renders GitBook's block tags: a hint with its label, tab titles, an included reusable content", async () => {
    const repo = await gitbookDocsRepo('# Support notice\n\nWrite to help@example.com.\n', ['{% include "../.gitbook/includes/gone.md" %}'])
    try {
      const gitSpace = await newSpace(t)
      expect((await sync(t.owner.api, gitSpace, 'import', { url: pathToFileURL(repo).href, ref: 'refs/heads/main' })).status).toBe(
        'succeeded'
      )
      const page = findPage(await pagesOf(t.owner.api, gitSpace), 'Setup')
      const { url } = (await t.owner.api.get(`/v1/spaces/${gitSpace}/pdf`, { page: page.id, only: true })).body
      const text = (await pdfText((await download(url)).bytes)).join('\n').replace(/\s+/g, ' ')
      expect(text).toContain('Warning Back up your data first.')
      expect(text).toContain('macOS Open the disk image. Linux Unpack the archive.')
      expect(text).toContain('Write to help@example.com.')
      expect(text).toContain('Reusable content not found: ../.gitbook/includes/gone.md')
      expect(text).not.toContain('{%')
    } finally {
      await removeTempDirs()
    }
  }, 60_000)

  it('prints the pictures a paragraph holds alone, and an image among words or not found as its text', async () => {
    const cr = await openChangeRequest(t.owner.api, spaceId)
    await applyBatch(t.owner.api, spaceId, cr.id, [
      { operation: 'insert_files', files: [{ name: 'diagram.png', base64: makePng(40, 20).toString('base64'), ref: 'diagram' }] },
      {
        operation: 'insert_page',
        title: 'Pictures',
        document: {
          markdown:
            '# Pictures\n\n![Diagram](/files/diagram)\n\n![Again](../.gitbook/assets/diagram.png)\n\nInline ![icon](/files/diagram) here.\n\n![Gone](/files/nope)\n'
        }
      }
    ])
    const bytes = (await download((await t.owner.api.get(pdfPath(String(cr.number)))).body.url)).bytes
    const sheets = await pdfText(bytes)
    const at = sheets.findIndex((sheet) => sheet.startsWith('Pictures'))
    expect((await pdfImageCounts(bytes))[at]).toBe(2)
    const text = sheets[at]!.replace(/\s+/g, ' ')
    expect(text).toContain('Inline [image: icon] here.')
    expect(text).toContain('[image: Gone]')
    expect(text).not.toContain('[image: Diagram]')
    // The other pages have no pictures.
    expect((await pdfImageCounts(bytes)).reduce((a, b) => a + b)).toBe(2)
  })

  it('prints Latin, Greek, Cyrillic and CJK text in embedded font subsets, and a file block by its name', async () => {
    const markdown = [
      '## Größe 文档',
      '',
      'Ελληνικά κείμενα και Кириллица: Привет, мир. 这是一个文档系统。東京のラーメン屋。한국어 문서를 작성합니다.',
      '',
      '**粗体中文** and _Ελληνικά_ in `code 代码`',
      '',
      '{% file src="/files/report" %}',
      'The quarterly report.',
      '{% endfile %}',
      ''
    ].join('\n')
    await seedContent(t, spaceId, [
      {
        operation: 'insert_files',
        files: [
          {
            ref: 'report',
            name: 'Quartalsbericht 报告.pdf',
            contentType: 'application/pdf',
            base64: Buffer.from('%PDF-1.4').toString('base64')
          }
        ]
      },
      { operation: 'insert_page', title: 'Größe 文档', document: { markdown } }
    ])
    const page = (await t.owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages.find((p: any) => p.title === 'Größe 文档')
    const [file] = (await t.owner.api.get(`/v1/spaces/${spaceId}/content/files`)).body.items
    const res = await t.owner.api.get(pdfPath(), { page: page.id })
    expect(res.status).toBe(200)
    // The link names the PDF by the page's slug, percent-encoded.
    expect(new URL(res.body.url).pathname.endsWith(`/${encodeURIComponent('größe-文档.pdf')}`)).toBe(true)
    const pdf = await download(res.body.url)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('Größe 文档.pdf')}`)
    const text = (await pdfText(pdf.bytes)).join('\n').replace(/\s+/g, ' ')
    for (const words of [
      'Größe 文档',
      'Ελληνικά κείμενα',
      'Привет, мир',
      '这是一个文档系统',
      '東京のラーメン屋',
      '한국어 문서를',
      '粗体中文',
      'code 代码',
      'Quartalsbericht 报告.pdf',
      'The quarterly report.'
    ]) {
      expect(text, words).toContain(words)
    }
    expect(text).not.toContain('?')
    expect(text).not.toContain(file.id)
    // Subsets: each font's name carries a subset tag, and the file holds kilobytes of fonts, not megabytes.
    const fonts = [...pdf.bytes.toString('latin1').matchAll(/\/BaseFont \/([A-Z]{6}\+[\w-]+)/g)].map((m) => m[1]!.slice(7))
    expect(new Set(fonts)).toEqual(
      new Set(['NotoSans-Regular', 'NotoSans-Bold', 'NotoSans-Italic', 'NotoSansHans-Regular', 'NotoSansHans-Bold', 'NotoSansKR-Regular'])
    )
    expect(pdf.bytes.length).toBeLessThan(250_000)
  })

  it('renders one page, with or without the pages under it', async () => {
    const only = await t.owner.api.get(pdfPath(), { page: ids.guide, only: true })
    expect(only.body.url).toContain('/guide.pdf?')
    const onlyText = (await pdfText((await download(only.body.url)).bytes)).join('\n')
    expect(onlyText).toContain('Guide')
    expect(onlyText).not.toContain('Setup')
    expect(onlyText).not.toContain('Reference')

    const subtree = await t.owner.api.get(pdfPath(), { page: ids.guide })
    const sheets = await pdfText((await download(subtree.body.url)).bytes)
    expect(sheets).toHaveLength(2)
    expect(sheets[1]).toContain('Setup')
    expect(sheets.join('\n')).not.toContain('Reference')
  })

  it("renders a change request's content, and the primary content is unaffected", async () => {
    const cr = await openChangeRequest(t.owner.api, spaceId)
    await applyBatch(t.owner.api, spaceId, cr.id, [
      { operation: 'update_page', page: ids.reference, title: 'API reference' },
      { operation: 'insert_page', title: 'Changelog', document: { markdown: 'Version 2 ships — with “quotes” and 中文.\n' } }
    ])
    const crPdf = await t.owner.api.get(pdfPath(String(cr.number)))
    expect(crPdf.status).toBe(200)
    const crText = (await pdfText((await download(crPdf.body.url)).bytes)).join('\n')
    expect(crText).toContain('API reference')
    expect(crText).toContain('Version 2 ships — with “quotes” and 中文.')

    const primaryText = (await pdfText((await download((await t.owner.api.get(pdfPath())).body.url)).bytes)).join('\n')
    expect(primaryText).not.toContain('Changelog')
    expect(primaryText).not.toContain('API reference')
  })
})
