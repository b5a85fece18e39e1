import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it, vi } from 'vitest'

/** The server's token: at least 32 characters, as `--token` requires. */
const T0 = 'quire-test-owner-token-0123456789abcdef'
const T1 = 'quire-test-other-token-0123456789abcdef'

// Each test starts real processes (tsx compiles on start): slow on a loaded machine.
vi.setConfig({ testTimeout: 180_000 })

const root = resolve(import.meta.dirname, '../..')
const children: ChildProcess[] = []
const dirs: string[] = []

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'quire-serve-'))
  dirs.push(dir)
  return dir
}

/** Starts `quire serve` as a separate process (as `npm run serve` does) and resolves once the ready line is printed. */
function serve(args: string[]): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/cli/main.ts', 'serve', '--port', '0', ...args], {
    cwd: root,
    env: { ...process.env, QUIRE_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  children.push(child)
  let out = ''
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line; output:\n${out}`)), 60_000)
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      const match = /Quire API listening on (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolvePromise({ child, url: match[1]!, output: () => out })
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}`)))
  })
}

/** Runs a `quire` command to its end: its exit code and what it printed. */
function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/cli/main.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  children.push(child)
  let out = ''
  let err = ''
  child.stdout.on('data', (c) => (out += c))
  child.stderr.on('data', (c) => (err += c))
  return new Promise((resolvePromise) => child.once('exit', (code) => resolvePromise({ code, out, err })))
}

const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' })

describe('quire serve', () => {
  it('bootstraps an empty data folder and answers GET /v1/orgs with the --token', async () => {
    const data = tempDir()
    const { url } = await serve(['--data', data, '--token', T0])
    const res = await fetch(`${url}/v1/orgs`, { headers: auth(T0) })
    expect(res.status).toBe(200)
    const body = (await res.json()) as any
    expect(body.count).toBe(1)
    expect(body.items[0]).toMatchObject({ object: 'organization', title: 'My organization' })
    expect((await fetch(`${url}/v1/orgs`)).status).toBe(401)
  })

  it('prints the bootstrap token once, and it works', async () => {
    const data = tempDir()
    const first = await serve(['--data', data])
    const token = /Token \(shown once\): (\S+)/.exec(first.output())?.[1]
    expect(token).toBeDefined()
    expect((await fetch(`${first.url}/v1/user`, { headers: auth(token!) })).status).toBe(200)
    first.child.kill('SIGTERM')
    await new Promise((r) => first.child.once('exit', r))
    const second = await serve(['--data', data])
    expect(second.output()).not.toContain('shown once')
    expect((await fetch(`${second.url}/v1/user`, { headers: auth(token!) })).status).toBe(200)
  })

  it('loses nothing when killed with SIGKILL right after a 201', async () => {
    const data = tempDir()
    const first = await serve(['--data', data, '--token', T0])
    const orgs = (await (await fetch(`${first.url}/v1/orgs`, { headers: auth(T0) })).json()) as any
    const created = await fetch(`${first.url}/v1/orgs/${orgs.items[0].id}/spaces`, {
      method: 'POST',
      headers: auth(T0),
      body: JSON.stringify({ title: 'Survivor' })
    })
    expect(created.status).toBe(201)
    const space = (await created.json()) as any
    first.child.kill('SIGKILL')
    await new Promise((r) => first.child.once('exit', r))

    const second = await serve(['--data', data, '--token', T0])
    const again = await fetch(`${second.url}/v1/spaces/${space.id}`, { headers: auth(T0) })
    expect(again.status).toBe(200)
    expect(((await again.json()) as any).title).toBe('Survivor')
  })

  it('stops cleanly on SIGTERM', async () => {
    const { child } = await serve(['--data', tempDir(), '--token', T0])
    child.kill('SIGTERM')
    const code = await new Promise((r) => child.once('exit', r))
    expect(code).toBe(0)
  })

  it('--home keeps several workspaces behind one token, printed when generated', async () => {
    const home = tempDir()
    const { url, output } = await serve(['--home', home])
    await vi.waitFor(() => expect(output()).toMatch(/(\?token=|Token \(this run\): )\S+/), { timeout: 10_000 })
    const token = /(?:\?token=|Token \(this run\): )(\S+)/.exec(output())![1]!
    const created = await fetch(`${url}/app/workspaces`, {
      method: 'POST',
      headers: auth(token),
      body: JSON.stringify({ name: 'Sandbox' })
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as any
    expect((await fetch(`${url}/app/workspaces/${id}/activate`, { method: 'POST', headers: auth(token) })).status).toBe(200)
    const list = (await (await fetch(`${url}/app/workspaces`, { headers: auth(token) })).json()) as any
    expect(list).toMatchObject({ active: id, switchable: true })
    expect(list.items.map((w: any) => w.name)).toEqual(['Local', 'Sandbox'])
    expect((await fetch(`${url}/v1/orgs`, { headers: auth(token) })).status).toBe(200)
    expect((await fetch(`${url}/app/workspaces`)).status).toBe(401)
  })

  it('quire backup copies a running --home server’s workspace under steady writes; serve --data FILE serves the copy', async () => {
    const home = tempDir()
    const { url } = await serve(['--home', home, '--token', T0])
    const orgId = ((await (await fetch(`${url}/v1/orgs`, { headers: auth(T0) })).json()) as any).items[0].id
    // A client writing one space after another, each counted once the server answered 201 (acknowledged).
    const acknowledged: string[] = []
    let writing = true
    const writer = (async () => {
      for (let i = 1; writing; i++) {
        const res = await fetch(`${url}/v1/orgs/${orgId}/spaces`, {
          method: 'POST',
          headers: auth(T0),
          body: JSON.stringify({ title: `Space ${i}` })
        })
        if (res.status !== 201) throw new Error(`write ${i} answered ${res.status}`)
        acknowledged.push(`Space ${i}`)
      }
    })()
    await vi.waitFor(() => expect(acknowledged.length).toBeGreaterThanOrEqual(10), { timeout: 60_000, interval: 20 })
    const before = [...acknowledged]
    const copy = join(tempDir(), 'local.quire.db')

    const backup = await run(['backup', '--home', home, '--workspace', 'Local', '--to', copy])

    writing = false
    await writer
    expect(backup).toMatchObject({ code: 0, err: '' })
    expect(backup.out).toContain(`Backed up ${join(home, 'workspaces', 'local', 'quire.db')} to ${copy}`)
    const db = new Database(copy, { readonly: true, fileMustExist: true })
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.close()
    // The copy opens anywhere as one workspace file: every space acknowledged before the backup began is in it.
    const restored = await serve(['--data', copy, '--token', T1])
    const orgs = (await (await fetch(`${restored.url}/v1/orgs`, { headers: auth(T1) })).json()) as any
    expect(orgs.items.map((o: any) => o.id)).toEqual([orgId])
    const titles: string[] = []
    for (let page: string | undefined, first = true; first || page; first = false) {
      const res = (await (
        await fetch(`${restored.url}/v1/orgs/${orgId}/spaces?limit=100${page ? `&page=${page}` : ''}`, { headers: auth(T1) })
      ).json()) as any
      titles.push(...res.items.map((s: any) => s.title))
      page = res.next?.page
    }
    expect(titles).toEqual(expect.arrayContaining(before))
    expect(titles.length).toBeLessThanOrEqual(acknowledged.length)
  })

  it('rejects --data together with --home', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/cli/main.ts', 'serve', '--data', tempDir(), '--home', tempDir()], {
      cwd: root
    })
    children.push(child)
    let err = ''
    child.stderr.on('data', (c) => (err += c))
    const code = await new Promise((r) => child.once('exit', r))
    expect(code).toBe(2)
    expect(err).toContain('either --data')
  })

  it('rejects a bad --port with a clear message', async () => {
    const { code, err } = await refused(['serve', '--port', 'abc'])
    expect(code).toBe(2)
    expect(err).toContain('--port must be a port number')
  })

  it('rejects a token shorter than 32 characters, from --token or QUIRE_TOKEN, before serving anything', async () => {
    const data = tempDir()
    const flag = await refused(['serve', '--port', '0', '--data', data, '--token', 'short'])
    expect(flag).toEqual({ code: 2, err: expect.stringContaining('quire: --token: must be at least 32 characters (it has 5)') })
    const env = await refused(['serve', '--port', '0', '--data', data], { QUIRE_TOKEN: 'x'.repeat(31) })
    expect(env).toEqual({ code: 2, err: expect.stringContaining('quire: QUIRE_TOKEN: must be at least 32 characters (it has 31)') })
    expect(readdirSync(data)).toEqual([])
  })
})

/** Runs the CLI expecting it to refuse: its exit code and what it wrote to stderr. */
async function refused(args: string[], env: Record<string, string> = {}): Promise<{ code: unknown; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/cli/main.ts', ...args], {
    cwd: root,
    env: { ...process.env, QUIRE_TOKEN: '', ...env }
  })
  children.push(child)
  let err = ''
  child.stderr!.on('data', (c) => (err += c))
  const code = await new Promise((r) => child.once('exit', r))
  return { code, err }
}
