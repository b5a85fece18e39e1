import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { DEFAULT_LAYOUT, PNG } from './fixtures'

// `GET …/change-requests/{id}/changes` and `GET …/revisions/{id}/changes` name a page's changes alike (the
// published semantic changes); a change request's also carry each side's text and the conflict marks.
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
async function merge(cr: string) {
  expect((await t.owner.api.post(crPath(cr, '/merge'))).body.result).toBe('merge')
}
const changesOf = async (cr: string, query?: Record<string, unknown>) => {
  const res = await t.owner.api.get(crPath(cr, '/changes'), query)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}
/** The changes of the primary content's current revision (a merge: against the primary content before it). */
const latestRevisionChanges = async () => {
  const revision = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.revision
  const res = await t.owner.api.get(`/v1/spaces/${spaceId}/revisions/${revision}/changes`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}

/** Seeds the primary content with pages; returns their ids by title. */
async function seed(pages: { title: string; markdown: string }[]) {
  const cr = await openCr()
  await batch(
    cr,
    pages.map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } }))
  )
  await merge(cr)
  const listed = (await t.owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as { id: string; title: string }[]
  return Object.fromEntries(listed.map((p) => [p.title, p.id]))
}

describe('GET …/change-requests/{id}/changes', () => {
  it('names created, edited, moved and deleted pages as a revision does, with each side’s text', async () => {
    const ids = await seed([
      { title: 'A', markdown: 'alpha\n' },
      { title: 'B', markdown: 'beta\n' },
      { title: 'C', markdown: 'gamma\n' }
    ])
    const cr = await openCr()
    await batch(cr, [
      { operation: 'insert_page', title: 'D', document: { markdown: 'delta\n' } },
      { operation: 'delete_page', page: ids.C },
      { operation: 'update_page', page: ids.A, document: { markdown: 'alpha 2\n' } },
      { operation: 'update_page', page: ids.B, into: ids.A }
    ])
    const { changes, more } = await changesOf(cr)
    expect(more).toBeUndefined()
    const byType = Object.fromEntries(changes.map((c: any) => [c.type, c]))
    expect(Object.keys(byType).sort()).toEqual(['page_created', 'page_deleted', 'page_edited', 'page_moved'])
    expect(byType.page_created).toEqual({
      type: 'page_created',
      page: { id: expect.any(String), type: 'document', title: 'D', path: 'd' },
      after: { title: 'D', path: 'd', markdown: 'delta\n' }
    })
    expect(byType.page_deleted).toEqual({
      type: 'page_deleted',
      page: { id: ids.C, type: 'document', title: 'C', path: 'c' },
      before: { title: 'C', path: 'c', markdown: 'gamma\n' }
    })
    expect(byType.page_edited).toMatchObject({
      page: { id: ids.A, type: 'document', title: 'A', path: 'a' },
      attributes: {
        document: { before: expect.any(String), after: expect.any(String), hunks: [{ lines: ['-alpha', '+alpha 2'] }] }
      },
      before: { markdown: 'alpha\n' },
      after: { markdown: 'alpha 2\n' }
    })
    expect(Object.keys(byType.page_edited.attributes)).toEqual(['document'])
    expect(byType.page_moved).toMatchObject({
      page: { id: ids.B, path: 'a/b' },
      parent: { after: { id: ids.A, type: 'document', title: 'A', path: 'a' } },
      path: { before: 'b', after: 'a/b' },
      before: { path: 'b' },
      after: { path: 'a/b' }
    })
    expect(byType.page_moved.parent.before).toBeUndefined()

    // The same changes, merged, are the merge revision's.
    await merge(cr)
    const merged = (await latestRevisionChanges()).changes
    expect(merged.map((c: any) => [c.type, c.page.id, c.attributes])).toEqual(changes.map((c: any) => [c.type, c.page.id, c.attributes]))
  })

  it('answers at most `limit` changes and says how many more there are', async () => {
    const cr = await openCr()
    await batch(
      cr,
      ['One', 'Two', 'Three'].map((title) => ({ operation: 'insert_page', title, document: { markdown: title } }))
    )
    expect((await changesOf(cr)).changes).toHaveLength(3)
    const limited = await changesOf(cr, { limit: 2 })
    expect(limited.changes.map((c: any) => c.page.title)).toEqual(['One', 'Two'])
    expect(limited.more).toBe(1)
    expect((await changesOf(cr, { limit: 3 })).more).toBeUndefined()
    for (const limit of [0, 'many', 10_001]) expect((await t.owner.api.get(crPath(cr, '/changes'), { limit })).status).toBe(400)
  })
})

describe('settings edits in changes', () => {
  it('a settings-only edit names the settings it changed, and no text', async () => {
    const ids = await seed([{ title: 'Guide', markdown: '# Guide\n\nText.\n' }])
    const cr = await openCr()
    await batch(cr, [
      { operation: 'insert_files', files: [{ ref: 'banner', name: 'banner.png', contentType: 'image/png', base64: PNG }] },
      {
        operation: 'update_page',
        page: ids.Guide,
        emoji: '1f4d8',
        document: {
          markdown:
            '---\ndescription: Start here\ncover: /files/banner\ncoverY: 30\nlayout:\n  width: wide\n  tableOfContents:\n    visible: false\nnoIndex: true\n---\n# Guide\n\nText.\n'
        }
      }
    ])
    const fileId = (await t.owner.api.get(crPath(cr, '/content/files'))).body.items[0].id
    const expected = {
      emoji: { after: '1f4d8' },
      description: { after: 'Start here' },
      layout: { before: DEFAULT_LAYOUT, after: { ...DEFAULT_LAYOUT, width: 'wide', tableOfContents: false } },
      cover: { after: { ref: { kind: 'file', file: fileId }, yPos: 30 } },
      noIndex: { before: false, after: true }
    }
    const { changes } = await changesOf(cr)
    expect(changes.map((c: any) => c.type)).toEqual(['page_edited'])
    expect(changes[0].attributes).toEqual(expected)

    await merge(cr)
    const merged = (await latestRevisionChanges()).changes
    expect(merged.map((c: any) => c.type)).toEqual(['page_edited', 'file_created'])
    expect(merged[0].attributes).toEqual(expected)
  })

  it('an edit of the emoji or visibility alone is listed too', async () => {
    const ids = await seed([{ title: 'Guide', markdown: 'Text.\n' }])
    const cr = await openCr()
    await batch(cr, [{ operation: 'update_page', page: ids.Guide, hidden: true }])
    const { changes } = await changesOf(cr)
    expect(changes.map((c: any) => [c.type, c.attributes])).toEqual([['page_edited', { hidden: { before: false, after: true } }]])
  })

  it('a text and settings edit names both: the text with its line changes, and the settings', async () => {
    const ids = await seed([{ title: 'Guide', markdown: '# Guide\n\nText.\n' }])
    const cr = await openCr()
    const markdown = '---\nhidden: true\nlayout:\n  title:\n    visible: false\n---\n# Guide\n\nNew text.\n'
    await batch(cr, [{ operation: 'update_page', page: ids.Guide, document: { markdown } }])
    const { changes } = await changesOf(cr)
    expect(changes.map((c: any) => c.type)).toEqual(['page_edited'])
    const { document, ...settings } = changes[0].attributes
    expect(settings).toEqual({
      hidden: { before: false, after: true },
      layout: { before: DEFAULT_LAYOUT, after: { ...DEFAULT_LAYOUT, title: false } }
    })
    expect(document.hunks.flatMap((h: any) => h.lines.filter((l: string) => !l.startsWith(' ')))).toContain('+New text.')
    expect(changes[0].after.markdown).toBe(markdown)

    await merge(cr)
    const merged = (await latestRevisionChanges()).changes
    expect(merged.map((c: any) => [c.type, Object.keys(c.attributes).sort()])).toEqual([['page_edited', ['document', 'hidden', 'layout']]])
  })

  it('a front matter that sets nothing shown still lists the changed text', async () => {
    const ids = await seed([{ title: 'Guide', markdown: 'Text.\n' }])
    const cr = await openCr()
    await batch(cr, [{ operation: 'update_page', page: ids.Guide, document: { markdown: '---\nauthor: someone\n---\nText.\n' } }])
    const { changes } = await changesOf(cr)
    expect(changes.map((c: any) => [c.type, Object.keys(c.attributes)])).toEqual([['page_edited', ['document']]])
  })
})
