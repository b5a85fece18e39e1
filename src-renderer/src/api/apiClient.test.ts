import { describe, expect, it } from 'vitest'
import type { BridgeRequest, BridgeResponse } from '../../../src-shared/ipc.ts'
import { createApiClient, WORKSPACE_CHANGED } from './apiClient.ts'
import { ApiError } from './apiError.ts'

/** A server that answers from `active` and refuses requests meant for another workspace, as `quire serve --home`. */
function fakeHomeServer() {
  const server = { active: 'local', seen: [] as (string | undefined)[] }
  const send = async (req: BridgeRequest): Promise<BridgeResponse> => {
    const shown = req.headers?.['quire-workspace']
    server.seen.push(shown)
    const headers = { 'content-type': 'application/json', 'quire-workspace': server.active }
    if (shown && shown !== server.active) {
      return { status: 409, headers, body: JSON.stringify({ error: { code: 409, message: 'Another window switched to another workspace: this window now shows that one' } }) }
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
      hasCredentials: true,
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
        { status, headers: { 'content-type': 'application/json', etag: '"r1"' }, body: status === 200 ? '{}' : '{"error":{"code":412,"message":"stale"}}' }
      ),
      transport: 'ipc',
      hasCredentials: true,
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
