// The loopback server's guard, driven over HTTP as a browser page, a script and an attacker would: requests that
// name another host (DNS rebinding), browser writes from other origins, short tokens, and token guessing.
import { request as httpRequest } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AuthThrottle, HostPolicy } from './guard'
import { startServer, type RunningServer, type ServerOptions } from './server'

const TOKEN = 'quire-guard-test-token-0123456789abcdef'

const servers: RunningServer[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function start(options: Partial<ServerOptions> = {}): Promise<RunningServer> {
  const server = await startServer({ dataDir: ':memory:', port: 0, token: TOKEN, ...options })
  servers.push(server)
  return server
}

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: any
}

/** A raw request (fetch will not send another Host header), with the server's token unless `token` is null. */
function send(
  server: RunningServer,
  method: string,
  path: string,
  options: { host?: string; origin?: string; token?: string | null; body?: unknown } = {}
): Promise<Answer> {
  const headers: Record<string, string> = { host: options.host ?? `127.0.0.1:${server.port}` }
  const token = options.token === undefined ? TOKEN : options.token
  if (token) headers.authorization = `Bearer ${token}`
  if (options.origin) headers.origin = options.origin
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body)
  if (payload) headers['content-type'] = 'application/json'
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let body: unknown = text
        try {
          body = JSON.parse(text)
        } catch {
          // not JSON: kept as text
        }
        resolve({ status: res.statusCode!, headers: res.headers, body })
      })
    })
    req.on('error', reject)
    req.end(payload)
  })
}

const orgCount = (server: RunningServer) => server.api.services.db.prepare<[], number>('SELECT count(*) FROM organizations').pluck().get()

describe('Host', () => {
  it('answers only requests that name this server: its address or localhost, with its port', async () => {
    const server = await start()
    expect((await send(server, 'GET', '/v1/orgs')).status).toBe(200)
    expect((await send(server, 'GET', '/v1/orgs', { host: `localhost:${server.port}` })).status).toBe(200)
    expect((await send(server, 'GET', '/v1/orgs', { host: `LOCALHOST:${server.port}` })).status).toBe(200)

    for (const host of [
      'evil.example',
      `evil.example:${server.port}`,
      `127.0.0.1:${server.port + 1}`,
      '127.0.0.1',
      `127.0.0.1.evil.example:${server.port}`
    ]) {
      const refused = await send(server, 'GET', '/v1/orgs', { host })
      expect(refused.status, host).toBe(421)
      expect(refused.body).toEqual({ error: { code: 421, message: expect.stringMatching(/^Host: .* does not name this server/) } })
      expect(refused.headers['content-type']).toMatch(/^application\/json/)
    }
  })

  it('refuses a rebound name on every path: the API, the workspace operations, the app and the public OpenAPI document', async () => {
    const server = await start({ home: mkTemp(), dataDir: undefined })
    for (const path of ['/v1/orgs', '/v1/openapi.json', '/app/workspaces', '/', '/preview/sites/x/']) {
      expect((await send(server, 'GET', path, { host: `attacker.example:${server.port}` })).status, path).toBe(421)
    }
    expect((await send(server, 'GET', '/app/workspaces')).status).toBe(200)
  })

  it('answers the names given with allowHosts (--allow-host), with any port or none', async () => {
    const server = await start({ allowHosts: ['Docs.Example.com'] })
    expect((await send(server, 'GET', '/v1/orgs', { host: 'docs.example.com' })).status).toBe(200)
    expect((await send(server, 'GET', '/v1/orgs', { host: 'docs.example.com:8443' })).status).toBe(200)
    expect((await send(server, 'GET', '/v1/orgs', { host: 'other.example.com' })).status).toBe(421)
  })
})

describe('Origin', () => {
  it('refuses a browser write from another origin and changes nothing', async () => {
    const server = await start()
    const before = orgCount(server)
    for (const origin of [
      'http://evil.example',
      `http://evil.example:${server.port}`,
      'null',
      `https://127.0.0.1:${server.port}`,
      `http://127.0.0.1:${server.port + 1}`
    ]) {
      const refused = await send(server, 'POST', '/v1/orgs', { origin, body: { title: 'Planted' } })
      expect(refused.status, origin).toBe(403)
      expect(refused.body.error).toEqual({ code: 403, message: expect.stringMatching(/^Origin: .* may not write here/) })
    }
    expect((await send(server, 'DELETE', `/v1/orgs/x`, { origin: 'http://evil.example' })).status).toBe(403)
    expect(orgCount(server)).toBe(before)
  })

  it("takes writes from the app's own origin and from callers that send none (scripts)", async () => {
    const server = await start()
    expect(
      (await send(server, 'POST', '/v1/orgs', { origin: `http://127.0.0.1:${server.port}`, body: { title: 'From the app' } })).status
    ).toBe(201)
    expect(
      (await send(server, 'POST', '/v1/orgs', { origin: `http://localhost:${server.port}`, body: { title: 'From localhost' } })).status
    ).toBe(201)
    expect((await send(server, 'POST', '/v1/orgs', { body: { title: 'From a script' } })).status).toBe(201)
  })

  it('gives no CORS headers: a preflight and a cross-origin read get no Access-Control-Allow-Origin', async () => {
    const server = await start()
    const read = await send(server, 'GET', '/v1/orgs', { origin: 'http://evil.example' })
    expect(read.headers['access-control-allow-origin']).toBeUndefined()
    const preflight = await send(server, 'OPTIONS', '/v1/orgs', { origin: 'http://evil.example', token: null })
    expect(preflight.status).toBeGreaterThanOrEqual(400)
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined()
  })
})

describe('tokens', () => {
  it('refuses to start with a token shorter than 32 characters, saying so', async () => {
    await expect(startServer({ dataDir: ':memory:', port: 0, token: 'x' })).rejects.toThrow(
      /^--token: must be at least 32 characters \(it has 1\)/
    )
    await expect(startServer({ home: mkTemp(), port: 0, token: 'a'.repeat(31) })).rejects.toThrow(/at least 32 characters/)
    await start({ token: 'a'.repeat(32) })
  })

  it('slows a client that keeps failing (429 with Retry-After) without slowing a token accepted before', async () => {
    let now = 1_000_000
    const server = await start({ authThrottle: { burst: 3, refillMs: 10_000, now: () => now } })
    expect((await send(server, 'GET', '/v1/orgs')).status).toBe(200)
    for (let i = 0; i < 3; i++) expect((await send(server, 'GET', '/v1/orgs', { token: `wrong-${i}` })).status).toBe(401)

    const slowed = await send(server, 'GET', '/v1/orgs', { token: 'wrong-3' })
    expect(slowed.status).toBe(429)
    expect(slowed.headers['retry-after']).toBe('10')
    expect(slowed.body).toEqual({ error: { code: 429, message: 'Too many failed authentications from this address: try again in 10 s' } })
    // Even the right token, if it was never accepted, waits: the guesser cannot tell a hit from a miss.
    const otherToken = 'b'.repeat(40)
    expect((await send(server, 'GET', '/v1/orgs', { token: otherToken })).status).toBe(429)
    // The caller that authenticated before goes on, reads and writes alike.
    expect((await send(server, 'GET', '/v1/orgs')).status).toBe(200)
    expect((await send(server, 'POST', '/v1/orgs', { body: { title: 'Still working' } })).status).toBe(201)
    // Requests without a token are not guesses: they get their 401 (or the public document).
    expect((await send(server, 'GET', '/v1/orgs', { token: null })).status).toBe(401)
    expect((await send(server, 'GET', '/v1/openapi.json', { token: null })).status).toBe(200)

    now += 10_000 // one failure allowed again
    expect((await send(server, 'GET', '/v1/orgs', { token: 'wrong-4' })).status).toBe(401)
    expect((await send(server, 'GET', '/v1/orgs', { token: 'wrong-5' })).status).toBe(429)
  })

  it('throttles failed logins to the workspace operations of a --home server too', async () => {
    const server = await start({ home: mkTemp(), dataDir: undefined, authThrottle: { burst: 2, refillMs: 60_000 } })
    expect((await send(server, 'GET', '/app/workspaces')).status).toBe(200)
    for (let i = 0; i < 2; i++) expect((await send(server, 'GET', '/app/workspaces', { token: `nope-${i}` })).status).toBe(401)
    expect((await send(server, 'POST', '/app/workspaces', { token: 'nope-2', body: { name: 'X' } })).status).toBe(429)
    expect((await send(server, 'GET', '/v1/orgs', { token: 'nope-3' })).status).toBe(429)
    expect((await send(server, 'GET', '/app/workspaces')).status).toBe(200)
  })
})

describe('HostPolicy', () => {
  it('on a wildcard address also answers the machine’s own addresses', () => {
    const policy = new HostPolicy({ host: '0.0.0.0' })
    policy.listening(4100)
    expect(policy.allowsHost('127.0.0.1:4100')).toBe(true)
    expect(policy.allowsHost('0.0.0.0:4100')).toBe(true)
    expect(policy.allowsHost('evil.example:4100')).toBe(false)
  })

  it('reads IPv6 hosts and origins', () => {
    const policy = new HostPolicy({ host: '::1' })
    policy.listening(80)
    expect(policy.allowsHost('[::1]')).toBe(true)
    expect(policy.allowsHost('[::1]:80')).toBe(true)
    expect(policy.allowsOrigin('http://[::1]')).toBe(true)
    expect(policy.allowsOrigin('http://[::2]')).toBe(false)
  })
})

describe('AuthThrottle', () => {
  it('keeps each address to its own budget', () => {
    const throttle = new AuthThrottle({ burst: 1, refillMs: 1000, now: () => 0 })
    throttle.answered('10.0.0.1', 'guess', false)
    expect(throttle.waitFor('10.0.0.1', 'guess-2')).toBe(1)
    expect(throttle.waitFor('10.0.0.2', 'guess-2')).toBe(0)
  })
})

function mkTemp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quire-guard-'))
  dirs.push(dir)
  return dir
}
