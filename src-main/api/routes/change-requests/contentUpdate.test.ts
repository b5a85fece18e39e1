// A content batch's answer: the change request (the default, `compat=true`) or, with `compat=false`, the published
// ContentUpdate: the change request with the pages the batch created, updated and deleted and the files it inserted.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/harness'

let t: TestServer
let spaceId: string
let crId: string
beforeEach(async () => {
  t = await startTestServer()
  spaceId = await t.emptySpace()
  crId = (await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' })).body.id
})
afterEach(() => t.close())

const contentPath = (query = '') => `/v1/spaces/${spaceId}/change-requests/${crId}/content${query}`
const insert = (title: string, markdown: string, extra: Record<string, unknown> = {}) => ({
  operation: 'insert_page',
  title,
  document: { markdown },
  ...extra
})
const pagesByTitle = async () => {
  const ids: Record<string, string> = {}
  const res = await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${crId}/content/pages`)
  const visit = (pages: any[]) => pages.forEach((p) => ((ids[p.title] = p.id), visit(p.pages)))
  visit(res.body.pages)
  return ids
}

describe('POST …/change-requests/{id}/content?compat=', () => {
  it('answers the change request by default and with compat=true', async () => {
    for (const query of ['', '?compat=true']) {
      const res = await t.owner.api.post(contentPath(query), { changes: [insert(`Page ${query}`, 'Text.\n')] })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ object: 'change-request', id: crId })
      expect(res.body.changes).toBeUndefined()
    }
  })

  it('with compat=false, answers the change request and each affected page once, in the order first named', async () => {
    const seeded = await t.owner.api.post(contentPath(), { changes: [insert('Old', 'Old text.\n'), insert('Gone', 'Bye.\n')] })
    expect(seeded.status).toBe(200)
    const { Old: old, Gone: gone } = await pagesByTitle()

    const res = await t.owner.api.post(contentPath('?compat=false'), {
      changes: [
        insert('Guide', '# Guide\n\nHello.\n', { ref: 'guide' }),
        { operation: 'update_page', page: old, document: { markdown: 'New text.\n' } },
        { operation: 'delete_page', page: gone },
        { operation: 'update_page', page: 'guide', title: 'Guide, renamed' },
        { operation: 'update_page', page: old, title: 'Old, renamed' },
        insert('Scratch', 'Temporary.\n', { ref: 'scratch' }),
        { operation: 'delete_page', page: 'scratch' },
        insert('Plain', 'No ref.\n'),
        { operation: 'insert_files', files: [{ name: 'a.txt', contentType: 'text/plain', base64: Buffer.from('hi').toString('base64') }] }
      ]
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const ids = await pagesByTitle()
    const cr = (await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${crId}`)).body
    expect(res.body.changeRequest).toEqual(cr)
    const location = (id: string) => `${t.url}/v1/spaces/${spaceId}/change-requests/${crId}/content/page/${id}`
    expect(res.body.changes).toEqual([
      {
        object: 'created_page',
        ref: 'guide',
        page: { object: 'page', id: ids['Guide, renamed'], urls: { location: location(ids['Guide, renamed']!) } }
      },
      { object: 'updated_page', page: { object: 'page', id: old, urls: { location: location(old!) } } },
      { object: 'deleted_page', page: gone },
      { object: 'created_page', page: { object: 'page', id: ids.Plain, urls: { location: location(ids.Plain!) } } }
    ])
    expect(res.body.insertedFiles).toEqual([expect.objectContaining({ name: 'a.txt', contentType: 'text/plain', size: 2 })])
    const files = (await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${crId}/content/files`)).body.items
    expect(files.map((f: any) => f.id)).toEqual([res.body.insertedFiles[0].id])

    // Each location answers the page as stored.
    const page = await fetch(res.body.changes[0].page.urls.location, { headers: { authorization: `Bearer ${t.owner.api.token}` } })
    expect(await page.json()).toMatchObject({ id: ids['Guide, renamed'], title: 'Guide, renamed', markdown: '# Guide\n\nHello.\n' })
  })

  it('refuses a compat that is not a boolean, and changes nothing', async () => {
    const before = (await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${crId}`)).body.revision
    const res = await t.owner.api.post(contentPath('?compat=sometimes'), { changes: [insert('Page', 'Text.\n')] })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toMatch(/^compat: /)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${crId}`)).body.revision).toBe(before)
  })
})
