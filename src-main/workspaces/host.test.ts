import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Workspace, WorkspaceList } from '../../src-shared/workspaces'
import { openLocalBackend } from '../backend/localBackend'
import type { WorkspaceBackend } from '../backend/backend'
import { WorkspaceHost } from './host'
import { HOME_LOCK_FILE } from './homeLock'
import { REGISTRY_FILE } from './registry'
import { callHost } from '../testing/hostCalls'

const homes: string[] = []
const hosts: WorkspaceHost[] = []
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close()
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quire-host-'))
  homes.push(dir)
  return dir
}

/** A host over real local backends (the embedded API), as the desktop app opens it. */
async function realHost(home = tempHome()) {
  const host = await WorkspaceHost.open({ home, open: ({ dataDir }) => openLocalBackend({ dataDir }), warn: () => {} })
  hosts.push(host)
  return host
}

function deferred<T = void>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

/** Backends that only record what happens to them; `failOn` ids refuse to open. */
function fakeBackends(options: { failOn?: string[] } = {}) {
  const events: string[] = []
  const gates = new Map<string, Promise<void>>()
  const open = async ({ id }: { id: string; dataDir: string }): Promise<WorkspaceBackend> => {
    if (options.failOn?.includes(id)) throw new Error(`cannot open ${id}`)
    events.push(`open ${id}`)
    const backend: WorkspaceBackend = {
      async fetch(request) {
        const gate = gates.get(new URL(request.url).pathname)
        if (gate) await gate
        return new Response(JSON.stringify({ answeredBy: id }), { status: 200 })
      },
      request: (request) => backend.fetch(request),
      async close() {
        events.push(`close ${id}`)
      }
    }
    return backend
  }
  return { events, gates, open }
}

describe('workspace host', () => {
  it('lists, creates (initialized, not switched to), activates and remembers the active one', async () => {
    const home = tempHome()
    const host = await realHost(home)

    const list = await callHost<WorkspaceList>(host, 'GET', '/app/workspaces')
    expect(list).toEqual({
      status: 200,
      body: { items: [{ id: 'local', name: 'Local', createdAt: expect.any(String), active: true }], active: 'local', switchable: true }
    })

    const created = await callHost<Workspace>(host, 'POST', '/app/workspaces', { name: 'Handbook' })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      id: expect.stringMatching(/^handbook-[a-z0-9]{6}$/),
      name: 'Handbook',
      createdAt: expect.any(String),
      active: false
    })
    expect(existsSync(join(home, 'workspaces', created.body.id, 'quire.db'))).toBe(true)
    expect(host.activeId).toBe('local')

    const activated = await callHost<Workspace>(host, 'POST', `/app/workspaces/${created.body.id}/activate`)
    expect(activated).toEqual({ status: 200, body: { ...created.body, active: true } })
    expect(JSON.parse(readFileSync(join(home, REGISTRY_FILE), 'utf8')).active).toBe(created.body.id)
    const after = await callHost<WorkspaceList>(host, 'GET', '/app/workspaces')
    expect(after.body.active).toBe(created.body.id)
    expect(after.body.items.map((w) => [w.name, w.active])).toEqual([
      ['Local', false],
      ['Handbook', true]
    ])

    // Reopening the home opens the remembered workspace.
    await host.close()
    hosts.splice(hosts.indexOf(host), 1)
    const again = await realHost(home)
    expect(again.activeId).toBe(created.body.id)
  })

  it('keeps each workspace’s data apart: a space created in A is not in B', async () => {
    const host = await realHost()
    const b = (await callHost<Workspace>(host, 'POST', '/app/workspaces', { name: 'Sandbox' })).body
    const orgA = (await callHost(host, 'GET', '/v1/orgs')).body.items[0].id
    const space = await callHost(host, 'POST', `/v1/orgs/${orgA}/spaces`, { title: 'Only in Local' })
    expect(space.status).toBe(201)

    await callHost(host, 'POST', `/app/workspaces/${b.id}/activate`)
    const orgsB = (await callHost(host, 'GET', '/v1/orgs')).body.items
    expect(orgsB).toHaveLength(1)
    expect(orgsB[0].id).not.toBe(orgA)
    expect((await callHost(host, 'GET', `/v1/orgs/${orgsB[0].id}/spaces`)).body.count).toBe(0)
    expect((await callHost(host, 'GET', `/v1/spaces/${space.body.id}`)).status).toBe(404)

    await callHost(host, 'POST', '/app/workspaces/local/activate')
    expect((await callHost(host, 'GET', `/v1/spaces/${space.body.id}`)).body.title).toBe('Only in Local')
  })

  it('renames, refuses bad and duplicate names, and deletes a workspace with its folder', async () => {
    const home = tempHome()
    const host = await realHost(home)
    const ws = (await callHost<Workspace>(host, 'POST', '/app/workspaces', { name: 'Draft' })).body

    expect(await callHost(host, 'PATCH', `/app/workspaces/${ws.id}`, { name: ' Final ' })).toEqual({
      status: 200,
      body: { ...ws, name: 'Final' }
    })
    expect(await callHost(host, 'PATCH', `/app/workspaces/${ws.id}`, { name: 'local' })).toEqual({
      status: 409,
      body: { error: { code: 409, message: 'name: a workspace named “Local” already exists' } }
    })
    expect(await callHost(host, 'POST', '/app/workspaces', {})).toEqual({
      status: 400,
      body: { error: { code: 400, message: 'name: is required' } }
    })
    expect((await callHost(host, 'POST', '/app/workspaces', { name: 'x'.repeat(65) })).body.error.message).toBe(
      'name: must be at most 64 characters'
    )
    expect((await callHost(host, 'PATCH', '/app/workspaces/nope', { name: 'X' })).status).toBe(404)

    expect((await callHost(host, 'DELETE', '/app/workspaces/local')).status).toBe(409)
    expect((await callHost(host, 'DELETE', `/app/workspaces/${ws.id}`)).status).toBe(204)
    expect(existsSync(join(home, 'workspaces', ws.id))).toBe(false)
    expect(readdirSync(join(home, 'workspaces'))).toEqual(['local'])
    expect((await callHost(host, 'DELETE', `/app/workspaces/${ws.id}`)).status).toBe(404)
    expect((await callHost<WorkspaceList>(host, 'GET', '/app/workspaces')).body.items.map((w) => w.name)).toEqual(['Local'])
  })

  it('refuses to delete the active workspace with a message naming it', async () => {
    const host = await realHost()
    const res = await callHost(host, 'DELETE', '/app/workspaces/local')
    expect(res).toEqual({
      status: 409,
      body: { error: { code: 409, message: expect.stringContaining('“Local” is the active workspace') } }
    })
    expect(host.activeId).toBe('local')
  })

  it('a switch that cannot open the new workspace keeps the old one active and answers the error', async () => {
    const home = tempHome()
    const fake = fakeBackends()
    const host = await WorkspaceHost.open({ home, open: fake.open, warn: () => {} })
    hosts.push(host)
    const ws = await host.create({ name: 'Broken' })
    await host.close()
    hosts.pop()

    const failing = fakeBackends({ failOn: [ws.id] })
    const again = await WorkspaceHost.open({ home, open: failing.open, warn: () => {} })
    hosts.push(again)
    const res = await again.fetch(new Request(`http://x/app/workspaces/${ws.id}/activate`, { method: 'POST' }))
    expect(await res.json()).toEqual({ error: { code: 500, message: `Workspace “Broken” could not be opened: cannot open ${ws.id}` } })
    expect(again.activeId).toBe('local')
    expect(JSON.parse(readFileSync(join(home, REGISTRY_FILE), 'utf8')).active).toBe('local')
    expect(await (await again.fetch(new Request('http://x/v1/orgs'))).json()).toEqual({ answeredBy: 'local' })
    expect(failing.events).toEqual(['open local'])
  })

  it('a request in flight on the old backend finishes during a switch; the old backend closes after it', async () => {
    const fake = fakeBackends()
    const host = await WorkspaceHost.open({ home: tempHome(), open: fake.open, warn: () => {} })
    hosts.push(host)
    const ws = await host.create({ name: 'Next' })
    const gate = deferred()
    fake.gates.set('/v1/slow', gate.promise)

    const slow = host.fetch(new Request('http://x/v1/slow'))
    await host.activate(ws.id)
    // The new backend answers new requests at once; the old one is still open for the slow one.
    expect(await (await host.fetch(new Request('http://x/v1/orgs'))).json()).toEqual({ answeredBy: ws.id })
    expect(fake.events).not.toContain('close local')

    gate.resolve()
    expect(await (await slow).json()).toEqual({ answeredBy: 'local' })
    await host.close()
    hosts.pop()
    expect(fake.events.filter((e) => e.endsWith('local'))).toEqual(['open local', 'close local'])
  })

  it('runs operations one at a time, in order', async () => {
    const fake = fakeBackends()
    const host = await WorkspaceHost.open({ home: tempHome(), open: fake.open, warn: () => {} })
    hosts.push(host)
    const [a, b] = await Promise.all([host.create({ name: 'A' }), host.create({ name: 'B' })])
    const results = await Promise.allSettled([host.activate(a.id), host.remove(a.id), host.activate(b.id), host.remove(a.id)])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled'])
    expect(host.list().items.map((w) => w.name)).toEqual(['Local', 'B'])
    expect(host.activeId).toBe(b.id)
  })

  it('does not list a workspace whose database could not be created, nor leave its folder', async () => {
    const home = tempHome()
    let fail = false
    const fake = fakeBackends()
    const host = await WorkspaceHost.open({
      home,
      open: async (ws) => {
        if (fail) throw new Error('disk full')
        return fake.open(ws)
      },
      warn: () => {}
    })
    hosts.push(host)
    fail = true
    await expect(host.create({ name: 'Doomed' })).rejects.toThrow('disk full')
    expect(host.list().items.map((w) => w.name)).toEqual(['Local'])
    expect(readdirSync(join(home, 'workspaces'))).toEqual([])
  })

  it('holds its home while open (a lock file naming this process) and lets go when closed', async () => {
    const home = tempHome()
    const host = await WorkspaceHost.open({ home, open: fakeBackends().open, warn: () => {} })
    expect(JSON.parse(readFileSync(join(home, HOME_LOCK_FILE), 'utf8')).pid).toBe(process.pid)
    await host.close()
    expect(existsSync(join(home, HOME_LOCK_FILE))).toBe(false)
    // A host that cannot open any workspace, not even a new one, does not keep the home either.
    const refuse = async (): Promise<WorkspaceBackend> => {
      throw new Error('disk full')
    }
    await expect(WorkspaceHost.open({ home, open: refuse, warn: () => {} })).rejects.toThrow('disk full')
    expect(existsSync(join(home, HOME_LOCK_FILE))).toBe(false)
  })

  it('answers 404 for operations it does not have', async () => {
    const host = await WorkspaceHost.open({ home: tempHome(), open: fakeBackends().open, warn: () => {} })
    hosts.push(host)
    const res = await host.fetch(new Request('http://x/app/workspaces/local', { method: 'GET' }))
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ error: { code: 404, message: 'No operation GET /app/workspaces/local' } })
    const bad = await host.fetch(new Request('http://x/app/workspaces', { method: 'POST', body: '{nope' }))
    expect(await bad.json()).toEqual({ error: { code: 400, message: 'body: must be valid JSON' } })
  })

  it('checks a conflict resolution field by field before anything is asked of the workspace', async () => {
    const host = await realHost()
    const resolve = (body: unknown) => callHost(host, 'POST', '/app/workspaces/local/outbox/1/resolve', body)
    expect(await resolve({})).toEqual({
      status: 400,
      body: { error: { code: 400, message: 'pages: must be a non-empty array of choices' } }
    })
    expect((await resolve({ pages: [] })).body.error.message).toBe('pages: must be a non-empty array of choices')
    expect((await resolve({ pages: ['x'] })).body.error.message).toBe('pages/0: must be an object')
    expect((await resolve({ pages: [{ keep: 'mine' }] })).body.error.message).toBe('pages/0/page: must be a page id')
    expect((await resolve({ pages: [{ page: 'p1', keep: 'both' }] })).body.error.message).toBe('pages/0/keep: must be one of mine, theirs')
    expect((await resolve({ pages: [{ page: 'p1', keep: 'mine', markdown: 'x' }] })).body.error.message).toBe(
      'pages/0: must have keep or markdown, not both'
    )
    expect((await resolve({ pages: [{ page: 'p1', markdown: 3 }] })).body.error.message).toBe('pages/0/markdown: must be a string')
    expect(
      (
        await resolve({
          pages: [
            { page: 'p1', keep: 'mine' },
            { page: 'p1', keep: 'theirs' }
          ]
        })
      ).body.error.message
    ).toBe('pages/1/page: is chosen twice')
    // Well formed, on a workspace of this computer: it has no outbox.
    expect(await resolve({ pages: [{ page: 'p1', keep: 'mine' }] })).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringContaining('on this computer') } }
    })
  })
})
