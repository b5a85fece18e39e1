// The outbox keeps a content batch made offline with `compat=false` (the official client's way to learn the pages it
// made): the caller gets the ContentUpdate answer from the copy, and the batch is sent as the change request's edit.
import { afterEach, describe, expect, it } from 'vitest'
import { openLocalBackend } from '../backend/localBackend'
import { RemoteBackend } from '../backend/remoteBackend'
import { startTestServer } from '../testing/harness'
import { tempDirs } from '../testing/tempDirs'
import { ConnectedBackend } from './connectedBackend'
import { outbox } from './outbox'

const tempDir = tempDirs('journal')
const open: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close()
})

describe('a content batch with compat=false made offline', () => {
  it('answers the ContentUpdate from the copy and is sent once back online, without compat', async () => {
    const server = await startTestServer()
    open.push(server)
    let down = false
    const send: typeof fetch = async (input, init) => {
      if (down) throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })
      return fetch(input, init)
    }
    const account = { id: server.owner.user.id, displayName: server.owner.user.display_name, email: server.owner.user.email }
    const remote = new RemoteBackend({ url: server.url, token: server.owner.token, via: 'test-host', fetch: send })
    const copy = await openLocalBackend({ dataDir: tempDir(), account })
    const backend = new ConnectedBackend({ remote, copy, retryMs: 60_000, warn: () => {} })
    open.push(backend)
    backend.start()
    await backend.idle()
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await backend.request(
        new Request(`http://quire.localhost${path}`, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body)
        })
      )
      const text = await res.text()
      return { status: res.status, body: text ? JSON.parse(text) : undefined }
    }

    const spaceId = await server.emptySpace('Guide')
    const crId = (await server.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Notes' })).body.id
    // Opening the change request in the app: the copy takes it.
    expect((await call('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/content/pages`)).status).toBe(200)
    await backend.idle()

    down = true
    const path = `/v1/spaces/${spaceId}/change-requests/${crId}/content`
    const edit = await call('POST', `${path}?compat=false`, {
      changes: [{ operation: 'insert_page', ref: 'plane', title: 'On a plane', document: { markdown: 'Written offline.\n' } }]
    })
    expect(edit.status, JSON.stringify(edit.body)).toBe(200)
    expect(edit.body).toMatchObject({ changeRequest: { id: crId }, changes: [{ object: 'created_page', ref: 'plane' }] })
    const box = outbox(copy.services.db)
    expect(box.count()).toBe(1)
    expect(box.list().map((e) => e.path)).toEqual([path])

    down = false
    expect((await backend.check()).status).toBe('online')
    await backend.idle()
    expect(box.count()).toBe(0)
    const pages = (await server.owner.api.get(`${path}/pages`)).body.pages as { title: string }[]
    expect(pages.map((p) => p.title)).toEqual(['On a plane'])
  })
})
