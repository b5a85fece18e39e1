// `/app/workspaces` over HTTP: a `--home` server keeps and switches several workspaces; a `--data` server
// lists its one workspace and refuses writes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SINGLE_WORKSPACE_MESSAGE, type Workspace, type WorkspaceList } from '../../src-shared/workspaces'
import { startServer, type RunningServer } from './server'

/** The server's token: at least 32 characters, as `--token` requires. */
const T0 = 'quire-test-owner-token-0123456789abcdef'

const servers: RunningServer[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quire-server-'))
  dirs.push(dir)
  return dir
}

async function start(options: Parameters<typeof startServer>[0]): Promise<RunningServer> {
  const server = await startServer({ port: 0, ...options })
  servers.push(server)
  return server
}

async function stop(server: RunningServer): Promise<void> {
  servers.splice(servers.indexOf(server), 1)
  await server.close()
}

function client(server: RunningServer, token: string | null = server.token ?? null) {
  return async <T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const headers: Record<string, string> = {}
    if (token) headers.authorization = `Bearer ${token}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : undefined }
  }
}

const envelope = (code: number, message: string | RegExp) => ({
  error: { code, message: typeof message === 'string' ? message : expect.stringMatching(message) }
})

describe('startServer({ home })', () => {
  it('answers 401 without the server token, for reads and writes', async () => {
    const server = await start({ home: tempDir(), token: T0 })
    for (const [method, path] of [
      ['GET', '/app/workspaces'],
      ['POST', '/app/workspaces'],
      ['PATCH', '/app/workspaces/local'],
      ['DELETE', '/app/workspaces/local'],
      ['POST', '/app/workspaces/local/activate']
    ] as const) {
      expect(await client(server, null)(method, path, method === 'GET' ? undefined : { name: 'X' }), `${method} ${path}`).toEqual({
        status: 401,
        body: envelope(401, 'Authentication required: send Authorization: Bearer <token>')
      })
      expect((await client(server, 'wrong')(method, path)).status).toBe(401)
    }
    expect((await client(server)('GET', '/app/workspaces')).body.items).toHaveLength(1)
  })

  it('lists, creates, activates (/v1 then answers the new workspace), renames and deletes', async () => {
    const home = tempDir()
    const server = await start({ home, token: T0 })
    const api = client(server)
    const localOrg = (await api('GET', '/v1/orgs')).body.items[0].id

    expect(await api('GET', '/app/workspaces')).toEqual({
      status: 200,
      body: { items: [{ id: 'local', name: 'Local', createdAt: expect.any(String), active: true }], active: 'local', switchable: true }
    })

    const created = await api<Workspace>('POST', '/app/workspaces', { name: 'Handbook', ignored: true })
    expect(created).toEqual({
      status: 201,
      body: { id: expect.stringMatching(/^handbook-[a-z0-9]{6}$/), name: 'Handbook', createdAt: expect.any(String), active: false }
    })
    expect((await api('GET', '/v1/orgs')).body.items[0].id, 'creating does not switch').toBe(localOrg)

    const activated = await api<Workspace>('POST', `/app/workspaces/${created.body.id}/activate`)
    expect(activated).toEqual({ status: 200, body: { ...created.body, active: true } })
    const orgs = (await api('GET', '/v1/orgs')).body.items
    expect(orgs).toHaveLength(1)
    expect(orgs[0].id, 'the server token is an owner token in the new workspace').not.toBe(localOrg)
    expect((await api('GET', `/v1/orgs/${orgs[0].id}/spaces`)).body.count).toBe(0)
    expect(server.api.services.db.name).toContain(created.body.id)

    const renamed = await api<Workspace>('PATCH', `/app/workspaces/${created.body.id}`, { name: 'Product handbook' })
    expect(renamed).toEqual({ status: 200, body: { ...created.body, name: 'Product handbook', active: true } })
    expect((await api<WorkspaceList>('GET', '/app/workspaces')).body).toMatchObject({
      active: created.body.id,
      items: [{ name: 'Local' }, { name: 'Product handbook' }]
    })

    await api('POST', '/app/workspaces/local/activate')
    expect((await api('GET', '/v1/orgs')).body.items[0].id).toBe(localOrg)
    expect(await api('DELETE', `/app/workspaces/${created.body.id}`)).toEqual({ status: 204, body: undefined })
    expect((await api<WorkspaceList>('GET', '/app/workspaces')).body.items.map((w) => w.id)).toEqual(['local'])
  })

  it('names the answering workspace, and refuses a request meant for the one another window switched away from', async () => {
    const server = await start({ home: tempDir(), token: T0 })
    const api = client(server)
    const ask = (path: string, shown: string, init: RequestInit = {}) =>
      fetch(`${server.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${T0}`, 'content-type': 'application/json', 'quire-workspace': shown }
      })

    const first = await fetch(`${server.url}/v1/user`, { headers: { authorization: `Bearer ${T0}` } })
    expect(first.headers.get('quire-workspace')).toBe('local')
    expect((await ask('/v1/orgs', 'local')).status).toBe(200)

    const other = (await api<Workspace>('POST', '/app/workspaces', { name: 'Sandbox' })).body
    await api('POST', `/app/workspaces/${other.id}/activate`)
    // A window still showing "local" writes: refused, and the new workspace gets nothing.
    const refused = await ask('/v1/orgs', 'local', { method: 'POST', body: JSON.stringify({ title: 'Meant for local' }) })
    expect(refused.status).toBe(409)
    expect(refused.headers.get('quire-workspace')).toBe(other.id)
    expect(await refused.json()).toEqual(envelope(409, 'Another window switched to another workspace: this window now shows that one'))
    expect((await api('GET', '/v1/orgs')).body.items.map((o: { title: string }) => o.title)).toEqual(['My organization'])
    // Asked for the workspace now open, the same request is answered.
    expect((await ask('/v1/orgs', other.id, { method: 'POST', body: JSON.stringify({ title: 'Meant for sandbox' }) })).status).toBe(201)
  })

  it('answers 400 for a missing or bad name, 409 for a duplicate one; nothing changes', async () => {
    const home = tempDir()
    const server = await start({ home, token: T0 })
    const api = client(server)
    const before = readFileSync(join(home, 'workspaces.json'), 'utf8')

    expect(await api('POST', '/app/workspaces', {})).toEqual({ status: 400, body: envelope(400, 'name: is required') })
    expect(await api('POST', '/app/workspaces')).toEqual({ status: 400, body: envelope(400, 'name: is required') })
    expect(await api('POST', '/app/workspaces', { name: 7 })).toEqual({ status: 400, body: envelope(400, 'name: must be string') })
    expect(await api('POST', '/app/workspaces', { name: '  ' })).toEqual({ status: 400, body: envelope(400, 'name: must not be blank') })
    expect(await api('POST', '/app/workspaces', { name: 'x'.repeat(65) })).toEqual({
      status: 400,
      body: envelope(400, 'name: must be at most 64 characters')
    })
    expect(await api('POST', '/app/workspaces', '{"name":')).toEqual({ status: 400, body: envelope(400, 'body: must be valid JSON') })
    expect(await api('POST', '/app/workspaces', { name: ' LOCAL ' })).toEqual({
      status: 409,
      body: envelope(409, 'name: a workspace named “Local” already exists')
    })
    expect((await api('POST', '/app/workspaces', { name: 'y'.repeat(70_000) })).status).toBe(413)
    expect(readFileSync(join(home, 'workspaces.json'), 'utf8')).toBe(before)

    const other = (await api<Workspace>('POST', '/app/workspaces', { name: 'Other' })).body
    expect(await api('PATCH', `/app/workspaces/${other.id}`, { name: 'local' })).toEqual({ status: 409, body: envelope(409, /^name: /) })
    expect(await api('PATCH', `/app/workspaces/${other.id}`, { name: '' })).toEqual({
      status: 400,
      body: envelope(400, 'name: must not be blank')
    })
    expect((await api<WorkspaceList>('GET', '/app/workspaces')).body.items.map((w) => w.name)).toEqual(['Local', 'Other'])
  })

  it('answers 404 for unknown ids and 409 for deleting the active workspace', async () => {
    const server = await start({ home: tempDir(), token: T0 })
    const api = client(server)
    const notFound = { status: 404, body: envelope(404, 'Workspace not found') }
    expect(await api('PATCH', '/app/workspaces/nope', { name: 'X' })).toEqual(notFound)
    expect(await api('DELETE', '/app/workspaces/nope')).toEqual(notFound)
    expect(await api('POST', '/app/workspaces/nope/activate')).toEqual(notFound)
    expect(await api('DELETE', '/app/workspaces/local')).toEqual({ status: 409, body: envelope(409, /“Local” is the active workspace/) })
    expect((await api('GET', '/v1/orgs')).status).toBe(200)
  })

  it('remembers the active workspace across a restart on the same home', async () => {
    const home = tempDir()
    const first = await start({ home, token: T0 })
    const created = (await client(first)<Workspace>('POST', '/app/workspaces', { name: 'Sandbox' })).body
    await client(first)('POST', `/app/workspaces/${created.id}/activate`)
    const org = (await client(first)('GET', '/v1/orgs')).body.items[0].id
    await stop(first)

    expect(JSON.parse(readFileSync(join(home, 'workspaces.json'), 'utf8'))).toMatchObject({ version: 1, active: created.id })
    const second = await start({ home, token: T0 })
    expect((await client(second)<WorkspaceList>('GET', '/app/workspaces')).body.active).toBe(created.id)
    expect((await client(second)('GET', '/v1/orgs')).body.items[0].id).toBe(org)
    expect(second.bootstrapped).toBe(false)
  })

  it('starts on a home whose active workspace is a garbage file: serves a healthy one, lists the broken one with its problem', async () => {
    const home = tempDir()
    const first = await start({ home, token: T0 })
    const healthy = (await client(first)<Workspace>('POST', '/app/workspaces', { name: 'Healthy' })).body
    await stop(first)
    const broken = join(home, 'workspaces', 'local', 'quire.db')
    writeFileSync(broken, 'garbage, not a database')

    const server = await start({ home, token: T0 })

    const api = client(server)
    const list = (await api<WorkspaceList>('GET', '/app/workspaces')).body
    expect(list.active).toBe(healthy.id)
    expect(list.items.find((w) => w.id === 'local')?.problem).toEqual({
      kind: 'not-workspace',
      message: `${broken} is not a Quire workspace: it is not an SQLite database`,
      file: broken
    })
    expect((await api('GET', '/v1/orgs')).body.items).toHaveLength(1)
    const refused = await api('POST', '/app/workspaces/local/activate')
    expect(refused).toEqual({
      status: 409,
      body: envelope(409, /^Workspace “Local” cannot be opened: .* Restore it from a backup with “Open workspace file…”, or remove it$/)
    })
  })

  it('generates a token when none is given; it works in every workspace it opens', async () => {
    const server = await start({ home: tempDir() })
    expect(server.token).toMatch(/^qr_/)
    const api = client(server)
    const ws = (await api<Workspace>('POST', '/app/workspaces', { name: 'Two' })).body
    await api('POST', `/app/workspaces/${ws.id}/activate`)
    expect((await api('GET', '/v1/user')).status).toBe(200)
  })
})

describe('startServer({ dataDir })', () => {
  it('lists its one workspace, named after the folder, not switchable; every write answers 409', async () => {
    const data = join(tempDir(), 'team-docs')
    const server = await start({ dataDir: data, token: T0 })
    const api = client(server)

    expect(await api('GET', '/app/workspaces')).toEqual({
      status: 200,
      body: {
        items: [{ id: 'team-docs', name: 'team-docs', createdAt: expect.any(String), active: true }],
        active: 'team-docs',
        switchable: false
      }
    })
    const refused = { status: 409, body: envelope(409, SINGLE_WORKSPACE_MESSAGE) }
    expect(await api('POST', '/app/workspaces', { name: 'More' })).toEqual(refused)
    expect(await api('PATCH', '/app/workspaces/team-docs', { name: 'X' })).toEqual(refused)
    expect(await api('DELETE', '/app/workspaces/team-docs')).toEqual(refused)
    expect(await api('POST', '/app/workspaces/team-docs/activate')).toEqual(refused)
    expect((await client(server, null)('GET', '/app/workspaces')).status).toBe(401)
    expect((await client(server, 'wrong')('GET', '/app/workspaces')).status).toBe(401)
    expect((await api('GET', '/v1/orgs')).body.count).toBe(1)
  })

  it('answers a HEAD as its GET, headers without the body, over --data and --home alike', async () => {
    for (const server of [await start({ dataDir: tempDir(), token: T0 }), await start({ home: tempDir(), token: T0 })]) {
      const headers = { authorization: `Bearer ${T0}` }
      const get = await fetch(`${server.url}/v1/orgs`, { headers })
      const got = await get.text()
      const head = await fetch(`${server.url}/v1/orgs`, { method: 'HEAD', headers })
      expect(head.status).toBe(200)
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'))
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(got)))
      expect(await head.text()).toBe('')
      // What a GET refuses, a HEAD refuses the same way; nothing answers HEAD where no GET exists.
      expect((await fetch(`${server.url}/v1/orgs`, { method: 'HEAD' })).status).toBe(401)
      expect((await fetch(`${server.url}/v1/no-such-thing`, { method: 'HEAD', headers })).status).toBe(404)
    }
  })

  it('refuses a start with both or neither of dataDir and home', async () => {
    await expect(startServer({ port: 0 })).rejects.toThrow('either dataDir or home')
    await expect(startServer({ port: 0, dataDir: tempDir(), home: tempDir() })).rejects.toThrow('either dataDir or home')
  })
})
