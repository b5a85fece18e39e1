import { describe, expect, it } from 'vitest'
import type { BridgeRequest, BridgeResponse } from '../../../src-shared/ipc.ts'
import { createApiClient, dispositionFilename, REMOTE_OFFLINE, REMOTE_REFUSED, REMOTE_UNREACHABLE, WORKSPACE_CHANGED } from './apiClient.ts'
import { ApiError } from './apiError.ts'

/** A server that answers from `active` and refuses requests meant for another workspace, as `quire serve --home`. */
function fakeHomeServer() {
  const server = { active: 'local', seen: [] as (string | undefined)[] }
  const send = async (req: BridgeRequest): Promise<BridgeResponse> => {
    const shown = req.headers?.['quire-workspace']
    server.seen.push(shown)
    const headers = { 'content-type': 'application/json', 'quire-workspace': server.active }
    if (shown && shown !== server.active) {
      return {
        status: 409,
        headers,
        body: JSON.stringify({
          error: { code: 409, message: 'Another window switched to another workspace: this window now shows that one' }
        })
      }
    }
    return { status: 200, headers, body: JSON.stringify({ ok: true }) }
  }
  return { server, client: createApiClient({ send, transport: 'http', hasCredentials: true }) }
}

describe('createApiClient and the workspace a window shows', () => {
  it('learns the workspace from the first answer and sends it back with every request', async () => {
    const { server, client } = fakeHomeServer()
    await client.request('GET', '/v1/user')
    await client.request('GET', '/v1/orgs')
    expect(server.seen).toEqual([undefined, 'local'])
  })

  it('tells its listeners once when another window switched, and the refused request says why', async () => {
    const { server, client } = fakeHomeServer()
    const changes: string[] = []
    const stop = client.onWorkspaceChanged((id) => changes.push(id))
    await client.request('GET', '/v1/user')
    server.active = 'handbook-x1y2'
    const refused = await client.request('POST', '/v1/orgs', { title: 'Wrong place' }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ApiError)
    expect((refused as ApiError).code).toBe(WORKSPACE_CHANGED)
    expect(changes).toEqual(['handbook-x1y2'])
    // From then on the window asks for the workspace now open, and is answered.
    await expect(client.request('GET', '/v1/user')).resolves.toEqual({ ok: true })
    expect(server.seen.at(-1)).toBe('handbook-x1y2')
    expect(changes).toHaveLength(1)
    stop()
  })

  it('does not call a switch of its own a change from elsewhere', async () => {
    const { server, client } = fakeHomeServer()
    const changes: string[] = []
    client.onWorkspaceChanged((id) => changes.push(id))
    await client.request('GET', '/v1/user')
    server.active = 'sandbox-a1b2'
    client.expectWorkspace('sandbox-a1b2')
    await client.request('GET', '/v1/user')
    expect(changes).toEqual([])
  })

  it('sends no workspace to a server that names none (the desktop bridge, a --data server)', async () => {
    const seen: BridgeRequest[] = []
    const client = createApiClient({
      send: async (req) => (seen.push(req), { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }),
      transport: 'ipc',
      hasCredentials: true
    })
    await client.request('GET', '/v1/user')
    await client.request('GET', '/v1/user')
    expect(seen.map((r) => r.headers?.['quire-workspace'])).toEqual([undefined, undefined])
  })
})

describe('createApiClient request options', () => {
  it('sends extra headers and hands over the answer headers, on success and on refusal', async () => {
    const seen: BridgeRequest[] = []
    let status = 200
    const client = createApiClient({
      send: async (req) => (
        seen.push(req),
        {
          status,
          headers: { 'content-type': 'application/json', etag: '"r1"' },
          body: status === 200 ? '{}' : '{"error":{"code":412,"message":"stale"}}'
        }
      ),
      transport: 'ipc',
      hasCredentials: true
    })
    const answered: Record<string, string>[] = []
    await client.request('POST', '/v1/x', {}, { headers: { 'if-match': '"r0"' }, onHeaders: (h) => answered.push(h) })
    expect(seen[0]!.headers).toMatchObject({ 'if-match': '"r0"', 'content-type': 'application/json' })
    status = 412
    const refused = await client.request('POST', '/v1/x', {}, { onHeaders: (h) => answered.push(h) }).catch((error: unknown) => error)
    expect((refused as ApiError).status).toBe(412)
    expect(answered.map((h) => h.etag)).toEqual(['"r1"', '"r1"'])
  })
})

/** A `--home` server whose active workspace is connected: every /v1 answer says how the connection is. */
function fakeConnectedServer() {
  const server = { status: 'online' as string | null, answer: { status: 200, body: '{"ok":true}' } }
  const send = async (req: BridgeRequest): Promise<BridgeResponse> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    // The workspace operations are answered by the host itself: no status on them.
    if (server.status && req.path.startsWith('/v1')) headers['quire-remote-status'] = server.status
    return { status: server.answer.status, headers, body: server.answer.body }
  }
  return { server, client: createApiClient({ send, transport: 'http', hasCredentials: true }) }
}

const envelope = (code: number, message: string) => JSON.stringify({ error: { code, message } })

describe('createApiClient and a connected workspace’s status', () => {
  it('tells its listeners the first status it sees and each change, not every answer', async () => {
    const { server, client } = fakeConnectedServer()
    const seen: string[] = []
    const stop = client.onRemoteStatus((status) => seen.push(status))
    await client.request('GET', '/v1/user')
    await client.request('GET', '/v1/orgs')
    expect(seen).toEqual(['online'])

    server.status = 'unreachable'
    server.answer = { status: 502, body: envelope(502, 'Could not reach docs.example.com: connection refused') }
    await client.request('GET', '/v1/orgs').catch(() => {})
    await client.request('GET', '/v1/orgs').catch(() => {})
    // An answer without the header (the workspace list) changes nothing.
    server.answer = { status: 200, body: '{"items":[]}' }
    await client.request('GET', '/app/workspaces')
    server.status = 'online'
    await client.request('GET', '/v1/orgs')
    expect(seen).toEqual(['online', 'unreachable', 'online'])

    stop()
    server.status = 'refused'
    await client.request('GET', '/v1/orgs')
    expect(seen).toHaveLength(3)
  })

  it('starts over after a switch of its own: the new workspace’s first status is told', async () => {
    const { client } = fakeConnectedServer()
    const seen: string[] = []
    client.onRemoteStatus((status) => seen.push(status))
    await client.request('GET', '/v1/user')
    client.expectWorkspace('docs-a1b2c3')
    await client.request('GET', '/v1/user')
    expect(seen).toEqual(['online', 'online'])
  })

  it('marks a token the server refused and a server out of reach, but not this app’s own 401 or 502', async () => {
    const { server, client } = fakeConnectedServer()
    const fail = () => client.request('GET', '/v1/orgs').catch((error: unknown) => error as ApiError)

    server.status = 'refused'
    server.answer = {
      status: 401,
      body: envelope(401, "docs.example.com refused this workspace's token (revoked): enter a new one in Manage workspaces")
    }
    expect(await fail()).toMatchObject({
      status: 401,
      code: REMOTE_REFUSED,
      message: expect.stringContaining("refused this workspace's token")
    })

    server.status = 'unreachable'
    for (const status of [502, 504]) {
      server.answer = { status, body: envelope(status, 'docs.example.com did not answer within 30 s') }
      expect(await fail()).toMatchObject({ status, code: REMOTE_UNREACHABLE, message: 'docs.example.com did not answer within 30 s' })
    }
    // The workspace's copy on this computer answers instead: what it does not keep, what it never copied.
    server.answer = { status: 503, body: envelope(503, 'Not available offline: docs.example.com is out of reach') }
    expect(await fail()).toMatchObject({
      status: 503,
      code: REMOTE_OFFLINE,
      message: 'Not available offline: docs.example.com is out of reach'
    })
    server.answer = {
      status: 404,
      body: envelope(404, 'Space not found on this computer: it was not copied before docs.example.com went out of reach')
    }
    expect(await fail()).toMatchObject({ status: 404, code: REMOTE_OFFLINE })

    // Online, a 503 or 404 is the server's own answer.
    server.status = 'online'
    server.answer = { status: 404, body: envelope(404, 'Space not found') }
    expect(await fail()).toMatchObject({ status: 404, code: '404' })
    server.answer = { status: 503, body: envelope(503, 'Busy') }
    expect(await fail()).toMatchObject({ status: 503, code: '503' })

    // The loopback server refusing this window's own token says nothing about the connection.
    server.status = null
    server.answer = { status: 401, body: envelope(401, 'The token is unknown or has been revoked') }
    expect(await fail()).toMatchObject({ status: 401, code: '401' })
    server.answer = { status: 502, body: envelope(502, 'Bad gateway') }
    expect(await fail()).toMatchObject({ status: 502, code: '502' })
  })
})

/** A connected workspace that says how many writes wait (`quire-unsent`, left out at zero), as ConnectedBackend does. */
function fakeOutboxServer() {
  const server = { unsent: 0, connected: true, status: 200 }
  const send = async (req: BridgeRequest): Promise<BridgeResponse> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (server.connected && req.path.startsWith('/v1')) {
      headers['quire-remote-status'] = 'unreachable'
      if (server.unsent) headers['quire-unsent'] = String(server.unsent)
    }
    return { status: server.status, headers, body: server.status === 200 ? '{}' : envelope(server.status, 'refused') }
  }
  return { server, client: createApiClient({ send, transport: 'http', hasCredentials: true }) }
}

describe('createApiClient and a connected workspace’s unsent writes', () => {
  it('tells its listeners the first count it sees and each change, on refusals too', async () => {
    const { server, client } = fakeOutboxServer()
    const seen: number[] = []
    const stop = client.onUnsent((count) => seen.push(count))
    await client.request('GET', '/v1/orgs')
    server.unsent = 2
    await client.request('POST', '/v1/spaces/s1/change-requests', {})
    await client.request('GET', '/v1/spaces/s1/change-requests/1')
    server.unsent = 3
    server.status = 503
    await client.request('POST', '/v1/orgs/o1/spaces', {}).catch(() => {})
    server.status = 200
    // Sent meanwhile: the header is left out, which means none.
    server.unsent = 0
    await client.request('GET', '/v1/orgs')
    expect(seen).toEqual([0, 2, 3, 0])
    stop()
    server.unsent = 1
    await client.request('GET', '/v1/orgs')
    expect(seen).toHaveLength(4)
  })

  it('reads nothing from answers that are not a connected workspace’s (the workspace list, a local workspace)', async () => {
    const { server, client } = fakeOutboxServer()
    const seen: number[] = []
    client.onUnsent((count) => seen.push(count))
    server.unsent = 2
    await client.request('GET', '/v1/orgs')
    await client.request('GET', '/app/workspaces')
    server.connected = false
    await client.request('GET', '/v1/orgs')
    expect(seen).toEqual([2])
  })

  it('starts over after a switch of its own: the new workspace’s first count is told', async () => {
    const { server, client } = fakeOutboxServer()
    const seen: number[] = []
    client.onUnsent((count) => seen.push(count))
    server.unsent = 1
    await client.request('GET', '/v1/orgs')
    client.expectWorkspace('other-a1b2c3')
    await client.request('GET', '/v1/orgs')
    expect(seen).toEqual([1, 1])
  })

  it('reads a count that is not a number as none given', async () => {
    const seen: number[] = []
    const client = createApiClient({
      send: async () => ({ status: 200, headers: { 'quire-remote-status': 'online', 'quire-unsent': 'many' }, body: '{}' }),
      transport: 'ipc',
      hasCredentials: true
    })
    client.onUnsent((count) => seen.push(count))
    await client.request('GET', '/v1/orgs')
    expect(seen).toEqual([0])
  })
})

describe('createApiClient with files', () => {
  it('downloads bytes with the name the answer gives, and uploads raw bytes of a type', async () => {
    const seen: BridgeRequest[] = []
    const file = new Uint8Array([83, 81, 76, 105, 116, 101])
    const client = createApiClient({
      send: async (req): Promise<BridgeResponse> => {
        seen.push(req)
        if (req.method === 'GET') {
          return {
            status: 200,
            headers: {
              'content-type': 'application/vnd.sqlite3',
              'content-disposition': 'attachment; filename="handbook-2026-03-01.quire.db"'
            },
            body: file
          }
        }
        return { status: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'restored-a1b2c3' }) }
      },
      transport: 'http',
      hasCredentials: true
    })

    const download = await client.download('/app/workspaces/handbook-x/backup')
    const created = await client.upload('/app/workspaces/open?name=Restored', file, 'application/vnd.sqlite3')

    expect(download).toEqual({ bytes: file, contentType: 'application/vnd.sqlite3', filename: 'handbook-2026-03-01.quire.db' })
    expect(created).toEqual({ id: 'restored-a1b2c3' })
    expect(seen[1]).toMatchObject({ method: 'POST', body: file, headers: { 'content-type': 'application/vnd.sqlite3' } })
  })

  it('throws the error envelope of a refused upload as an ApiError', async () => {
    const client = createApiClient({
      send: async () => ({
        status: 400,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ error: { code: 400, message: 'file: is empty' } })
      }),
      transport: 'ipc',
      hasCredentials: true
    })
    const refused = await client
      .upload('/app/workspaces/open?name=X', new Uint8Array(), 'application/octet-stream')
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ApiError)
    expect((refused as ApiError).message).toBe('file: is empty')
  })

  it('reads the file name of a content-disposition header', () => {
    expect(dispositionFilename('attachment; filename="a b.quire.db"')).toBe('a b.quire.db')
    expect(dispositionFilename('attachment; filename=plain.db')).toBe('plain.db')
    expect(dispositionFilename(`attachment; filename="x.db"; filename*=UTF-8''Caf%C3%A9.quire.db`)).toBe('Café.quire.db')
    expect(dispositionFilename(undefined)).toBe('')
  })
})
