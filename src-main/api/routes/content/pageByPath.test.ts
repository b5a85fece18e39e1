// `GET …/content/path/{pagePath}` of a space and of a change request: a page found by its path, answered as the
// page read by id answers it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/harness'

let t: TestServer
let spaceId: string
let crId: string
const ids: Record<string, string> = {}

beforeEach(async () => {
  t = await startTestServer()
  spaceId = await t.emptySpace()
  crId = (await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Seed' })).body.id
  const res = await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests/${crId}/content`, {
    changes: [
      { operation: 'insert_page', title: 'Guide', ref: 'guide', document: { markdown: '# Guide\n\nStart here.\n' } },
      { operation: 'insert_page', title: 'Install', into: 'guide', document: { markdown: 'Run it.\n' } }
    ]
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  const pages = (await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${crId}/content/pages`)).body.pages
  ids.guide = pages[0].id
  ids.install = pages[0].pages[0].id
})
afterEach(() => t.close())

const crBase = () => `/v1/spaces/${spaceId}/change-requests/${crId}`

describe('GET …/content/path/{pagePath}', () => {
  it('a change request’s page by its path, as one encoded segment or with its slashes, as the read by id answers it', async () => {
    const byId = await t.owner.api.get(`${crBase()}/content/page/${ids.install}`)
    for (const path of ['guide%2Finstall', 'guide/install']) {
      const res = await t.owner.api.get(`${crBase()}/content/path/${path}`)
      expect(res.status, path).toBe(200)
      expect(res.body).toEqual(byId.body)
      expect(res.headers.get('etag')).toBe(byId.headers.get('etag'))
    }
    const top = await t.owner.api.get(`${crBase()}/content/path/guide`, { format: 'document' })
    expect(top.status).toBe(200)
    expect(top.body).toMatchObject({ id: ids.guide, title: 'Guide', document: { object: 'document' } })
    expect(top.body.pages.map((p: any) => p.id)).toEqual([ids.install])
  })

  it('the space’s page by its path once merged; 404 before, for an unknown path, and for a space the caller cannot see', async () => {
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/content/path/guide`)).status).toBe(404)
    expect((await t.owner.api.post(`${crBase()}/merge`)).body.result).toBe('merge')
    const res = await t.owner.api.get(`/v1/spaces/${spaceId}/content/path/guide/install`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: ids.install, title: 'Install', path: 'guide/install', markdown: 'Run it.\n' })
    // A top-level page: one path segment, as the published operation's `{pagePath}` reads it.
    const top = await t.owner.api.get(`/v1/spaces/${spaceId}/content/path/guide`)
    expect(top.status).toBe(200)
    expect(top.body).toMatchObject({ path: 'guide', pages: [expect.objectContaining({ id: ids.install })] })
    const missing = await t.owner.api.get(`/v1/spaces/${spaceId}/content/path/guide/nothing`)
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ error: { code: 404, message: expect.stringMatching(/^Page/) } })

    const stranger = await t.user({ role: 'none' })
    expect((await stranger.api.get(`/v1/spaces/${spaceId}/content/path/guide`)).status).toBe(404)
  })

  it('refuses a format it does not know and a path over 2000 characters', async () => {
    expect((await t.owner.api.get(`${crBase()}/content/path/guide`, { format: 'html' })).status).toBe(400)
    expect((await t.owner.api.get(`${crBase()}/content/path/${'a'.repeat(2001)}`)).status).toBe(400)
    expect((await t.owner.api.get(`${crBase()}/content/path/a/${'a'.repeat(2001)}`)).status).toBe(400)
  })
})
