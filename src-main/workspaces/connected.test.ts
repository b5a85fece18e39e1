// Connected workspaces in the host: created once the server names the token's account, answered by that server,
// reconnected with a new token, checked, reopened, deleted. The server is a real Quire test server on loopback.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Workspace, WorkspaceList } from '../../src-shared/workspaces'
import { openLocalBackend } from '../backend/localBackend'
import { probeRemote, RemoteBackend } from '../backend/remoteBackend'
import { userRepository } from '../storage/repositories/userRepository'
import { startTestServer, type TestServer } from '../testing/harness'
import { tempDirs } from '../testing/tempDirs'
import { CONNECTION_FILE, type TokenSeal } from './connection'
import { WorkspaceHost, type WorkspaceHostOptions } from './host'
import { REGISTRY_FILE } from './registry'
import { callHost } from '../testing/hostCalls'

const tempHome = tempDirs('connected')
const hosts: WorkspaceHost[] = []
const servers: TestServer[] = []
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close()
  for (const t of servers.splice(0)) await t.close()
})

async function remoteServer(): Promise<TestServer> {
  const t = await startTestServer()
  servers.push(t)
  return t
}

async function openHost(home: string, options: Partial<WorkspaceHostOptions> = {}) {
  const host = await WorkspaceHost.open({
    home,
    open: ({ dataDir, account }) => openLocalBackend({ dataDir, account }),
    warn: () => {},
    ...options
  })
  hosts.push(host)
  return host
}

async function closeHost(host: WorkspaceHost) {
  hosts.splice(hosts.indexOf(host), 1)
  await host.close()
}

const list = async (host: WorkspaceHost) => (await callHost<WorkspaceList>(host, 'GET', '/app/workspaces')).body

describe('connected workspaces', () => {
  it('connects once the server names the account, keeps the token in the folder only, and answers /v1 from the server', async () => {
    const home = tempHome()
    const remote = await remoteServer()
    const host = await openHost(home)

    const created = await callHost<Workspace>(host, 'POST', '/app/workspaces', {
      name: 'Team docs',
      remote: { url: `${remote.url}/v1/`, token: remote.owner.token }
    })
    expect(created).toEqual({
      status: 201,
      body: {
        id: expect.stringMatching(/^team-docs-[a-z0-9]{6}$/),
        name: 'Team docs',
        createdAt: expect.any(String),
        active: false,
        remote: {
          url: remote.url,
          account: { id: remote.owner.user.id, displayName: remote.owner.user.display_name, email: remote.owner.user.email },
          connection: { status: 'online', checkedAt: expect.any(String), answeredAt: expect.any(String) }
        }
      }
    })
    const id = created.body.id
    // The token is in the workspace's folder, readable by this user only; never in the list, its file or an answer.
    const file = join(home, 'workspaces', id, CONNECTION_FILE)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, 'utf8')).token).toEqual({ seal: 'file', data: remote.owner.token })
    expect(readFileSync(join(home, REGISTRY_FILE), 'utf8')).not.toContain(remote.owner.token)
    expect(JSON.stringify(await list(host))).not.toContain(remote.owner.token)

    // Active: /v1 is the server's, as the token's account; writes land there.
    await callHost(host, 'POST', `/app/workspaces/${id}/activate`)
    const orgs = await callHost(host, 'GET', '/v1/orgs')
    expect(orgs.body.items.map((o: { id: string }) => o.id)).toEqual([remote.orgId])
    const space = await callHost(host, 'POST', `/v1/orgs/${remote.orgId}/spaces`, { title: 'From the app' })
    expect(space.status).toBe(201)
    expect((await remote.owner.api.get(`/v1/spaces/${space.body.id}`)).body.title).toBe('From the app')
    // Local workspaces are untouched by it.
    await callHost(host, 'POST', '/app/workspaces/local/activate')
    expect((await callHost(host, 'GET', '/v1/orgs')).body.items.map((o: { id: string }) => o.id)).not.toContain(remote.orgId)

    // Reopened, the workspace is still connected (the folder says so), its status unknown until it is asked.
    await closeHost(host)
    const again = await openHost(home)
    expect((await list(again)).items.find((w) => w.id === id)?.remote).toMatchObject({ url: remote.url, connection: { status: 'unknown' } })
    await callHost(again, 'POST', `/app/workspaces/${id}/activate`)
    expect((await callHost(again, 'GET', `/v1/spaces/${space.body.id}`)).body.title).toBe('From the app')
    expect((await list(again)).items.find((w) => w.id === id)?.remote?.connection.status).toBe('online')

    // It has no backup to give here: its content is its server's.
    const backup = await callHost(again, 'GET', `/app/workspaces/${id}/backup`)
    expect(backup).toEqual({
      status: 409,
      body: {
        error: {
          code: 409,
          message: expect.stringContaining(`“Team docs” is connected to ${new URL(remote.url).host}: its content is kept by that server`)
        }
      }
    })

    // Deleting it removes its folder, token included.
    await callHost(again, 'POST', '/app/workspaces/local/activate')
    expect((await callHost(again, 'DELETE', `/app/workspaces/${id}`)).status).toBe(204)
    expect(existsSync(join(home, 'workspaces', id))).toBe(false)
  })

  it('refuses what cannot connect, naming the field, and creates nothing', async () => {
    const home = tempHome()
    const remote = await remoteServer()
    let probes = 0
    const host = await openHost(home, { probe: (url, token, options) => (probes++, probeRemote(url, token, options)) })
    const attempt = (body: unknown) => callHost(host, 'POST', '/app/workspaces', body)
    const error = (message: string | RegExp) => ({
      status: 400,
      body: { error: { code: 400, message: typeof message === 'string' ? message : expect.stringMatching(message) } }
    })

    expect(await attempt({ name: 'X', remote: { token: 't' } })).toEqual(error('remote.url: is required'))
    expect(await attempt({ name: 'X', remote: { url: 'ftp://example.com', token: 't' } })).toEqual(
      error('remote.url: must be an http:// or https:// address, without user, query or fragment')
    )
    expect(await attempt({ name: 'X', remote: { url: 'https://ada:secret@example.com', token: 't' } })).toEqual(
      error(/^remote\.url: must be an http/)
    )
    expect(await attempt({ name: 'X', remote: { url: remote.url } })).toEqual(error('remote.token: is required'))
    expect(await attempt({ name: 'X', remote: { url: remote.url, token: 'two words' } })).toEqual(
      error('remote.token: must be printable characters without spaces')
    )
    expect(await attempt({ name: 'X', remote: 'https://example.com' })).toEqual(error('remote: must be object'))
    expect(probes, 'nothing malformed is sent to a server').toBe(0)
    // A taken name is refused before the server is asked.
    expect(await attempt({ name: 'local', remote: { url: remote.url, token: remote.owner.token } })).toEqual({
      status: 409,
      body: { error: { code: 409, message: 'name: a workspace named “Local” already exists' } }
    })
    expect(probes).toBe(0)

    expect(await attempt({ name: 'X', remote: { url: remote.url, token: 'revoked' } })).toEqual(
      error(/^remote\.token: 127\.0\.0\.1:\d+ refused the token/)
    )
    expect(probes).toBe(1)
    expect((await list(host)).items.map((w) => w.name)).toEqual(['Local'])
    expect(readdirSync(join(home, 'workspaces'))).toEqual(['local'])
  })

  it('takes a new token for the same account, refuses another account’s, and cannot connect a local workspace', async () => {
    const home = tempHome()
    const remote = await remoteServer()
    const host = await openHost(home)
    const ws = (
      await callHost<Workspace>(host, 'POST', '/app/workspaces', { name: 'Docs', remote: { url: remote.url, token: remote.owner.token } })
    ).body
    await callHost(host, 'POST', `/app/workspaces/${ws.id}/activate`)

    // The token is revoked on the server: requests answer 401 naming the server, and the list says refused.
    const newToken = 'qr_fresh_owner_token_1'
    const db = remote.server.api.services.db
    db.prepare('DELETE FROM tokens WHERE user_id = ?').run(remote.owner.user.id)
    remote.server.api.services.writes++
    const refused = await callHost(host, 'GET', '/v1/orgs')
    expect(refused).toEqual({
      status: 401,
      body: { error: { code: 401, message: expect.stringContaining("refused this workspace's token") } }
    })
    expect((await list(host)).items.find((w) => w.id === ws.id)?.remote?.connection).toMatchObject({
      status: 'refused',
      message: expect.stringContaining('refused')
    })

    const other = await remote.user({ role: 'admin', name: 'Bob' })
    expect(await callHost(host, 'PATCH', `/app/workspaces/${ws.id}`, { remote: { token: other.token } })).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          message: expect.stringMatching(/^remote\.token: the token is Bob’s; this workspace is .+’s view of 127\.0\.0\.1:\d+/)
        }
      }
    })

    // A new token of the same account: saved, and the active workspace answers through it at once.
    userRepository(db).addToken(remote.owner.user.id, newToken, 'test', new Date().toISOString())
    remote.server.api.services.writes++
    const updated = await callHost<Workspace>(host, 'PATCH', `/app/workspaces/${ws.id}`, { name: 'Team docs', remote: { token: newToken } })
    expect(updated).toMatchObject({ status: 200, body: { name: 'Team docs', remote: { connection: { status: 'online' } } } })
    expect((await callHost(host, 'GET', '/v1/orgs')).status).toBe(200)
    expect(JSON.parse(readFileSync(join(home, 'workspaces', ws.id, CONNECTION_FILE), 'utf8')).token.data).toBe(newToken)

    expect(await callHost(host, 'PATCH', '/app/workspaces/local', { remote: { url: remote.url, token: newToken } })).toEqual({
      status: 400,
      body: { error: { code: 400, message: 'remote: this workspace is on this computer and cannot be connected to a server' } }
    })
    expect(await callHost(host, 'PATCH', `/app/workspaces/${ws.id}`, {})).toEqual({
      status: 400,
      body: { error: { code: 400, message: 'body: give name, remote or both' } }
    })
  })

  it('checks a server on demand, tells when a connection changes, and answers from the copy while it is out of reach', async () => {
    const home = tempHome()
    const remote = await remoteServer()
    const told: string[] = []
    const host = await openHost(home, { onRemoteChange: (id) => told.push(id) })
    const ws = (
      await callHost<Workspace>(host, 'POST', '/app/workspaces', { name: 'Docs', remote: { url: remote.url, token: remote.owner.token } })
    ).body

    // Not active: checked with a backend of its own.
    expect((await callHost<Workspace>(host, 'POST', `/app/workspaces/${ws.id}/check`)).body.remote?.connection.status).toBe('online')
    await callHost(host, 'POST', `/app/workspaces/${ws.id}/activate`)
    expect((await callHost(host, 'GET', '/v1/orgs')).status).toBe(200)
    await host.activeBackend.connected?.idle()
    expect(told).toEqual([])

    await servers.splice(0)[0]!.close()
    // The copy answers what it keeps of the server (its organizations were copied when the workspace opened).
    const offline = await host.use((b) => b.request(new Request('http://quire.localhost/v1/orgs')))
    expect(offline.status).toBe(200)
    expect(offline.headers.get('quire-remote-status')).toBe('unreachable')
    expect(((await offline.json()) as { items: { id: string }[] }).items.map((o) => o.id)).toEqual([remote.orgId])
    const checked = await callHost<Workspace>(host, 'POST', `/app/workspaces/${ws.id}/check`)
    expect(checked.body.remote?.connection).toEqual({
      status: 'unreachable',
      checkedAt: expect.any(String),
      answeredAt: expect.any(String),
      message: expect.stringContaining('connection refused')
    })
    expect(checked.body.remote?.outbox).toEqual({ unsent: 0, failed: 0, conflicts: 0 })
    expect(told.length, 'told that the connection changed').toBeGreaterThan(0)
    expect(new Set(told)).toEqual(new Set([ws.id]))
    expect(await callHost(host, 'POST', '/app/workspaces/local/check')).toEqual({
      status: 400,
      body: { error: { code: 400, message: 'This workspace is on this computer: there is no server to check' } }
    })
  })

  it('seals the token with the first seal it has; a host without that seal says how to fix it', async () => {
    const home = tempHome()
    const remote = await remoteServer()
    const reversed: TokenSeal = { kind: 'os', seal: (t) => [...t].reverse().join(''), open: (s) => [...s].reverse().join('') }
    const host = await openHost(home, { seals: [reversed] })
    const ws = (
      await callHost<Workspace>(host, 'POST', '/app/workspaces', { name: 'Docs', remote: { url: remote.url, token: remote.owner.token } })
    ).body
    expect(readFileSync(join(home, 'workspaces', ws.id, CONNECTION_FILE), 'utf8')).not.toContain(remote.owner.token)
    await callHost(host, 'POST', `/app/workspaces/${ws.id}/activate`)
    expect((await callHost(host, 'GET', '/v1/orgs')).status).toBe(200)
    await closeHost(host)

    // The same home served headless (no keychain): the workspace opens and says why it cannot answer.
    const headless = await openHost(home)
    expect(await callHost(headless, 'GET', '/v1/orgs')).toEqual({
      status: 401,
      body: { error: { code: 401, message: expect.stringContaining('saved in the system keychain by the Quire desktop app') } }
    })
    // A new token entered there is sealed as that process can, and works.
    expect((await callHost(headless, 'PATCH', `/app/workspaces/${ws.id}`, { remote: { token: remote.owner.token } })).status).toBe(200)
    expect((await callHost(headless, 'GET', '/v1/orgs')).status).toBe(200)
  })
})

describe('the outbox of a connected workspace', () => {
  it('lists what waits to be sent, sends it on demand, and is only there for the active connected workspace', async () => {
    const home = tempHome()
    const remote = await remoteServer()
    const net = { down: false }
    const host = await openHost(home, {
      // The network is cut at the fetch the workspace reaches its server with (the server keeps running).
      remote: (options) =>
        new RemoteBackend({
          ...options,
          fetch: (input, init) =>
            net.down ? Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })) : fetch(input, init)
        })
    })
    const ws = (
      await callHost<Workspace>(host, 'POST', '/app/workspaces', { name: 'Docs', remote: { url: remote.url, token: remote.owner.token } })
    ).body
    const other = (
      await callHost<Workspace>(host, 'POST', '/app/workspaces', { name: 'Other', remote: { url: remote.url, token: remote.owner.token } })
    ).body
    await callHost(host, 'POST', `/app/workspaces/${ws.id}/activate`)
    const spaceId = await remote.emptySpace('Handbook')
    expect((await callHost(host, 'GET', `/v1/spaces/${spaceId}/content`)).status).toBe(200)
    await host.activeBackend.connected?.idle()

    net.down = true
    const cr = await callHost(host, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Offline notes' })
    expect(cr.status).toBe(201)
    const batch = await callHost(host, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.number}/content`, {
      changes: [{ operation: 'insert_page', title: 'Notes', document: { markdown: 'Taken offline.\n' } }]
    })
    expect(batch.status).toBe(200)

    const listed = await callHost(host, 'GET', `/app/workspaces/${ws.id}/outbox`)
    expect(listed).toEqual({
      status: 200,
      body: {
        items: [
          {
            seq: expect.any(Number),
            kind: 'create-change-request',
            createdAt: expect.any(String),
            space: { id: spaceId, title: 'Handbook' },
            changeRequest: { id: cr.body.id, number: cr.body.number, subject: 'Offline notes' },
            summary: 'Opened the change request'
          },
          {
            seq: expect.any(Number),
            kind: 'content',
            createdAt: expect.any(String),
            space: { id: spaceId, title: 'Handbook' },
            changeRequest: { id: cr.body.id, number: cr.body.number, subject: 'Offline notes' },
            summary: 'Added 1 page'
          }
        ]
      }
    })
    expect((await list(host)).items.find((w) => w.id === ws.id)?.remote?.outbox).toEqual({ unsent: 2, failed: 0, conflicts: 0 })

    // Switched away from, it keeps them; it cannot be removed while it does.
    await callHost(host, 'POST', '/app/workspaces/local/activate')
    expect(await callHost(host, 'DELETE', `/app/workspaces/${ws.id}`)).toEqual({
      status: 409,
      body: {
        error: {
          code: 409,
          message: '“Docs” has 2 changes its server does not have yet: open it and send or discard them (Unsent changes) before removing it'
        }
      }
    })
    await callHost(host, 'POST', `/app/workspaces/${ws.id}/activate`)
    expect((await callHost(host, 'GET', `/app/workspaces/${ws.id}/outbox`)).body.items).toHaveLength(2)

    // Still out of reach: nothing is sent, and it says why it stopped.
    expect((await callHost(host, 'POST', `/app/workspaces/${ws.id}/outbox/sync`)).body).toMatchObject({
      sent: 0,
      stopped: 'unreachable',
      items: [{}, {}]
    })
    net.down = false
    const synced = await callHost(host, 'POST', `/app/workspaces/${ws.id}/outbox/sync`)
    expect(synced.body).toMatchObject({
      sent: 2,
      failed: 0,
      items: [],
      renumbered: [{ spaceId, from: cr.body.number, to: expect.any(Number) }]
    })
    expect(synced.body.stopped).toBeUndefined()
    const onServer = (await remote.owner.api.get(`/v1/spaces/${spaceId}/change-requests`, { status: 'draft' })).body.items
    expect(onServer.map((c: { subject: string }) => c.subject)).toEqual(['Offline notes'])

    expect((await callHost(host, 'GET', `/app/workspaces/${other.id}/outbox`)).status).toBe(409)
    expect((await callHost(host, 'GET', '/app/workspaces/local/outbox')).status).toBe(400)
    expect((await callHost(host, 'DELETE', `/app/workspaces/${ws.id}/outbox/999`)).status).toBe(404)
    expect((await callHost(host, 'POST', `/app/workspaces/${ws.id}/outbox/999/retry`)).status).toBe(404)
    expect((await callHost(host, 'GET', `/app/workspaces/${ws.id}/outbox/nope`)).status).toBe(404)
  })
})
