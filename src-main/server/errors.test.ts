// One error contract for everything the port answers: the envelope with `content-type: application/json`,
// `nosniff` and `no-store` under /v1 and /app, for requests the API refuses and for those Node's HTTP parser
// refuses itself, on a `--data` and a `--home` server alike.
import { connect, type Socket } from 'node:net'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Workspace } from '../../src-shared/workspaces'
import { startTestServer } from '../testing/harness'
import { tempDirs } from '../testing/tempDirs'
import { startServer, type RunningServer, type ServerOptions } from './server'

const tempDir = tempDirs('errors')
const running: { close(): Promise<void> }[] = []
const connections: Connection[] = []
afterEach(async () => {
  for (const connection of connections.splice(0)) connection.close()
  for (const server of running.splice(0).reverse()) await server.close()
})

const TOKEN = 'quire-errors-test-token-0123456789abcdef'
const auth = { authorization: `Bearer ${TOKEN}` }

const kinds = {
  '--data': (): ServerOptions => ({ dataDir: ':memory:' }),
  '--home': (): ServerOptions => ({ home: tempDir() })
}

async function start(kind: keyof typeof kinds, options: Partial<ServerOptions> = {}): Promise<RunningServer> {
  const server = await startServer({ ...kinds[kind](), port: 0, token: TOKEN, ...options })
  running.push(server)
  return server
}

interface Answer {
  status: number
  headers: Record<string, string>
  body: unknown
}

async function ask(
  server: RunningServer,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string | ReadableStream } = {}
): Promise<Answer> {
  const stream = typeof init.body === 'object'
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...auth, ...init.headers },
    body: init.body,
    ...(stream ? { duplex: 'half' } : {})
  })
  const text = await res.text()
  return { status: res.status, headers: Object.fromEntries(res.headers), body: parse(text) }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** A raw HTTP/1.1 connection: what Node's parser sees byte for byte, answers read as they come. */
class Connection {
  private buffer = Buffer.alloc(0)
  private waiting?: () => void
  readonly closed: Promise<void>

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk])
      this.waiting?.()
    })
    this.closed = new Promise((resolve) =>
      socket.on('close', () => {
        resolve()
        this.waiting?.()
      })
    )
    socket.on('error', () => {}) // a reset after the answer: `closed` tells
  }

  static open(server: RunningServer): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        const connection = new Connection(socket)
        connections.push(connection)
        resolve(connection)
      })
      socket.once('error', reject)
    })
  }

  send(text: string): void {
    this.socket.write(text)
  }

  /** The next whole answer on the connection (its body as long as its content-length). */
  async answer(): Promise<Answer> {
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n')
      if (end >= 0) {
        const [statusLine, ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n')
        const headers = Object.fromEntries(
          lines.map((line) => {
            const colon = line.indexOf(':')
            return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]
          })
        )
        const length = Number(headers['content-length'] ?? 0)
        if (this.buffer.length >= end + 4 + length) {
          const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8')
          this.buffer = this.buffer.subarray(end + 4 + length)
          return { status: Number(statusLine!.split(' ')[1]), headers, body: parse(body) }
        }
      }
      if (this.socket.destroyed) throw new Error(`closed without a whole answer: ${JSON.stringify(this.buffer.toString('latin1'))}`)
      await new Promise<void>((resolve) => (this.waiting = resolve))
    }
  }

  close(): void {
    this.socket.destroy()
  }
}

/** Sends `text` on a new connection and reads the one answer; `closed` settles when the server closes it. */
async function raw(server: RunningServer, text: string): Promise<Answer & { closed: Promise<void> }> {
  const connection = await Connection.open(server)
  connection.send(text)
  return { ...(await connection.answer()), closed: connection.closed }
}

/** What every refusal under /v1 and /app looks like. */
function refusal(status: number, message: string | RegExp) {
  return {
    status,
    headers: expect.objectContaining({
      'content-type': expect.stringMatching(/^application\/json\b/),
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store'
    }),
    body: { error: { code: status, message: typeof message === 'string' ? message : expect.stringMatching(message) } }
  }
}

describe.each(Object.keys(kinds) as (keyof typeof kinds)[])('a %s server', (kind) => {
  it('answers a path whose %-escapes do not decode with 400', async () => {
    const server = await start(kind)
    const message = 'path: must be percent-encoded correctly (%XX, UTF-8)'
    for (const path of ['/v1/spaces/%E0%A4%A', '/v1/orgs/%zz', '/v1/orgs/%zz/spaces?limit=1']) {
      expect(await ask(server, 'GET', path), path).toEqual(refusal(400, message))
    }
    expect(await ask(server, 'POST', '/app/workspaces/%zz/activate')).toEqual(refusal(400, message))
  })

  it('answers unknown operations, and known paths with another method, with 404', async () => {
    const server = await start(kind)
    for (const [method, path] of [
      ['GET', '/v1/nope'],
      ['PUT', '/v1/orgs'],
      ['GET', '/app/nope'],
      ['DELETE', '/app/workspaces'],
      ['GET', '/app/workspaces/x/y/z']
    ]) {
      expect(await ask(server, method!, path!), `${method} ${path}`).toEqual(refusal(404, `No operation ${method} ${path}`))
    }
  })

  it('answers over-long ids with 400, a URL over 8 KiB with 414 and headers over 32 KiB with 431', async () => {
    const server = await start(kind)
    for (const length of [101, 5000]) {
      expect(await ask(server, 'GET', `/v1/orgs/${'a'.repeat(length)}`)).toEqual(
        refusal(400, 'organizationId: must be at most 100 characters')
      )
    }
    expect(await ask(server, 'GET', `/v1/orgs/${'a'.repeat(20_000)}`)).toEqual(refusal(414, 'url: must be at most 8192 characters'))
    expect(await ask(server, 'GET', `/app/workspaces?${'a'.repeat(20_000)}`)).toEqual(refusal(414, 'url: must be at most 8192 characters'))
    const big = await raw(server, `GET /v1/orgs HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`)
    expect(big).toMatchObject(refusal(431, 'headers: larger than the server accepts'))
    await big.closed
  })

  it('answers what Node’s parser refuses with 400 in the envelope, then closes the connection', async () => {
    const server = await start(kind)
    for (const request of [
      'GARBAGE\r\n\r\n',
      `GET /v1/orgs HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Length: abc\r\n\r\n`,
      `GET /v1/orgs HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nBad Header\r\n\r\n`
    ]) {
      const answer = await raw(server, request)
      expect(answer, request).toMatchObject(refusal(400, 'request: malformed HTTP request'))
      expect(answer.headers.connection).toBe('close')
      await answer.closed
    }
  })

  it('answers oversized bodies with 413 as soon as their Content-Length tells, then closes the connection', async () => {
    const server = await start(kind)
    for (const path of ['/v1/orgs', '/app/workspaces']) {
      // The body never comes: the answer cannot wait for it.
      const answer = await raw(
        server,
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{"title":`
      )
      expect(answer, path).toMatchObject(refusal(413, 'body: larger than the server accepts'))
      expect(answer.headers.connection).toBe('close')
      await answer.closed
    }
    // Sent whole, chunked, past the workspace operations' 64 KiB.
    const chunked = await ask(server, 'POST', '/app/workspaces', {
      headers: { 'content-type': 'application/json' },
      body: new Blob([JSON.stringify({ name: 'x'.repeat(100_000) })]).stream()
    })
    expect(chunked).toEqual(refusal(413, 'body: larger than the server accepts'))
  })

  it('answers malformed JSON with 400 and a body of another type with 400 or 415', async () => {
    const server = await start(kind)
    const json = { 'content-type': 'application/json' }
    expect(await ask(server, 'POST', '/v1/orgs', { headers: json, body: '{"title":' })).toEqual(refusal(400, /^body: /))
    expect(await ask(server, 'POST', '/app/workspaces', { headers: json, body: '{"name":' })).toEqual(
      refusal(400, 'body: must be valid JSON')
    )
    expect(await ask(server, 'POST', '/v1/orgs', { headers: { 'content-type': 'application/xml' }, body: '<org/>' })).toEqual(
      refusal(415, 'body: send JSON with Content-Type: application/json')
    )
    expect(await ask(server, 'POST', '/v1/orgs', { headers: { 'content-type': 'text/plain' }, body: 'title' })).toEqual(
      refusal(400, 'body: must be object')
    )
  })

  it('sends nosniff and no-store with every /v1 and /app answer; the renderer and downloads keep their caching', async () => {
    const staticDir = tempDir()
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Quire</title>')
    const server = await start(kind, { staticDir })
    const api = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' }
    expect((await ask(server, 'GET', '/v1/orgs')).headers).toMatchObject(api)
    expect((await ask(server, 'GET', '/v1/openapi.json')).headers).toMatchObject(api)
    expect((await ask(server, 'GET', '/app/workspaces')).headers).toMatchObject(api)
    expect(await ask(server, 'GET', '/v1/orgs', { headers: { authorization: 'Bearer wrong' } })).toEqual(
      refusal(401, 'The token is unknown or has been revoked')
    )
    const page = await ask(server, 'GET', '/')
    expect(page.status).toBe(200)
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    expect(page.headers['cache-control']).not.toContain('no-store')
    // A download's error is never kept either.
    expect(await ask(server, 'GET', '/files/nope')).toEqual(refusal(404, /./))
  })

  it('closes a request that stalls after its headers or within its body, while others are answered and idle connections kept', async () => {
    const server = await start(kind, { requestTimeout: 1000, headersTimeout: 500 })
    const get = `GET /v1/orgs HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`
    const idle = await Connection.open(server)
    idle.send(get)
    expect((await idle.answer()).status).toBe(200)

    const upload = await Connection.open(server)
    upload.send(
      `POST /v1/orgs HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"title":`
    )
    const headers = await Connection.open(server)
    headers.send(`GET /v1/orgs HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`)
    // Meanwhile the server answers others.
    expect((await ask(server, 'GET', '/v1/orgs')).status).toBe(200)
    for (const stalled of [upload, headers]) {
      expect(await stalled.answer()).toMatchObject(refusal(408, 'request: not received in time'))
      await stalled.closed
    }
    // Idle between requests for longer than a request may take: kept alive, not a late request.
    idle.send(get)
    expect((await idle.answer()).status).toBe(200)
  })
})

describe('a --home server with a connected workspace', () => {
  it('answers an oversized body for the workspace’s server with 413 before sending anything there', async () => {
    const remote = await startTestServer()
    running.push(remote)
    const server = await start('--home')
    const created = await ask(server, 'POST', '/app/workspaces', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Team', remote: { url: remote.url, token: remote.owner.token } })
    })
    expect(created.status).toBe(201)
    expect((await ask(server, 'POST', `/app/workspaces/${(created.body as Workspace).id}/activate`)).status).toBe(200)

    const answer = await raw(
      server,
      `POST /v1/orgs HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{"title":`
    )
    expect(answer).toMatchObject(refusal(413, 'body: larger than the server accepts'))
    expect(answer.headers.connection).toBe('close')
    await answer.closed
    expect(await ask(server, 'GET', '/v1/nope')).toEqual(refusal(404, 'No operation GET /v1/nope'))
    expect(await ask(server, 'GET', '/app/nope')).toEqual(refusal(404, /./))
    expect((await ask(server, 'GET', '/v1/orgs')).headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store'
    })
  })
})
