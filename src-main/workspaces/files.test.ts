// Backing up a workspace as a download and opening a workspace file, over the HTTP API of a `--home` server.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import type { Workspace, WorkspaceList } from '../../src-shared/workspaces'
import { startServer, type RunningServer } from '../server/server'
import { tempDirs } from '../testing/tempDirs'

/** The server's token: at least 32 characters, as `--token` requires. */
const T0 = 'quire-files-test-token-0123456789abcdef'

const tempDir = tempDirs('files')
const servers: RunningServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})

async function homeServer() {
  const home = tempDir()
  const server = await startServer({ home, port: 0, token: T0, searchThreads: 0 })
  servers.push(server)
  const ask = (method: string, path: string, init: { body?: string | Uint8Array; type?: string } = {}) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${T0}`, ...(init.type ? { 'content-type': init.type } : {}) },
      body: init.body
    })
  const json = async <T = any>(method: string, path: string, body?: unknown) => {
    const res = await ask(method, path, body === undefined ? {} : { body: JSON.stringify(body), type: 'application/json' })
    const text = await res.text()
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T }
  }
  /** A new workspace holding one space of each title, not active. */
  const workspaceWith = async (name: string, titles: string[]) => {
    const ws = (await json<Workspace>('POST', '/app/workspaces', { name })).body
    await json('POST', `/app/workspaces/${ws.id}/activate`)
    const orgId = (await json('GET', '/v1/orgs')).body.items[0].id
    for (const title of titles) await json('POST', `/v1/orgs/${orgId}/spaces`, { title })
    await json('POST', '/app/workspaces/local/activate')
    return ws
  }
  const spaceTitles = async () => {
    const orgId = (await json('GET', '/v1/orgs')).body.items[0].id
    return (await json('GET', `/v1/orgs/${orgId}/spaces?limit=100`)).body.items.map((s: { title: string }) => s.title)
  }
  return { home, server, ask, json, workspaceWith, spaceTitles }
}

const upload = (bytes: Uint8Array | string) => ({ body: bytes, type: 'application/vnd.sqlite3' })
const today = new Date().toISOString().slice(0, 10)

describe('GET /app/workspaces/{id}/backup', () => {
  it('answers a consistent copy as a download, and leaves no temporary file behind', async () => {
    const { home, ask, workspaceWith } = await homeServer()
    const ws = await workspaceWith('Product Handbook', ['Guide', 'API'])

    const res = await ask('GET', `/app/workspaces/${ws.id}/backup`)

    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/vnd.sqlite3')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="product-handbook-${today}.quire.db"`)
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length)
    const copy = join(tempDir(), 'copy.quire.db')
    writeFileSync(copy, bytes)
    const db = new Database(copy, { readonly: true, fileMustExist: true })
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    expect(db.prepare('SELECT title FROM spaces ORDER BY seq').pluck().all()).toEqual(['Guide', 'API'])
    db.close()
    expect(readdirSync(join(home, 'workspaces')).filter((name) => name.startsWith('.'))).toEqual([])
  })

  it('of the active workspace while a client keeps writing: every write answered before it began is in the copy', async () => {
    const { ask, json } = await homeServer()
    const orgId = (await json('GET', '/v1/orgs')).body.items[0].id
    const acknowledged: string[] = []
    let writing = true
    const writer = (async () => {
      for (let i = 1; writing; i++) {
        const res = await json('POST', `/v1/orgs/${orgId}/spaces`, { title: `Space ${i}` })
        if (res.status !== 201) throw new Error(`write ${i} answered ${res.status}`)
        acknowledged.push(`Space ${i}`)
      }
    })()
    while (acknowledged.length < 20) await new Promise((resolve) => setTimeout(resolve, 5))
    const before = [...acknowledged]

    const res = await ask('GET', '/app/workspaces/local/backup')
    const bytes = new Uint8Array(await res.arrayBuffer())

    writing = false
    await writer
    expect(res.status).toBe(200)
    const copy = join(tempDir(), 'local.quire.db')
    writeFileSync(copy, bytes)
    const db = new Database(copy, { readonly: true, fileMustExist: true })
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    const titles = db.prepare('SELECT title FROM spaces').pluck().all()
    db.close()
    expect(titles).toEqual(expect.arrayContaining(before))
  })

  it('answers 404 for an unknown workspace', async () => {
    const { json } = await homeServer()
    expect(await json('GET', '/app/workspaces/nope/backup')).toEqual({
      status: 404,
      body: { error: { code: 404, message: 'Workspace not found' } }
    })
  })
})

describe('POST /app/workspaces/open', () => {
  it('adds a workspace from a backup (same spaces), not switched to', async () => {
    const { home, ask, json, workspaceWith, spaceTitles } = await homeServer()
    const original = await workspaceWith('Handbook', ['Guide', 'API'])
    const backup = new Uint8Array(await (await ask('GET', `/app/workspaces/${original.id}/backup`)).arrayBuffer())

    const res = await ask('POST', `/app/workspaces/open?name=${encodeURIComponent('Handbook (restored)')}`, upload(backup))

    expect(res.status).toBe(201)
    const opened = (await res.json()) as Workspace
    expect(opened).toEqual({
      id: expect.stringMatching(/^handbook-restored-[a-z0-9]{6}$/),
      name: 'Handbook (restored)',
      createdAt: expect.any(String),
      active: false
    })
    expect(readdirSync(join(home, 'workspaces', opened.id))).toContain('quire.db')
    expect((await json<WorkspaceList>('GET', '/app/workspaces')).body.items.map((w) => w.name)).toEqual([
      'Local',
      'Handbook',
      'Handbook (restored)'
    ])
    expect((await json('POST', `/app/workspaces/${opened.id}/activate`)).status).toBe(200)
    expect(await spaceTitles()).toEqual(['Guide', 'API'])
    expect(readdirSync(join(home, 'workspaces')).filter((name) => name.startsWith('.'))).toEqual([])
  })

  it('refuses a file that is not a workspace, a damaged one and one from a newer Quire with 400; nothing is created', async () => {
    const { home, ask, json, workspaceWith } = await homeServer()
    const ws = await workspaceWith('Handbook', ['Guide'])
    const good = Buffer.from(await (await ask('GET', `/app/workspaces/${ws.id}/backup`)).arrayBuffer())
    const newer = join(tempDir(), 'newer.quire.db')
    writeFileSync(newer, good)
    const db = new Database(newer)
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'from_the_future', '2030-01-01')").run()
    db.close()
    const damaged = Buffer.from(good)
    damaged.fill(0x5a, damaged.readUInt16BE(16) * 2)
    const before = (await json<WorkspaceList>('GET', '/app/workspaces')).body
    const folders = readdirSync(join(home, 'workspaces')).sort()
    const refusal = async (body: Uint8Array | string) => {
      const res = await ask('POST', '/app/workspaces/open?name=Restored', upload(body))
      return { status: res.status, body: (await res.json()) as { error: { code: number; message: string } } }
    }

    expect(await refusal('garbage, not a database')).toEqual({
      status: 400,
      body: { error: { code: 400, message: 'file: is not a Quire workspace: it is not an SQLite database' } }
    })
    expect(await refusal('')).toEqual({ status: 400, body: { error: { code: 400, message: 'file: is empty' } } })
    const newerRefusal = await refusal(readFileSync(newer))
    expect(newerRefusal.status).toBe(400)
    expect(newerRefusal.body.error.message).toMatch(
      /^file: comes from a newer version of Quire \(its schema has version 999; this version knows up to \d+\)/
    )
    const damagedRefusal = await refusal(damaged)
    expect(damagedRefusal.status).toBe(400)
    expect(damagedRefusal.body.error.message).toMatch(/^file: is damaged/)

    expect((await json<WorkspaceList>('GET', '/app/workspaces')).body).toEqual(before)
    expect(readdirSync(join(home, 'workspaces')).sort()).toEqual(folders)
  })

  it('checks the name and the content type first (400, 409, 415)', async () => {
    const { ask } = await homeServer()
    const answer = async (path: string, init: { body?: string | Uint8Array; type?: string }) => {
      const res = await ask('POST', path, init)
      return { status: res.status, body: await res.json() }
    }
    const big = new Uint8Array(2 * 1024 * 1024)
    expect(await answer('/app/workspaces/open', upload(big))).toEqual({
      status: 400,
      body: { error: { code: 400, message: 'name: is required' } }
    })
    expect(await answer('/app/workspaces/open?name=LOCAL', upload(big))).toEqual({
      status: 409,
      body: { error: { code: 409, message: 'name: a workspace named “Local” already exists' } }
    })
    expect(await answer('/app/workspaces/open?name=X', { body: '{}', type: 'application/json' })).toEqual({
      status: 415,
      body: {
        error: {
          code: 415,
          message: 'content-type: must be application/vnd.sqlite3 or application/octet-stream, with the workspace file as the body'
        }
      }
    })
  })
})
