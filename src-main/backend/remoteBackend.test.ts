// A connected workspace's backend against a real /v1 server (a Quire test server on loopback), and against bare
// HTTP servers that misbehave (never answer, are not a /v1 API, echo what they receive).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import type { RemoteConnection } from '../../src-shared/workspaces'
import { ApiError } from '../base/errors'
import { startTestServer, type TestServer } from '../testing/harness'
import { cameThrough, probeRemote, RemoteBackend, VIA_HEADER } from './remoteBackend'

const servers: TestServer[] = []
const bare: Server[] = []
afterEach(async () => {
  for (const t of servers.splice(0)) await t.close()
  for (const s of bare.splice(0)) await new Promise((resolve) => s.close(resolve))
})

async function remoteServer(): Promise<TestServer> {
  const t = await startTestServer()
  servers.push(t)
  return t
}

/** A bare HTTP server on loopback; its base URL. */
async function bareServer(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler)
  bare.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address() as { port: number }
  return `http://127.0.0.1:${address.port}`
}

/** A loopback address where nothing listens (a port that was just freed). */
async function closedPort(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}`
}

function backend(url: string, token: string | undefined, extra: Partial<ConstructorParameters<typeof RemoteBackend>[0]> = {}) {
  const seen: RemoteConnection[] = []
  const b = new RemoteBackend({ url, token, via: 'host-a', onConnection: (c) => seen.push(c), ...extra })
  return { b, seen }
}

const req = (path: string, init: RequestInit = {}) => new Request(`http://quire.localhost${path}`, init)
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any })

describe('RemoteBackend', () => {
  it('answers /v1 as the account its token names, whatever credentials the caller sent', async () => {
    const remote = await remoteServer()
    const { b, seen } = backend(remote.url, remote.owner.token)

    const res = await b.request(req('/v1/user', { headers: { authorization: 'Bearer the-apps-own-session' } }))
    expect(res.status).toBe(200)
    expect(res.headers.get('quire-remote-status')).toBe('online')
    expect(((await res.json()) as { id: string }).id).toBe(remote.owner.user.id)
    expect(seen).toEqual([{ status: 'online', checkedAt: expect.any(String), answeredAt: expect.any(String) }])
    expect(b.connection.status).toBe('online')

    // A write reaches the server: the space is really there afterwards.
    const created = await json(
      await b.request(
        req(`/v1/orgs/${remote.orgId}/spaces`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'Remote handbook' })
        })
      )
    )
    expect(created).toMatchObject({ status: 201, body: { title: 'Remote handbook' } })
    expect((await remote.owner.api.get(`/v1/spaces/${created.body.id}`)).body.title).toBe('Remote handbook')

    // The server's own errors pass through as they are (a 400 naming the field, a 404).
    expect(
      await json(
        await b.request(
          req(`/v1/orgs/${remote.orgId}/spaces`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ title: 'x'.repeat(51) })
          })
        )
      )
    ).toEqual({
      status: 400,
      body: { error: { code: 400, message: expect.stringContaining('title') } }
    })
    expect((await b.request(req('/v1/spaces/nope'))).status).toBe(404)
    // 204 answers stay empty.
    const deleted = await b.request(req(`/v1/spaces/${created.body.id}`, { method: 'DELETE' }))
    expect(deleted.status).toBe(205)
    expect(await deleted.text()).toBe('')
    expect(seen, 'told once: the status did not change').toHaveLength(1)
  })

  it('passes entity tags both ways, so a write over an edit it has not seen is refused by the server (412)', async () => {
    const remote = await remoteServer()
    const { b } = backend(remote.url, remote.owner.token)
    const space = await remote.emptySpace('Tags')
    const cr = (await remote.owner.api.post(`/v1/spaces/${space}/change-requests`, { subject: 'Edit' })).body
    const crPath = `/v1/spaces/${space}/change-requests/${cr.id}`
    const post = (path: string, body: unknown, ifMatch?: string) =>
      b.request(
        req(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(ifMatch ? { 'if-match': ifMatch } : {}) },
          body: JSON.stringify(body)
        })
      )
    expect(
      (await post(`${crPath}/content`, { changes: [{ operation: 'insert_page', title: 'A', document: { markdown: 'alpha\n' } }] })).status
    ).toBe(200)
    const pages = await b.request(req(`${crPath}/content/pages`))
    const read = pages.headers.get('etag')!
    const page = ((await pages.json()) as { pages: { id: string }[] }).pages[0]!.id
    expect(read).toMatch(/^"[\w-]{20}"$/)

    // Someone else edits the page on the server meanwhile; a write naming what this client read is refused.
    expect(
      (
        await remote.owner.api.post(`${crPath}/content`, {
          changes: [{ operation: 'update_page', page, document: { markdown: 'theirs\n' } }]
        })
      ).status
    ).toBe(200)
    const refused = await post(
      `${crPath}/content`,
      { changes: [{ operation: 'update_page', page, document: { markdown: 'mine\n' } }] },
      read
    )
    expect(await json(refused)).toEqual({
      status: 412,
      body: { error: { code: 412, message: expect.stringContaining('changed since revision') } }
    })
    expect((await remote.owner.api.get(`${crPath}/content/page/${page}`, { format: 'markdown' })).body.markdown).toBe('theirs\n')
  })

  it('sends only what the server should see: its own token, no cookies, and its host named in quire-via', async () => {
    let received: IncomingHttpHeaders = {}
    let body = ''
    const url = await bareServer((request, response) => {
      received = request.headers
      request.setEncoding('utf8')
      request.on('data', (chunk: string) => (body += chunk))
      request.on('end', () => {
        response.writeHead(201, { 'content-type': 'application/json', 'set-cookie': 'a=b', etag: '"v1"', 'x-internal': 'no' })
        response.end('{"ok":true}')
      })
    })
    const { b } = backend(`${url}/api`, 'remote-token')
    const res = await b.request(
      req('/v1/orgs?limit=5', {
        method: 'POST',
        headers: {
          authorization: 'Bearer local',
          cookie: 'session=1',
          'content-type': 'application/json',
          'if-match': '"r1"',
          'quire-via': 'host-z'
        },
        body: '{"title":"T"}'
      })
    )
    expect(received.authorization).toBe('Bearer remote-token')
    expect(received.cookie).toBeUndefined()
    expect(received['if-match']).toBe('"r1"')
    expect(received[VIA_HEADER]).toBe('host-z, host-a')
    expect(body).toBe('{"title":"T"}')
    expect(res.status).toBe(201)
    expect(res.headers.get('etag')).toBe('"v1"')
    expect(res.headers.get('set-cookie')).toBeNull()
    expect(res.headers.get('x-internal')).toBeNull()
    expect(await res.json()).toEqual({ ok: true })
  })

  it('a token the server refuses answers 401 naming the server, and the connection says refused', async () => {
    const remote = await remoteServer()
    const { b, seen } = backend(remote.url, 'revoked-token')
    expect(await json(await b.request(req('/v1/orgs')))).toEqual({
      status: 401,
      body: {
        error: {
          code: 401,
          message: expect.stringMatching(/^127\.0\.0\.1:\d+ refused this workspace's token \(.+\): enter a new one in Manage workspaces$/)
        }
      }
    })
    expect(seen.map((c) => c.status)).toEqual(['refused'])
    // A token this process cannot read answers the same way, with the reason, without asking the server.
    const sealed = backend(remote.url, undefined, { tokenProblem: 'sealed elsewhere' })
    const res = await sealed.b.request(req('/v1/orgs'))
    expect(res.headers.get('quire-remote-status')).toBe('refused')
    expect(await json(res)).toEqual({ status: 401, body: { error: { code: 401, message: 'sealed elsewhere' } } })
  })

  it('a server that cannot be reached answers 502, one that does not answer in time 504; status unreachable', async () => {
    const { b, seen } = backend(await closedPort(), 't')
    const res = await b.request(req('/v1/orgs'))
    expect(res.headers.get('quire-remote-status')).toBe('unreachable')
    expect(await json(res)).toEqual({
      status: 502,
      body: { error: { code: 502, message: expect.stringMatching(/^Could not reach 127\.0\.0\.1:\d+: connection refused$/) } }
    })
    expect(seen.map((c) => [c.status, c.message])).toEqual([['unreachable', expect.stringContaining('connection refused')]])

    const silent = await bareServer(() => {})
    const slow = backend(silent, 't', { timeoutMs: 150 })
    expect(await json(await slow.b.request(req('/v1/orgs')))).toEqual({
      status: 504,
      body: { error: { code: 504, message: expect.stringMatching(/^127\.0\.0\.1:\d+ did not answer within 150 ms$/) } }
    })
    expect(slow.b.connection).toMatchObject({ status: 'unreachable', message: expect.stringContaining('did not answer') })
  })

  it('serves only /v1, and refuses a body larger than the API takes without sending it', async () => {
    let asked = 0
    const url = await bareServer((_request, response) => {
      asked++
      response.end('{}')
    })
    const { b } = backend(url, 't')
    expect(await json(await b.request(req('/files/abc')))).toEqual({
      status: 404,
      body: {
        error: { code: 404, message: expect.stringMatching(/^\/files\/abc is not served for a workspace connected to 127\.0\.0\.1:\d+$/) }
      }
    })
    const huge = new Uint8Array(32 * 1024 * 1024 + 1)
    expect((await b.request(req('/v1/orgs', { method: 'POST', body: huge }))).status).toBe(413)
    expect(asked).toBe(0)
  })

  it('names the hosts a request went through', () => {
    expect(cameThrough('a, b', 'b')).toBe(true)
    expect(cameThrough(['a', 'c'], 'c')).toBe(true)
    expect(cameThrough('ab', 'a')).toBe(false)
    expect(cameThrough(undefined, 'a')).toBe(false)
  })
})

describe('probeRemote', () => {
  const failure = async (promise: Promise<unknown>) => {
    try {
      await promise
    } catch (error) {
      if (error instanceof ApiError) return { status: error.status, message: error.message }
      throw error
    }
    throw new Error('expected a refusal')
  }

  it('names the account a token belongs to', async () => {
    const remote = await remoteServer()
    expect(await probeRemote(remote.url, remote.owner.token)).toEqual({
      id: remote.owner.user.id,
      displayName: remote.owner.user.display_name,
      email: remote.owner.user.email
    })
  })

  it('refuses, naming the field to correct: a refused token, a server out of reach, one that is not a /v1 API', async () => {
    const remote = await remoteServer()
    expect(await failure(probeRemote(remote.url, 'nope'))).toEqual({
      status: 400,
      message: expect.stringMatching(/^remote\.token: 127\.0\.0\.1:\d+ refused the token \(.+\)$/)
    })
    expect(await failure(probeRemote(await closedPort(), 't'))).toEqual({
      status: 400,
      message: expect.stringMatching(/^remote\.url: could not reach 127\.0\.0\.1:\d+: connection refused$/)
    })
    const html = await bareServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' })
      response.end('<h1>Not here</h1>')
    })
    expect(await failure(probeRemote(html, 't'))).toEqual({
      status: 400,
      message: `remote.url: ${html} does not answer as a /v1 API (GET /v1/user: 404)`
    })
    const notUser = await bareServer((_request, response) => response.end('[1,2]'))
    expect(await failure(probeRemote(notUser, 't'))).toEqual({
      status: 400,
      message: `remote.url: ${notUser} does not answer as a /v1 API (GET /v1/user: 200, not a user)`
    })
    const silent = await bareServer(() => {})
    expect(await failure(probeRemote(silent, 't', { timeoutMs: 100 }))).toEqual({
      status: 400,
      message: expect.stringMatching(/did not answer within 100 ms$/)
    })
  })
})
