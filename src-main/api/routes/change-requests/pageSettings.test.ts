// Page settings written in a document's front matter (layout, cover, icon, noIndex...), as the Page of the API
// shows them: set by the content batch, kept through a merge, back to the defaults when the front matter goes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/harness'

let t: TestServer
let spaceId: string
beforeEach(async () => {
  t = await startTestServer()
  spaceId = await t.emptySpace()
})
afterEach(() => t.close())

const crPath = (cr: string, rest = '') => `/v1/spaces/${spaceId}/change-requests/${cr}${rest}`
const openCr = async () => (await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' })).body.id as string
async function batch(cr: string, changes: unknown[]) {
  const res = await t.owner.api.post(crPath(cr, '/content'), { changes })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}
const pageIn = async (cr: string, pageId: string) => (await t.owner.api.get(crPath(cr, `/content/page/${pageId}`))).body
const pagesIn = async (cr: string) => (await t.owner.api.get(crPath(cr, '/content/pages'))).body.pages as any[]

const DEFAULT_LAYOUT = { cover: true, coverSize: 'full', title: true, description: true, tableOfContents: true, outline: true, pagination: true }
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
const SETTINGS = [
  '---',
  'description: Start here',
  'icon: rocket',
  'cover: /files/banner',
  'coverY: 30',
  'layout:',
  '  cover:',
  '    size: hero',
  '  title:',
  '    visible: false',
  '  tableOfContents:',
  '    visible: false',
  'hidden: true',
  'noIndex: true',
  '---',
  '',
  '# Welcome',
  ''
].join('\n')

describe('page settings in front matter', () => {
  it('sets layout, cover, icon, description, hidden and noIndex; a page without front matter has the defaults', async () => {
    const cr = await openCr()
    await batch(cr, [
      { operation: 'insert_files', files: [{ ref: 'banner', name: 'banner.png', contentType: 'image/png', base64: PNG }] },
      { operation: 'insert_page', document: { markdown: SETTINGS }, ref: 'welcome' },
      { operation: 'insert_page', title: 'Plain', document: { markdown: 'Text.' } }
    ])
    const tree = await pagesIn(cr)
    const fileId = (await t.owner.api.get(crPath(cr, '/content/files'))).body.items[0].id
    const [welcome, plain] = tree
    expect(welcome).toMatchObject({
      title: 'Welcome',
      description: 'Start here',
      icon: 'rocket',
      hidden: true,
      noIndex: true,
      noRobotsIndex: false,
      layout: { ...DEFAULT_LAYOUT, coverSize: 'hero', title: false, tableOfContents: false },
      cover: { ref: { kind: 'file', file: fileId }, yPos: 30 }
    })
    expect(plain).toMatchObject({ title: 'Plain', hidden: false, noIndex: false, noRobotsIndex: false, layout: DEFAULT_LAYOUT })
    expect(plain.cover).toBeUndefined()
    expect(plain.icon).toBeUndefined()
    // The single page answers what the tree answers.
    const { markdown, ...alone } = await pageIn(cr, welcome.id)
    expect(alone).toEqual(welcome)
    // The batch's file ref became the file's id, in the front matter as in any link.
    expect(markdown).toBe(SETTINGS.replace('/files/banner', `/files/${fileId}`))
  })

  it('follows the new document: settings it no longer has go back to the defaults; what it is silent on stays', async () => {
    const cr = await openCr()
    await batch(cr, [
      { operation: 'insert_files', files: [{ ref: 'banner', name: 'banner.png', contentType: 'image/png', base64: PNG }] },
      { operation: 'insert_page', document: { markdown: SETTINGS } }
    ])
    const [page] = await pagesIn(cr)
    await batch(cr, [{ operation: 'update_page', page: page.id, document: { markdown: '# Welcome\n\nNo settings now.\n' } }])
    const after = await pageIn(cr, page.id)
    expect(after).toMatchObject({ layout: DEFAULT_LAYOUT, noIndex: false, description: 'Start here', hidden: true })
    expect(after.cover).toBeUndefined()
    expect(after.icon).toBeUndefined()

    // An explicit field of the batch wins over the front matter of the same change.
    await batch(cr, [{ operation: 'update_page', page: page.id, description: 'Explicit', hidden: false, document: { markdown: '---\ndescription: From the file\nhidden: true\n---\n# Welcome\n' } }])
    expect(await pageIn(cr, page.id)).toMatchObject({ description: 'Explicit', hidden: false })
  })

  it('shows a cover once a file it names is in the content', async () => {
    const cr = await openCr()
    await batch(cr, [{ operation: 'insert_page', title: 'Cover', document: { markdown: '---\ncover: assets/later.png\n---\nText.\n' } }])
    const [page] = await pagesIn(cr)
    expect(page.cover).toBeUndefined()
    await batch(cr, [{ operation: 'insert_files', files: [{ name: 'later.png', contentType: 'image/png', base64: PNG }] }])
    const fileId = (await t.owner.api.get(crPath(cr, '/content/files'))).body.items[0].id
    expect((await pageIn(cr, page.id)).cover).toEqual({ ref: { kind: 'file', file: fileId }, yPos: 0 })
  })

  it('merges two settings and a body edit of one page made in two change requests: the merged page has all', async () => {
    const base = '---\ndescription: D\nicon: book\n---\n\n# Guide\n\nline one\nline two\nline three\nline four\n'
    const seed = await openCr()
    await batch(seed, [{ operation: 'insert_page', document: { markdown: base } }])
    expect((await t.owner.api.post(crPath(seed, '/merge'))).body.result).toBe('merge')
    const pageId = (await t.owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages[0].id

    const layoutCr = await openCr()
    const bodyCr = await openCr()
    await batch(layoutCr, [{ operation: 'update_page', page: pageId, document: { markdown: base.replace('icon: book\n', 'icon: book\nlayout:\n  outline:\n    visible: false\n') } }])
    const edited = base.replace('line four', 'line four, edited').replace('description: D', 'noIndex: true\ndescription: D')
    await batch(bodyCr, [{ operation: 'update_page', page: pageId, document: { markdown: edited } }])
    expect((await t.owner.api.post(crPath(layoutCr, '/merge'))).body.result).toBe('merge')
    expect((await t.owner.api.post(crPath(bodyCr, '/merge'))).body.result).toBe('merge')

    const merged = (await t.owner.api.get(`/v1/spaces/${spaceId}/content/page/${pageId}`)).body
    expect(merged.markdown).toContain('line four, edited')
    expect(merged.layout).toEqual({ ...DEFAULT_LAYOUT, outline: false })
    // Each side set one setting: the merged front matter holds both, and so does the page.
    expect(merged).toMatchObject({ description: 'D', icon: 'book', noIndex: true })
  })
})
