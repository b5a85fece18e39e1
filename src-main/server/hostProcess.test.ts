// The workspace host out of process (hostProtocol.ts, hostClient.ts, hostProcess.ts): the protocol itself over a
// MessageChannel in this process, then a real child process driven through HTTP as a client would.
import { existsSync, mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MessageChannel, type MessagePort } from 'node:worker_threads'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { httpClient, startTestServer, type TestServer } from '../testing/harness'
import { newToken } from '../storage/ids'
import { HostClient, HostStoppedError, type HostProcess } from '../workspaces/hostClient'
import type { HostPort } from '../workspaces/hostProtocol'
import { makePng } from '../api/routes/files/fixtures'
import { forkHost } from './hostFork'
import { serveHost } from './hostProcess'
import { startServer } from './server'

const portOf = (port: MessagePort): HostPort => ({
  postMessage: (message, transfer) => port.postMessage(message, transfer),
  on: (_event, listener) => void port.on('message', listener)
})

/** The host's side served in this process, over a MessageChannel (a worker's port: bytes are transferred). */
function channelHost(): HostProcess {
  const { port1, port2 } = new MessageChannel()
  let end!: (reason: string) => void
  const exited = new Promise<string>((resolve) => (end = resolve))
  serveHost(portOf(port2), (code) => {
    port2.close()
    end(`exit code ${code}`)
  })
  return { port: portOf(port1), exited, kill: () => end('killed') }
}

const get = (path: string, token?: string) =>
  new Request(`http://quire.localhost${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} })

describe('the host protocol (both sides in this process)', () => {
  const token = newToken()
  let client: HostClient
  beforeAll(async () => {
    client = await HostClient.start({ spawn: channelHost, start: { dataDir: ':memory:', http: { token, searchThreads: 0 } } })
  })
  afterAll(() => client.close())

  it('answers requests by id, with their status, headers and JSON bodies', async () => {
    expect(client.ready).toEqual({ token, bootstrapped: true })
    const [user, missing, anonymous] = await Promise.all([
      client.fetch(get('/v1/user', token), 'http'),
      client.fetch(get('/v1/spaces/nope', token), 'http'),
      client.fetch(get('/v1/user'), 'http')
    ])
    expect(user.status).toBe(200)
    expect(user.headers.get('content-type')).toMatch(/^application\/json/)
    expect((await user.json()) as object).toMatchObject({ object: 'user', displayName: 'root' })
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as { error: unknown }).error).toEqual({ code: 404, message: 'Space not found' })
    expect(anonymous.status).toBe(401)
    // As the workspace's own user (the desktop bridge): the host adds the credentials.
    expect((await client.request(get('/v1/user'))).status).toBe(200)
  })

  it('answers an unexpected throw in the host with 500 in the envelope, and goes on answering', async () => {
    const id = 1_000_000
    const answer = await client.exchange(id, { type: 'request', id, to: 'http', method: 'NOT A METHOD', path: '/v1/user', headers: {} })
    expect(answer).toMatchObject({ type: 'response', id, status: 500 })
    expect(JSON.parse((answer as { body: string }).body)).toEqual({ error: { code: 500, message: 'Internal error' } })
    expect((await client.fetch(get('/v1/user', token), 'http')).status).toBe(200)
  })

  it('refuses test controls of a host not started for tests', async () => {
    await expect(client.control({ op: 'info' })).rejects.toThrow('control: this host was not started for tests')
  })
})

describe('the host protocol: events', () => {
  it("tells the parent when a connected workspace's connection changes", async () => {
    const remote = await startTestServer()
    const events: string[] = []
    const client = await HostClient.start({
      spawn: channelHost,
      start: { home: mkdtempSync(join(tmpdir(), 'quire-host-events-')) },
      onRemoteChange: (id) => events.push(id)
    })
    try {
      const json = (method: string, path: string, body?: unknown) =>
        new Request(`http://quire.localhost${path}`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body)
        })
      const created = await client.fetch(
        json('POST', '/app/workspaces', { name: 'Team', remote: { url: remote.url, token: remote.owner.token } })
      )
      expect(created.status).toBe(201)
      const { id } = (await created.json()) as { id: string }
      expect(events).toEqual([])
      await remote.close()
      // The server is gone: the check finds it out of reach, and the event comes before the answer.
      const checked = await client.fetch(json('POST', `/app/workspaces/${id}/check`))
      expect(((await checked.json()) as any).remote.connection.status).toBe('unreachable')
      expect(events).toEqual([id])
    } finally {
      await client.close()
    }
  })
})

describe('a host process: crash, restart, close', () => {
  it('fails what it had not answered when it dies, starts again, and keeps what was committed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quire-host-'))
    const token = newToken()
    const start = { dataDir, http: { token, searchThreads: 0 }, testing: { clock: '2026-03-01T10:00:00.000Z' } }
    let stopped: string | undefined
    const client = await HostClient.start({ spawn: forkHost, start, onStopped: (reason) => (stopped = reason) })
    const api = (method: string, path: string, body?: unknown) =>
      client.fetch(
        new Request(`http://quire.localhost${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body)
        }),
        'http'
      )
    const orgs = ((await (await api('GET', '/v1/orgs')).json()) as { items: { id: string }[] }).items
    const created = await api('POST', `/v1/orgs/${orgs[0].id}/spaces`, { title: 'Kept', empty: true })
    expect(created.status).toBe(201)
    const spaceId = ((await created.json()) as { id: string }).id

    // The control is pending when the process dies: it fails, saying why.
    const crash = client.control({ op: 'crash' })
    await expect(crash).rejects.toThrow(HostStoppedError)
    await expect(crash).rejects.toThrow('The workspace host stopped before it answered (SIGKILL)')
    expect(stopped).toBe('SIGKILL')
    expect(client.alive).toBe(false)
    await expect(api('GET', '/v1/orgs')).rejects.toThrow('The workspace host is not running')

    await client.restart()
    expect(client.alive).toBe(true)
    expect((await api('GET', `/v1/spaces/${spaceId}`)).status).toBe(200)

    // A clean close checkpoints: the log is folded into the database file, which holds the last write.
    await expect(api('PATCH', `/v1/spaces/${spaceId}`, { title: 'Renamed' })).resolves.toMatchObject({ status: 200 })
    await client.close()
    expect(client.alive).toBe(false)
    const wal = join(dataDir, 'quire.db-wal')
    expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true)
    const db = new Database(join(dataDir, 'quire.db'), { readonly: true })
    expect(db.prepare('SELECT title FROM spaces WHERE id = ?').pluck().get(spaceId)).toBe('Renamed')
    db.close()
  }, 90_000)
})

describe('the HTTP API through a host process', () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer({ hostProcess: true })
  }, 60_000)
  afterAll(() => t?.close())

  /** A space whose primary content holds `pages` (title → markdown), merged through a change request. */
  async function seededSpace(changes: unknown[]) {
    const spaceId = await t.emptySpace()
    const cr = (await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Seed' })).body
    expect((await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes })).status).toBe(200)
    expect((await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).body.result).toBe('merge')
    const pages = (await t.owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as any[]
    return { spaceId, pages: Object.fromEntries(pages.map((p) => [p.title, p.id])) as Record<string, string> }
  }

  it('has no API in the parent: the workspace is the host process’s', () => {
    expect(() => t.server.api).toThrow('The workspaces run in a host process')
    expect(t.server.host?.alive).toBe(true)
  })

  it('organizations and members, with users made in the host', async () => {
    const editor = await t.user({ role: 'edit', name: 'Edda' })
    expect((await editor.api.get('/v1/user')).body).toMatchObject({ id: editor.user.id, displayName: 'Edda' })
    const members = await t.owner.api.get(`/v1/orgs/${t.orgId}/members`, { limit: 100 })
    expect(members.status).toBe(200)
    expect(members.body.items.map((m: any) => m.user.id)).toEqual(expect.arrayContaining([t.owner.user.id, editor.user.id]))
    expect((await editor.api.patch(`/v1/orgs/${t.orgId}`, { title: 'Nope' })).status).toBe(403)
    expect((await t.anonymous.get('/v1/orgs')).status).toBe(401)
  })

  it("spaces, on the host's clock", async () => {
    t.clock.set('2026-04-02T08:00:00.000Z')
    const spaceId = await t.emptySpace('Handbook')
    const space = await t.owner.api.get(`/v1/spaces/${spaceId}`)
    expect(space.body).toMatchObject({ id: spaceId, title: 'Handbook', createdAt: '2026-04-02T08:00:00.000Z' })
    expect((await t.owner.api.patch(`/v1/spaces/${spaceId}`, { title: 'Guide book' })).body.title).toBe('Guide book')
    expect((await t.owner.api.patch(`/v1/spaces/${spaceId}`, { title: 5 })).status).toBe(400)
  })

  it('pages, change requests and merges, search, and comments', async () => {
    const { spaceId, pages } = await seededSpace([
      { operation: 'insert_page', title: 'Getting started', document: { markdown: '# Setup\n\nRun the wizard first.\n' } }
    ])
    const page = await t.owner.api.get(`/v1/spaces/${spaceId}/content/page/${pages['Getting started']}`, { format: 'markdown' })
    expect(page.status).toBe(200)
    expect(page.body.markdown).toContain('Run the wizard first.')
    const found = await t.owner.api.get(`/v1/spaces/${spaceId}/search`, { query: 'wizard' })
    expect(found.body.items.map((i: any) => i.id)).toEqual([pages['Getting started']])
    const comment = await t.owner.api.post(`/v1/spaces/${spaceId}/comments`, {
      page: pages['Getting started'],
      body: { markdown: 'Which wizard?' }
    })
    expect(comment.status).toBe(200)
    const reply = await t.owner.api.post(`/v1/spaces/${spaceId}/comments/${comment.body.id}/replies`, { body: { markdown: 'Setup' } })
    expect(reply.status).toBe(200)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/comments`)).body.items).toHaveLength(1)
  })

  it('files: uploaded in a batch, downloaded byte for byte', async () => {
    const png = makePng(4, 3)
    const { spaceId } = await seededSpace([{ operation: 'insert_files', files: [{ name: 'logo.png', base64: png.toString('base64') }] }])
    const [file] = (await t.owner.api.get(`/v1/spaces/${spaceId}/content/files`)).body.items
    expect(file).toMatchObject({ name: 'logo.png', contentType: 'image/png', size: png.byteLength })
    const download = await fetch(file.downloadURL)
    expect(download.status).toBe(200)
    expect(download.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await download.arrayBuffer()).equals(png)).toBe(true)
  })

  it('sites', async () => {
    const site = await t.owner.api.post(`/v1/orgs/${t.orgId}/sites`, { title: 'Docs site' })
    expect(site.status).toBe(201)
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/sites/${site.body.id}`)).body.title).toBe('Docs site')
    expect((await t.owner.api.post(`/v1/orgs/${t.orgId}/sites`, { title: 'x'.repeat(300) })).status).toBe(400)
  })

  it('the one workspace of a --data host: listed, not switchable', async () => {
    const list = await t.owner.api.get('/app/workspaces')
    expect(list.body).toMatchObject({ switchable: false, items: [{ active: true }] })
    expect((await t.anonymous.get('/app/workspaces')).status).toBe(401)
    expect((await t.owner.api.post('/app/workspaces', { name: 'Second' })).status).toBe(409)
  })

  it('keeps the parent responsive while the host merges 1,000 new pages', async () => {
    const spaceId = await t.emptySpace('Big')
    const cr = (await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Many pages' })).body
    for (let batch = 0; batch < 20; batch++) {
      const changes = Array.from({ length: 50 }, (_, i) => ({
        operation: 'insert_page',
        title: `Page ${batch * 50 + i}`,
        document: { markdown: `Words of page ${batch * 50 + i}: ${'lorem ipsum dolor sit amet '.repeat(20)}\n` }
      }))
      expect((await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes })).status).toBe(200)
    }
    // A timer every 5 ms: how late does it fire while the merge runs?
    let last = performance.now()
    let maxLate = 0
    let ticks = 0
    const timer = setInterval(() => {
      const now = performance.now()
      maxLate = Math.max(maxLate, now - last - 5)
      last = now
      ticks++
    }, 5)
    const started = performance.now()
    const merged = await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)
    const took = performance.now() - started
    clearInterval(timer)
    expect(merged.body.result).toBe('merge')
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages).toHaveLength(1000)
    expect(ticks).toBeGreaterThan(0)
    // In process, the timer would wait for the whole merge (`took`).
    expect(maxLate, `the merge took ${Math.round(took)} ms`).toBeLessThan(20)
  }, 120_000)
})

describe('a home served through a host process', () => {
  it('lists, creates and activates workspaces, moves workspace files both ways as bytes, and connects one to a server', async () => {
    const home = mkdtempSync(join(tmpdir(), 'quire-host-home-'))
    const token = newToken()
    const [server, remote] = await Promise.all([startServer({ home, port: 0, token, hostProcess: true }), startTestServer()])
    try {
      const api = httpClient(server.url, token)
      const list = await api.get('/app/workspaces')
      expect(list.body).toMatchObject({ switchable: true, items: [{ name: 'Local', active: true }] })
      const firstId = list.body.active
      const local = await api.get('/v1/orgs')
      expect(local.status).toBe(200)
      expect(local.headers.get('quire-workspace')).toBe(firstId)

      const second = await api.post('/app/workspaces', { name: 'Second' })
      expect(second.status).toBe(201)
      expect((await api.post(`/app/workspaces/${second.body.id}/activate`)).body).toMatchObject({ active: true })
      expect((await api.get('/v1/orgs')).headers.get('quire-workspace')).toBe(second.body.id)
      // A window still showing the first workspace is refused before anything is read.
      const stale = await fetch(`${server.url}/v1/orgs`, { headers: { authorization: `Bearer ${token}`, 'quire-workspace': firstId } })
      expect(stale.status).toBe(409)

      // The backup is bytes (an SQLite file) on the way out, and the same bytes on the way in.
      const backup = await fetch(`${server.url}/app/workspaces/${firstId}/backup`, { headers: { authorization: `Bearer ${token}` } })
      expect(backup.status).toBe(200)
      const bytes = Buffer.from(await backup.arrayBuffer())
      expect(bytes.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000')
      const opened = await fetch(`${server.url}/app/workspaces/open?name=Restored`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        body: bytes
      })
      expect(opened.status).toBe(201)
      expect((await api.get('/app/workspaces')).body.items.map((w: any) => w.name)).toEqual(['Local', 'Second', 'Restored'])

      // A workspace connected to another server: its /v1 is that server's, reached from the host process.
      const connected = await api.post('/app/workspaces', { name: 'Team', remote: { url: remote.url, token: remote.owner.token } })
      expect(connected.status).toBe(201)
      expect(connected.body.remote).toMatchObject({ url: remote.url, account: { id: remote.owner.user.id } })
      expect((await api.post(`/app/workspaces/${connected.body.id}/activate`)).status).toBe(200)
      const orgs = await api.get('/v1/orgs')
      expect(orgs.status).toBe(200)
      expect(orgs.body.items.map((o: any) => o.id)).toEqual([remote.orgId])
      expect(orgs.headers.get('quire-remote-status')).toBe('online')
      expect((await httpClient(server.url).get('/v1/orgs')).status).toBe(401)
    } finally {
      await server.close()
      await remote.close()
    }
  }, 60_000)
})
