// A `--home` server whose active workspace is connected to another /v1 server: /v1 goes there with the
// workspace's token (callers show this server's token), the renderer's files are still served here, and a
// workspace connected to this very server is refused instead of looping.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Workspace } from '../../src-shared/workspaces'
import { startTestServer, type TestServer } from '../testing/harness'
import { tempDirs } from '../testing/tempDirs'
import { startServer, type RunningServer } from './server'

/** The server's token: at least 32 characters, as `--token` requires. */
const T0 = 'quire-test-owner-token-0123456789abcdef'

const tempDir = tempDirs('proxy')
const running: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const server of running.splice(0).reverse()) await server.close()
})

async function homeServer(): Promise<RunningServer> {
  const staticDir = tempDir()
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Quire</title>')
  const server = await startServer({ home: tempDir(), port: 0, token: T0, staticDir })
  running.push(server)
  return server
}

async function remoteServer(): Promise<TestServer> {
  const t = await startTestServer()
  running.push(t)
  return t
}

async function ask(server: RunningServer, method: string, path: string, options: { token?: string | null; body?: unknown } = {}) {
  const token = options.token === undefined ? T0 : options.token
  const headers: Record<string, string> = {}
  if (token) headers.authorization = `Bearer ${token}`
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body)
  })
  const text = await res.text()
  let body: any = text
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {
    // not JSON (the renderer's page)
  }
  return { status: res.status, body, headers: res.headers }
}

describe('a --home server with a connected workspace', () => {
  it('answers /v1 from the workspace’s server for the holder of its own token, and still serves the renderer', async () => {
    const remote = await remoteServer()
    const server = await homeServer()
    const created = await ask(server, 'POST', '/app/workspaces', {
      body: { name: 'Team', remote: { url: remote.url, token: remote.owner.token } }
    })
    expect(created.status).toBe(201)
    const id = (created.body as Workspace).id
    expect((await ask(server, 'POST', `/app/workspaces/${id}/activate`)).status).toBe(200)

    const orgs = await ask(server, 'GET', '/v1/orgs')
    expect(orgs.status).toBe(200)
    expect(orgs.body.items.map((o: { id: string }) => o.id)).toEqual([remote.orgId])
    expect(orgs.headers.get('quire-workspace')).toBe(id)
    expect(orgs.headers.get('quire-remote-status')).toBe('online')

    const space = await ask(server, 'POST', `/v1/orgs/${remote.orgId}/spaces`, { body: { title: 'Through the proxy' } })
    expect(space.status).toBe(201)
    expect((await remote.owner.api.get(`/v1/spaces/${space.body.id}`)).body.title).toBe('Through the proxy')

    // Only this server's token opens it: not none, not a wrong one, not the workspace's own token for its server.
    const unauthorized = { error: { code: 401, message: 'Authentication required: send Authorization: Bearer <token>' } }
    expect(await ask(server, 'GET', '/v1/orgs', { token: null })).toMatchObject({ status: 401, body: unauthorized })
    expect((await ask(server, 'GET', '/v1/orgs', { token: 'wrong' })).status).toBe(401)
    expect((await ask(server, 'GET', '/v1/orgs', { token: remote.owner.token })).status).toBe(401)
    // The public API description needs none.
    expect((await ask(server, 'GET', '/v1/openapi.json', { token: null })).body.openapi).toBe('3.1.0')

    // The renderer is served here; downloads and previews of a local workspace are not.
    const page = await ask(server, 'GET', '/', { token: null })
    expect(page.status).toBe(200)
    expect(page.body).toContain('<title>Quire</title>')
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'")
    expect(await ask(server, 'GET', '/files/abc', { token: null })).toMatchObject({
      status: 404,
      body: { error: { code: 404, message: '/files/abc is not served for a connected workspace' } }
    })
  })

  it('refuses to connect a workspace to the server that serves it (the request would loop)', async () => {
    const server = await homeServer()
    expect(await ask(server, 'POST', '/app/workspaces', { body: { name: 'Loop', remote: { url: server.url, token: T0 } } })).toMatchObject({
      status: 400,
      body: { error: { code: 400, message: `remote.url: ${server.url} is this Quire itself; connect to another server` } }
    })
    // A request that came round anyway is refused before it reaches a workspace.
    const looped = await fetch(`${server.url}/v1/orgs`, {
      headers: { authorization: `Bearer ${T0}`, 'quire-via': server.workspaces!.viaId }
    })
    expect(looped.status).toBe(508)
  })
})
