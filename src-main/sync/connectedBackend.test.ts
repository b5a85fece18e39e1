// A connected workspace against a real /v1 server (a Quire test server on loopback). The network is cut and
// restored at the fetch the workspace uses, so the server keeps running (and its data) while it is "out of reach".
import { afterEach, describe, expect, it } from 'vitest'
import { openLocalBackend } from '../backend/localBackend'
import { RemoteBackend } from '../backend/remoteBackend'
import { userRepository } from '../storage/repositories/userRepository'
import { startTestServer } from '../testing/harness'
import { tempDirs } from '../testing/tempDirs'
import { ConnectedBackend } from './connectedBackend'
import { outbox } from './outbox'

const tempDir = tempDirs('sync')
const open: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close()
})

/**
 * A fetch that fails as a dropped network does while `down` is set, and loses the answer of requests `lose`
 * picks: they reach the server, which applies them, and the connection is reset before the answer comes back.
 */
function flakyNetwork() {
  const net: { down: boolean; requests: number; lose?: (method: string, url: string) => boolean; lost: string[] } = {
    down: false,
    requests: 0,
    lost: []
  }
  const send: typeof fetch = async (input, init) => {
    net.requests++
    if (net.down) throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })
    const method = (init?.method ?? 'GET').toUpperCase()
    const url = String(input)
    if (net.lose?.(method, url)) {
      net.lose = undefined
      const res = await fetch(input, init)
      await res.arrayBuffer()
      net.lost.push(`${method} ${new URL(url).pathname}`)
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) })
    }
    return fetch(input, init)
  }
  return { net, send }
}

async function setup({ retryMs = 60_000 }: { retryMs?: number } = {}) {
  const server = await startTestServer()
  open.push(server)
  const { net, send } = flakyNetwork()
  const account = { id: server.owner.user.id, displayName: server.owner.user.display_name, email: server.owner.user.email }
  const remote = new RemoteBackend({ url: server.url, token: server.owner.token, via: 'test-host', fetch: send })
  const copy = await openLocalBackend({ dataDir: tempDir(), account })
  const backend = new ConnectedBackend({ remote, copy, retryMs, warn: () => {} })
  open.push(backend)
  backend.start()
  await backend.idle()
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await backend.request(
      new Request(`http://quire.localhost${path}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body)
      })
    )
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers }
  }
  return { server, net, send, backend, copy, call }
}

/** A space on the server with pages (markdown by title), opened through the app so the copy follows it. */
async function spaceWithPages(t: Awaited<ReturnType<typeof setup>>, pages: Record<string, string>) {
  const spaceId = await t.server.emptySpace('Guide')
  const api = t.server.owner.api
  const cr = (await api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Seed' })).body
  const changes = Object.entries(pages).map(([title, markdown]) => ({ operation: 'insert_page', title, document: { markdown } }))
  expect((await api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes })).status).toBe(200)
  expect((await api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).body.result).toBe('merge')
  t.server.clock.advance(60_000)
  // Opening the space in the app: the copy takes its pages.
  const tree = await t.call('GET', `/v1/spaces/${spaceId}/content/pages`)
  expect(tree.status).toBe(200)
  await t.backend.idle()
  const ids = Object.fromEntries((tree.body.pages as { id: string; title: string }[]).map((p) => [p.title, p.id]))
  return { spaceId, ids }
}

const markdownOf = async (t: Awaited<ReturnType<typeof setup>>, path: string) =>
  (await t.server.owner.api.get(path, { format: 'markdown' })).body.markdown

describe('a connected workspace while its server is out of reach', () => {
  it('answers what the copy keeps, says it is offline, and refuses what it does not keep', async () => {
    const t = await setup()
    const { spaceId, ids } = await spaceWithPages(t, { Install: 'Run the installer.\n' })
    t.net.down = true

    const orgs = await t.call('GET', '/v1/orgs')
    expect(orgs.status).toBe(200)
    expect(orgs.headers.get('quire-remote-status')).toBe('unreachable')
    expect(orgs.body.items.map((o: { id: string }) => o.id)).toEqual([t.server.orgId])
    expect((await t.call('GET', `/v1/spaces/${spaceId}/content/page/${ids.Install}`)).body.markdown).toBe('Run the installer.\n')
    expect((await t.call('GET', `/v1/spaces/${spaceId}/search?query=installer`)).body.items.map((p: { id: string }) => p.id)).toEqual([
      ids.Install
    ])

    expect(await t.call('GET', `/v1/orgs/${t.server.orgId}/members`)).toMatchObject({
      status: 503,
      body: { error: { code: 503, message: expect.stringMatching(/^Not available offline: 127\.0\.0\.1:\d+ is out of reach/) } }
    })
    const other = await t.server.emptySpace('Never opened')
    t.net.down = false
    await t.backend.check()
    t.net.down = true
    expect(await t.call('GET', `/v1/spaces/${other}/content/pages`)).toMatchObject({ status: 404 })
    const space = await t.call('POST', `/v1/orgs/${t.server.orgId}/spaces`, { title: 'New' })
    expect(space).toMatchObject({ status: 503, body: { error: { message: expect.stringContaining('this change needs it') } } })
    expect(outbox(t.copy.services.db).count()).toBe(0)
  })

  it('passes the history operations to the server, and answers them 503 offline (the copy keeps no history)', async () => {
    const t = await setup()
    const { spaceId, ids } = await spaceWithPages(t, { Intro: 'Hello.\n' })
    const onServer = (await t.server.owner.api.get(`/v1/spaces/${spaceId}/revisions`)).body
    const list = await t.call('GET', `/v1/spaces/${spaceId}/revisions`)
    expect(list.status).toBe(200)
    expect(list.body.items.map((r: { id: string }) => r.id)).toEqual(onServer.items.map((r: { id: string }) => r.id))
    const [latest, first] = list.body.items as { id: string }[]
    expect((await t.call('GET', `/v1/spaces/${spaceId}/revisions/${latest!.id}/changes`)).body.changes).toMatchObject([
      { type: 'page_created', page: { id: ids.Intro } }
    ])
    expect((await t.call('GET', `/v1/spaces/${spaceId}/revisions/${latest!.id}/path/intro`)).body).toMatchObject({
      id: ids.Intro,
      markdown: 'Hello.\n'
    })
    const restore = await t.call('POST', `/v1/spaces/${spaceId}/revisions/${first!.id}/restore`, {})
    expect(restore).toMatchObject({ status: 201, body: { object: 'change-request', status: 'draft' } })

    t.net.down = true
    for (const path of ['/revisions', `/revisions/${latest!.id}`, `/revisions/${latest!.id}/pages`, `/revisions/${latest!.id}/changes`]) {
      expect(await t.call('GET', `/v1/spaces/${spaceId}${path}`), path).toMatchObject({
        status: 503,
        body: { error: { code: 503, message: expect.stringMatching(/^Not available offline: 127\.0\.0\.1:\d+ is out of reach/) } }
      })
    }
    expect(await t.call('POST', `/v1/spaces/${spaceId}/revisions/${first!.id}/restore`, {})).toMatchObject({
      status: 503,
      body: { error: { message: expect.stringContaining('this change needs it') } }
    })
    expect(outbox(t.copy.services.db).count()).toBe(0)
  })

  it('keeps edits to a change request made offline and sends them, in order, when the server answers again', async () => {
    const t = await setup()
    const { spaceId, ids } = await spaceWithPages(t, { Install: 'Run the installer.\n', Usage: 'Open the app.\n' })
    t.net.down = true

    const cr = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Written on a plane' })
    expect(cr.status).toBe(201)
    const path = `/v1/spaces/${spaceId}/change-requests/${cr.body.number}`
    const edit = await t.call('POST', `${path}/content`, {
      changes: [
        { operation: 'update_page', page: ids.Install, document: { markdown: 'Run the installer, then restart.\n' } },
        { operation: 'insert_page', title: 'Troubleshooting', document: { markdown: 'Restart first.\n' } }
      ]
    })
    expect(edit.status).toBe(200)
    expect(edit.headers.get('quire-unsent')).toBe('2')
    // A page added offline is edited again offline: the server's id for it is found when the first batch is sent.
    const pages = (await t.call('GET', `${path}/content/pages`)).body.pages as { id: string; title: string }[]
    const added = pages.find((p) => p.title === 'Troubleshooting')!.id
    expect(
      (
        await t.call('POST', `${path}/content`, {
          changes: [{ operation: 'update_page', page: added, document: { markdown: 'Restart first. Then reinstall.\n' } }]
        })
      ).status
    ).toBe(200)
    expect((await t.call('PATCH', path, { status: 'open' })).status).toBe(200)
    expect((await t.call('GET', `${path}/content/page/${ids.Install}`)).body.markdown).toBe('Run the installer, then restart.\n')
    expect(outbox(t.copy.services.db).count()).toBe(4)
    expect(t.backend.outboxList().items.map((i) => i.summary)).toEqual([
      'Opened the change request',
      'Edited 1 page, added 1 page',
      'Edited 1 page',
      'Moved it to open'
    ])

    // Back online: sent in order; the server has the change request, its edits and its status.
    t.net.down = false
    expect((await t.backend.check()).status).toBe('online')
    await t.backend.idle()
    expect(outbox(t.copy.services.db).count()).toBe(0)
    const onServer = (await t.server.owner.api.get(`/v1/spaces/${spaceId}/change-requests`, { status: 'open' })).body.items as {
      id: string
      number: number
      subject: string
    }[]
    const sent = onServer.find((c) => c.subject === 'Written on a plane')!
    expect(sent).toBeDefined()
    const serverPath = `/v1/spaces/${spaceId}/change-requests/${sent.id}`
    expect(await markdownOf(t, `${serverPath}/content/page/${ids.Install}`)).toBe('Run the installer, then restart.\n')
    const serverPages = (await t.server.owner.api.get(`${serverPath}/content/pages`)).body.pages as { id: string; title: string }[]
    const troubleshooting = serverPages.find((p) => p.title === 'Troubleshooting')!
    expect(await markdownOf(t, `${serverPath}/content/page/${troubleshooting.id}`)).toBe('Restart first. Then reinstall.\n')

    // The app's address of it (the number the copy gave it) still leads to it, and following it once the app asks
    // for the server's number; the old number then means the server's change request of that number again.
    const again = await t.call('GET', path)
    expect(again).toMatchObject({ status: 200, body: { id: sent.id, subject: 'Written on a plane' } })
    expect(again.headers.get('quire-unsent')).toBeNull()
    expect(sent.number).not.toBe(cr.body.number)
    await t.backend.idle()
    expect((await t.call('GET', path)).body.id, 'still the same once the copy pulled it').toBe(sent.id)
    expect((await t.call('GET', `/v1/spaces/${spaceId}/change-requests/${sent.number}`)).body.id).toBe(sent.id)
    expect((await t.call('GET', path)).body).toMatchObject({ number: cr.body.number, subject: 'Seed' })
  })

  it('merges an offline edit with the server’s edit of other lines, and keeps one of the same lines for the user', async () => {
    const t = await setup()
    const lines = 'one\ntwo\nthree\nfour\nfive\n'
    const { spaceId, ids } = await spaceWithPages(t, { Notes: lines })
    const cr = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Shared' })
    const path = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`
    await t.call('GET', `${path}/content/pages`)
    await t.backend.idle()

    t.net.down = true
    const edit = (markdown: string) =>
      t.call('POST', `${path}/content`, { changes: [{ operation: 'update_page', page: ids.Notes, document: { markdown } }] })
    expect((await edit('ONE\ntwo\nthree\nfour\nfive\n')).status).toBe(200)
    // Meanwhile a colleague edits the last line of the same page in the same change request, on the server.
    await t.server.owner.api.post(`${path}/content`, {
      changes: [{ operation: 'update_page', page: ids.Notes, document: { markdown: 'one\ntwo\nthree\nfour\nFIVE\n' } }]
    })

    t.net.down = false
    await t.backend.check()
    await t.backend.idle()
    expect(outbox(t.copy.services.db).count()).toBe(0)
    expect(await markdownOf(t, `${path}/content/page/${ids.Notes}`)).toBe('ONE\ntwo\nthree\nfour\nFIVE\n')

    // Now both change the first line.
    await t.call('GET', `${path}/content/pages`)
    await t.backend.idle()
    t.net.down = true
    expect((await edit('Uno\ntwo\nthree\nfour\nFIVE\n')).status).toBe(200)
    await t.server.owner.api.post(`${path}/content`, {
      changes: [{ operation: 'update_page', page: ids.Notes, document: { markdown: 'Eins\ntwo\nthree\nfour\nFIVE\n' } }]
    })
    t.net.down = false
    await t.backend.check()
    await t.backend.idle()
    const waiting = t.backend.outboxList().items
    expect(waiting).toEqual([
      expect.objectContaining({
        summary: 'Edited 1 page',
        conflict: {
          at: expect.any(String),
          message: '“Notes” was changed on the server in the same lines as here',
          pages: [
            {
              page: ids.Notes,
              title: 'Notes',
              kind: 'text',
              base: 'ONE\ntwo\nthree\nfour\nFIVE\n',
              mine: 'Uno\ntwo\nthree\nfour\nFIVE\n',
              theirs: 'Eins\ntwo\nthree\nfour\nFIVE\n'
            }
          ]
        }
      })
    ])
    expect(waiting[0]).not.toHaveProperty('failed')
    expect(t.backend.outboxSummary()).toEqual({ unsent: 1, failed: 0, conflicts: 1 })
    // Nothing was overwritten on the server, and the app still shows the user's version of the change request.
    expect(await markdownOf(t, `${path}/content/page/${ids.Notes}`)).toBe('Eins\ntwo\nthree\nfour\nFIVE\n')
    expect((await t.call('GET', `${path}/content/page/${ids.Notes}`)).body.markdown).toBe('Uno\ntwo\nthree\nfour\nFIVE\n')
    // Online meanwhile: what needs the server's version of it waits for the unsent change; what the copy does not
    // keep (its files) is the server's.
    const merge = await t.call('POST', `${path}/merge`)
    expect(merge).toMatchObject({
      status: 409,
      body: {
        error: {
          message: expect.stringMatching(
            /^This change request has changes 127\.0\.0\.1:\d+ does not have yet: send them, or discard them \(Unsent changes\), before it can be merged$/
          )
        }
      }
    })
    expect(merge.headers.get('quire-remote-status')).toBe('online')
    await t.server.owner.api.post(`${path}/content`, {
      changes: [{ operation: 'insert_files', files: [{ name: 'notes.txt', base64: 'aGk=' }] }]
    })
    const files = await t.call('GET', `${path}/content/files`)
    expect(files).toMatchObject({ status: 200, body: { items: [{ name: 'notes.txt' }] } })

    // Given up: the copy takes the server's version again.
    expect((await t.backend.discard(waiting[0]!.seq)).items).toEqual([])
    await t.backend.idle()
    expect((await t.call('GET', `${path}/content/page/${ids.Notes}`)).body.markdown).toBe('Eins\ntwo\nthree\nfour\nFIVE\n')
  })

  it('refuses files offline and what the outbox could not send, changing nothing', async () => {
    const t = await setup()
    const { spaceId } = await spaceWithPages(t, { Intro: 'Hello.\n' })
    t.net.down = true
    const cr = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Pictures' })
    const files = await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'insert_files', files: [{ name: 'a.txt', base64: 'aGk=' }] }]
    })
    expect(files).toMatchObject({
      status: 503,
      body: { error: { message: expect.stringContaining('files can be added once it answers again') } }
    })
    const reusable = await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'insert_reusable_content', title: 'Note', document: { markdown: 'x' } }]
    })
    expect(reusable).toMatchObject({
      status: 503,
      body: { error: { message: expect.stringContaining('reusable contents can be changed once it answers again') } }
    })
    expect(outbox(t.copy.services.db).count()).toBe(1)
    // Straight to the copy (not through the backend's routing): the journal refuses what it cannot send, and the
    // write is undone with it.
    const direct = await t.copy.request(
      new Request(`http://quire.localhost/v1/orgs/${t.server.orgId}/spaces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"title":"X"}'
      })
    )
    expect(direct.status).toBe(503)
    expect(t.copy.services.db.prepare("SELECT count(*) FROM spaces WHERE title = 'X'").pluck().get()).toBe(0)
  })
})

describe('a connected workspace whose token the server refuses', () => {
  it('keeps the outbox waiting (nothing is marked refused) and sends it once a new token of the same account is given', async () => {
    const t = await setup()
    const { spaceId, ids } = await spaceWithPages(t, { Intro: 'Hello.\n' })
    t.net.down = true
    const cr = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Greeting' })
    await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'update_page', page: ids.Intro, document: { markdown: 'Hello, world.\n' } }]
    })

    // Meanwhile the token was revoked on the server.
    const db = t.server.server.api.services.db
    db.prepare('DELETE FROM tokens WHERE user_id = ?').run(t.server.owner.user.id)
    t.server.server.api.services.writes++
    t.net.down = false
    const checked = await t.backend.check()
    expect(checked.status, checked.message).toBe('refused')
    expect((await t.backend.sync()).stopped).toBe('refused')
    expect(t.backend.outboxList().items.map((i) => i.failed)).toEqual([undefined, undefined])

    // A new token of the same account: the writes that waited go.
    userRepository(db).addToken(t.server.owner.user.id, 'qr_new_token_for_the_owner', 'test', new Date().toISOString())
    t.server.server.api.services.writes++
    await t.backend.reconnect(
      new RemoteBackend({ url: t.server.url, token: 'qr_new_token_for_the_owner', via: 'test-host', fetch: t.send })
    )
    await t.backend.idle()
    expect(t.backend.outboxSummary()).toEqual({ unsent: 0, failed: 0, conflicts: 0 })
    const onServer = (await t.server.client('qr_new_token_for_the_owner').get(`/v1/spaces/${spaceId}/change-requests`, { status: 'draft' }))
      .body.items
    expect(onServer.map((c: { subject: string }) => c.subject)).toEqual(['Greeting'])
  })
})

describe('the outbox sends every edit exactly once, never over what the server changed', () => {
  /** Offline edits of the Notes page in one change request opened online; what the server holds afterwards. */
  async function notes(lines = 'one\ntwo\nthree\nfour\nfive\n') {
    const t = await setup()
    const { spaceId, ids } = await spaceWithPages(t, { Notes: lines, Other: 'Other page.\n' })
    const cr = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Shared' })
    const path = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`
    await t.call('GET', `${path}/content/pages`)
    await t.backend.idle()
    const edit = async (page: string, markdown: string) =>
      expect(
        (await t.call('POST', `${path}/content`, { changes: [{ operation: 'update_page', page, document: { markdown } }] })).status
      ).toBe(200)
    const serverEdit = async (page: string, markdown: string) =>
      expect(
        (await t.server.owner.api.post(`${path}/content`, { changes: [{ operation: 'update_page', page, document: { markdown } }] })).status
      ).toBe(200)
    const onServer = (page: string) => markdownOf(t, `${path}/content/page/${page}`)
    const reconnect = async () => {
      t.net.down = false
      await t.backend.check()
      await t.backend.idle()
    }
    /** Two offline edits of Notes (its first line, then its third) while the server's Notes becomes `theirs`; then back online. */
    const twoEditsWhile = async (theirs: string) => {
      t.net.down = true
      await edit(ids.Notes!, 'ONE\ntwo\nthree\nfour\nfive\n')
      await edit(ids.Notes!, 'ONE\ntwo\nTHREE\nfour\nfive\n')
      await serverEdit(ids.Notes!, theirs)
      await reconnect()
    }
    return { t, spaceId, ids, path, edit, serverEdit, onServer, reconnect, twoEditsWhile }
  }

  it('merges two queued edits of one page with a server edit of another line: all three are kept', async () => {
    const n = await notes()
    await n.twoEditsWhile('one\ntwo\nthree\nfour\nFIVE\n')
    expect(n.t.backend.outboxList().items).toEqual([])
    expect(await n.onServer(n.ids.Notes)).toBe('ONE\ntwo\nTHREE\nfour\nFIVE\n')
  })

  it('holds a conflict when the server changed the same line, overwriting nothing, until the user keeps mine', async () => {
    const n = await notes()
    await n.twoEditsWhile('Eins\ntwo\nthree\nfour\nfive\n')
    const [first, second] = n.t.backend.outboxList().items
    expect(first!.conflict!.pages).toEqual([
      {
        page: n.ids.Notes,
        title: 'Notes',
        kind: 'text',
        base: 'one\ntwo\nthree\nfour\nfive\n',
        mine: 'ONE\ntwo\nthree\nfour\nfive\n',
        theirs: 'Eins\ntwo\nthree\nfour\nfive\n'
      }
    ])
    // The second waits behind it, untouched; nothing reached the server.
    expect(second).not.toHaveProperty('conflict')
    expect(second).not.toHaveProperty('failed')
    expect(await n.onServer(n.ids.Notes)).toBe('Eins\ntwo\nthree\nfour\nfive\n')

    const result = await n.t.backend.resolve(first!.seq, { pages: [{ page: n.ids.Notes, keep: 'mine' }] })
    expect(result).toMatchObject({ sent: 2, failed: 0, items: [] })
    expect(await n.onServer(n.ids.Notes)).toBe('ONE\ntwo\nTHREE\nfour\nfive\n')
  })

  it('keeps theirs: the write leaves the page alone, and the later write is merged onto theirs', async () => {
    const n = await notes()
    await n.twoEditsWhile('Eins\ntwo\nthree\nfour\nfive\n')
    const [first] = n.t.backend.outboxList().items
    expect(await n.t.backend.resolve(first!.seq, { pages: [{ page: n.ids.Notes, keep: 'theirs' }] })).toMatchObject({ sent: 1, items: [] })
    expect(await n.onServer(n.ids.Notes)).toBe('Eins\ntwo\nTHREE\nfour\nfive\n')
  })

  it('takes an edited merge of the three versions', async () => {
    const n = await notes()
    n.t.net.down = true
    await n.edit(n.ids.Notes, 'ONE\ntwo\nthree\nfour\nfive\n')
    await n.serverEdit(n.ids.Notes, 'Eins\ntwo\nthree\nfour\nfive\n')
    await n.reconnect()
    const [first] = n.t.backend.outboxList().items
    // Every page of the conflict needs a choice; only text conflicts take a text.
    await expect(n.t.backend.resolve(first!.seq, { pages: [] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('“Notes” needs a choice')
    })
    await expect(
      n.t.backend.resolve(first!.seq, {
        pages: [
          { page: n.ids.Other, keep: 'mine' },
          { page: n.ids.Notes, keep: 'mine' }
        ]
      })
    ).rejects.toMatchObject({ status: 400 })
    expect(
      await n.t.backend.resolve(first!.seq, { pages: [{ page: n.ids.Notes, markdown: 'ONE / Eins\ntwo\nthree\nfour\nfive\n' }] })
    ).toMatchObject({ sent: 1, items: [] })
    expect(await n.onServer(n.ids.Notes)).toBe('ONE / Eins\ntwo\nthree\nfour\nfive\n')
  })

  it('discards one entry only: later edits of the same page go, without the discarded one', async () => {
    const n = await notes()
    n.t.net.down = true
    await n.edit(n.ids.Notes, 'ONE\ntwo\nthree\nfour\nfive\n')
    await n.edit(n.ids.Other, 'Other page, edited.\n')
    await n.edit(n.ids.Notes, 'ONE\ntwo\nTHREE\nfour\nfive\n')
    const [first] = n.t.backend.outboxList().items
    expect((await n.t.backend.discard(first!.seq)).items.map((i) => i.summary)).toEqual(['Edited 1 page', 'Edited 1 page'])
    await n.reconnect()
    expect(n.t.backend.outboxList().items).toEqual([])
    expect(await n.onServer(n.ids.Notes)).toBe('one\ntwo\nTHREE\nfour\nfive\n')
    expect(await n.onServer(n.ids.Other)).toBe('Other page, edited.\n')
  })

  it('sends a change request and a batch whose answers were lost once each (no duplicate change request, page or edit)', async () => {
    const t = await setup()
    const { spaceId, ids } = await spaceWithPages(t, { Install: 'Run the installer.\n' })
    t.net.down = true
    const cr = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Lost answers' })
    const path = `/v1/spaces/${spaceId}/change-requests/${cr.body.number}`
    expect(
      (
        await t.call('POST', `${path}/content`, {
          changes: [
            { operation: 'insert_page', title: 'Troubleshooting', document: { markdown: 'Restart first.\n' } },
            { operation: 'update_page', page: ids.Install, document: { markdown: 'Run the installer, then restart.\n' } }
          ]
        })
      ).status
    ).toBe(200)
    const created = () =>
      t.server.owner.api
        .get(`/v1/spaces/${spaceId}/change-requests`, { status: 'draft' })
        .then((r) => (r.body.items as { id: string; subject: string }[]).filter((c) => c.subject === 'Lost answers'))

    // The server opens the change request, but its answer is lost: the backend goes offline, the entry waits.
    t.net.down = false
    t.net.lose = (method, url) => method === 'POST' && new URL(url).pathname === `/v1/spaces/${spaceId}/change-requests`
    await t.backend.check()
    await t.backend.idle()
    expect(t.net.lost).toEqual([`POST /v1/spaces/${spaceId}/change-requests`])
    expect(await created()).toHaveLength(1)
    expect(outbox(t.copy.services.db).count()).toBe(2)

    // Then the batch's answer is lost.
    t.net.lose = (method, url) => method === 'POST' && new URL(url).pathname.endsWith('/content')
    await t.backend.sync()
    await t.backend.idle()
    expect(t.net.lost).toHaveLength(2)
    await t.backend.sync()
    await t.backend.idle()
    expect(outbox(t.copy.services.db).count()).toBe(0)
    const [sent] = await created()
    expect(await created()).toHaveLength(1)
    const serverPath = `/v1/spaces/${spaceId}/change-requests/${sent!.id}`
    const pages = (await t.server.owner.api.get(`${serverPath}/content/pages`)).body.pages as { id: string; title: string }[]
    // The batch was applied once: one Troubleshooting page, not two.
    expect(pages.map((p) => p.title).sort()).toEqual(['Install', 'Troubleshooting'])
    expect(await markdownOf(t, `${serverPath}/content/page/${ids.Install}`)).toBe('Run the installer, then restart.\n')
  })

  it('resumes by itself: the server back, its probes find it and the outbox is sent, nothing asked', async () => {
    const t = await setup({ retryMs: 50 })
    const { spaceId, ids } = await spaceWithPages(t, { Install: 'Run the installer.\n' })
    const cr = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Resumed' })
    const path = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`
    await t.backend.idle()
    t.net.down = true
    expect(
      (
        await t.call('POST', `${path}/content`, {
          changes: [{ operation: 'update_page', page: ids.Install, document: { markdown: 'Run it.\n' } }]
        })
      ).status
    ).toBe(200)
    expect(t.backend.connection.status).toBe('unreachable')
    const probes = t.net.requests
    // Still away: probed again and again, nothing sent.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(t.net.requests).toBeGreaterThan(probes)
    expect(outbox(t.copy.services.db).count()).toBe(1)

    t.net.down = false
    await expect.poll(() => outbox(t.copy.services.db).count(), { timeout: 5000 }).toBe(0)
    expect(t.backend.connection.status).toBe('online')
    expect(await markdownOf(t, `${path}/content/page/${ids.Install}`)).toBe('Run it.\n')
  })
})

/** An answer without its `urls` (they name the host that answered: the server, or this computer's copy). */
function withoutUrls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUrls)
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (k === 'urls' ? [] : [[k, withoutUrls(v)]])))
}

describe('the review workflow of a connected workspace whose server stopped', () => {
  it('answers the reviews, requested reviewers, merge status and merge rules it pulled as the server did; review writes wait for the server', async () => {
    const remote = await startTestServer()
    open.push(remote)
    const author = await remote.user({ role: 'edit', name: 'Ann Author' })
    const rita = await remote.user({ role: 'review', name: 'Rita Reviewer' })
    const rob = await remote.user({ role: 'review', name: 'Rob Reviewer' })
    const otto = await remote.user({ role: 'review', name: 'Otto Other' })
    const orgRules = { type: 'rules', rules: [{ rule: 'require_change_request_subject' }] }
    expect((await remote.owner.api.patch(`/v1/orgs/${remote.orgId}`, { mergeRules: orgRules })).status).toBe(200)
    const spaceId = await remote.emptySpace('Guide')
    const inheriting = await remote.emptySpace('Inherits')
    const spaceRules = {
      type: 'rules',
      rules: [{ rule: 'require_at_least_one_approved_review' }, { rule: 'require_specific_reviewers', users: [rob.user.id] }]
    }
    expect((await remote.owner.api.patch(`/v1/spaces/${spaceId}`, { mergeRules: spaceRules })).status).toBe(200)

    const crs = `/v1/spaces/${spaceId}/change-requests`
    const cr = (await author.api.post(crs, { subject: 'Install guide' })).body as { id: string; number: number }
    const edit = await author.api.post(`${crs}/${cr.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'Install', document: { markdown: 'Run it.\n' } }]
    })
    expect(edit.status).toBe(200)
    const approved = await rita.api.post(`${crs}/${cr.id}/reviews`, { status: 'approved', comment: { markdown: 'Clear and **short**.' } })
    expect(approved.status).toBe(201)
    const objection = await rob.api.post(`${crs}/${cr.id}/reviews`, { status: 'changes-requested' })
    expect(objection.status).toBe(201)
    expect((await author.api.post(`${crs}/${cr.id}/requested-reviewers`, { users: [otto.user.id] })).status).toBe(200)
    // Listed with the space, never opened: its reviews are not copied.
    const other = (await author.api.post(crs, { subject: 'Not opened' })).body as { id: string }
    expect((await otto.api.post(`${crs}/${other.id}/reviews`, { status: 'approved' })).status).toBe(201)

    const me = (await remote.owner.api.get('/v1/user')).body as { id: string; displayName: string; email: string }
    const copy = await openLocalBackend({ dataDir: tempDir(), account: { id: me.id, displayName: me.displayName, email: me.email } })
    const backend = new ConnectedBackend({
      remote: new RemoteBackend({ url: remote.url, token: remote.owner.token, via: 'test-host' }),
      copy,
      retryMs: 600_000,
      warn: () => {}
    })
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
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers }
    }

    // The app opens the space and the change request while the server answers.
    const reads = [
      `/v1/orgs/${remote.orgId}`,
      `/v1/spaces/${spaceId}`,
      `/v1/spaces/${inheriting}`,
      `${crs}/${cr.number}`,
      `${crs}/${cr.id}/reviews`,
      `${crs}/${cr.id}/reviews?format=document`,
      `${crs}/${cr.id}/reviews?outdated=false`,
      `${crs}/${cr.id}/reviews/${approved.body.id}`,
      `${crs}/${cr.id}/requested-reviewers`,
      `${crs}/${cr.number}/merge-rules`
    ]
    const online = new Map<string, unknown>()
    for (const path of reads) {
      const res = await call('GET', path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('quire-remote-status')).toBe('online')
      online.set(path, res.body)
    }
    await backend.idle()

    await remote.close()
    for (const path of reads) {
      const res = await call('GET', path)
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200)
      expect(res.headers.get('quire-remote-status')).toBe('unreachable')
      expect(withoutUrls(res.body), path).toEqual(withoutUrls(online.get(path)))
    }
    // What was compared holds what the workflow needs: two reviews (one with its comment), one reviewer asked, the
    // rules of the space, of its organization, and those a space inherits.
    const reviews = online.get(`${crs}/${cr.id}/reviews`) as { count: number; items: { status: string; comment?: { body: unknown } }[] }
    expect(reviews.count).toBe(2)
    expect(reviews.items.map((r) => [r.status, r.comment?.body])).toEqual([
      ['changes-requested', undefined],
      ['approved', { markdown: 'Clear and **short**.' }]
    ])
    expect(
      (online.get(`${crs}/${cr.id}/requested-reviewers`) as { items: { user: { id: string } }[] }).items.map((r) => r.user.id)
    ).toEqual([otto.user.id])
    expect(online.get(`${crs}/${cr.number}/merge-rules`)).toMatchObject({
      source: 'space',
      unmet: [{ rule: 'require_specific_reviewers', message: 'Approval required from Rob Reviewer' }]
    })
    expect((online.get(`/v1/spaces/${spaceId}`) as { mergeRules: unknown }).mergeRules).toEqual(spaceRules)
    expect((online.get(`/v1/spaces/${inheriting}`) as { mergeRules: unknown }).mergeRules).toEqual({ type: 'inherit' })
    expect((online.get(`/v1/orgs/${remote.orgId}`) as { mergeRules: unknown }).mergeRules).toEqual(orgRules)

    // The change request only listed: its reviews were not copied, and the copy says so rather than "none".
    expect(await call('GET', `${crs}/${other.id}/reviews`)).toMatchObject({
      status: 404,
      body: {
        error: {
          message: expect.stringMatching(/^Reviews not found on this computer: this change request was not opened before 127\.0\.0\.1:\d+/)
        }
      }
    })
    // Reviews and review requests go to the server only: offline they are refused, and nothing is kept or changed.
    const needsServer = {
      status: 503,
      body: {
        error: {
          code: 503,
          message: expect.stringMatching(/^127\.0\.0\.1:\d+ is out of reach: reviews and review requests go straight to it/)
        }
      }
    }
    expect(await call('POST', `${crs}/${cr.id}/reviews`, { status: 'approved' })).toMatchObject(needsServer)
    expect(await call('POST', `${crs}/${cr.id}/requested-reviewers`, { users: [rita.user.id] })).toMatchObject(needsServer)
    expect(await call('DELETE', `${crs}/${cr.id}/requested-reviewers/${otto.user.id}`)).toMatchObject(needsServer)
    expect(outbox(copy.services.db).count()).toBe(0)
    expect((await call('GET', `${crs}/${cr.id}/reviews`)).body.count).toBe(2)
    expect((await call('GET', `${crs}/${cr.id}/requested-reviewers`)).body.count).toBe(1)
  }, 60_000)
})
