// Idempotency-Key on /v1 writes: a write sent again with its key (its answer was lost) is answered with the first
// answer and applied once; the record commits with the write's effect.
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../testing/harness'
import { sweepIdempotencyKeys } from '../workspace/idempotency'

let t: TestServer
let spaceId: string
beforeEach(async () => {
  t = await startTestServer()
  spaceId = await t.emptySpace('Docs')
})
afterEach(async () => {
  await t?.close()
})

interface Answer {
  status: number
  text: string
  body: any
  headers: Headers
}

/** A request with an Idempotency-Key (the harness's client sends no extra headers). */
async function send(
  method: string,
  path: string,
  key: string | undefined,
  body?: unknown,
  token = t.owner.token,
  server = t
): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  if (key !== undefined) headers['idempotency-key'] = key
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(new URL(path, server.url), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined, headers: res.headers }
}

const crs = (rest = '') => `/v1/spaces/${spaceId}/change-requests${rest}`
const countRows = (sql: string, ...params: unknown[]) =>
  t.server.api.services.db
    .prepare(sql)
    .pluck()
    .get(...params) as number
const changeRequestCount = () => countRows('SELECT count(*) FROM change_requests WHERE space_id = ?', spaceId)
const insert = (title: string, markdown: string) => ({ operation: 'insert_page', title, document: { markdown } })

async function openCr(subject = 'Edit'): Promise<string> {
  const res = await t.owner.api.post(crs(), { subject })
  expect(res.status).toBe(201)
  return res.body.id
}

async function titles(cr: string): Promise<string[]> {
  const res = await t.owner.api.get(crs(`/${cr}/content/pages`))
  expect(res.status).toBe(200)
  return res.body.pages.map((p: any) => p.title)
}

describe('Idempotency-Key', () => {
  it('answers a repeated change request creation with the first answer and opens one', async () => {
    const first = await send('POST', crs(), 'create-1', { subject: 'Offline edit' })
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotency-replayed')).toBeNull()
    const again = await send('POST', crs(), 'create-1', { subject: 'Offline edit' })
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotency-replayed')).toBe('true')
    expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(again.headers.get('cache-control')).toBe('no-store')
    // The same bytes, not merely the same JSON.
    expect(again.text).toBe(first.text)
    expect(changeRequestCount()).toBe(1)
    // Without a key, the same request opens another one.
    expect((await send('POST', crs(), undefined, { subject: 'Offline edit' })).status).toBe(201)
    expect(changeRequestCount()).toBe(2)
  })

  it('applies a content batch once: the inserted page exists once', async () => {
    const cr = await openCr()
    const body = { changes: [insert('Install', '# Install\n\nRun it.\n')] }
    const first = await send('POST', crs(`/${cr}/content`), 'batch-1', body)
    expect(first.status).toBe(200)
    const again = await send('POST', crs(`/${cr}/content`), 'batch-1', body)
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotency-replayed')).toBe('true')
    expect(again.body).toEqual(first.body)
    expect(await titles(cr)).toEqual(['Install'])
    expect((await t.owner.api.get(crs(`/${cr}`))).body.revision).toBe(first.body.revision)
  })

  it('replays a PATCH with its first answer, not with the state since', async () => {
    const cr = await openCr('Before')
    const first = await send('PATCH', crs(`/${cr}`), 'patch-1', { subject: 'After' })
    expect(first.status).toBe(200)
    expect(first.body.subject).toBe('After')
    expect((await t.owner.api.patch(crs(`/${cr}`), { subject: 'Later' })).status).toBe(200)
    const again = await send('PATCH', crs(`/${cr}`), 'patch-1', { subject: 'After' })
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotency-replayed')).toBe('true')
    expect(again.text).toBe(first.text)
    // Not applied again: the later subject stays.
    expect((await t.owner.api.get(crs(`/${cr}`))).body.subject).toBe('Later')
  })

  it('replays an answer without a body (204) and does not apply it again', async () => {
    const field = { name: 'team', title: 'Team', type: 'text' }
    expect((await t.owner.api.post(`/v1/orgs/${t.orgId}/custom-fields`, field)).status).toBe(201)
    const path = `/v1/spaces/${spaceId}/custom-fields`
    const values = (team: string) => ({ values: { team: { value: team } } })
    const first = await send('PATCH', path, 'values-1', values('Docs'))
    expect(first.status).toBe(204)
    expect((await t.owner.api.patch(path, values('Platform'))).status).toBe(204)
    const again = await send('PATCH', path, 'values-1', values('Docs'))
    expect(again.status).toBe(204)
    expect(again.text).toBe('')
    expect(again.headers.get('idempotency-replayed')).toBe('true')
    expect((await t.owner.api.get(path)).body.map((v: any) => v.value)).toEqual(['Platform'])
  })

  it('refuses the key for another method, path or body (422) and changes nothing', async () => {
    const cr = await openCr('One')
    expect((await send('PATCH', crs(`/${cr}`), 'k', { subject: 'Two' })).status).toBe(200)
    const otherBody = await send('PATCH', crs(`/${cr}`), 'k', { subject: 'Three' })
    expect(otherBody.status).toBe(422)
    expect(otherBody.body).toEqual({
      error: {
        code: 422,
        message: `Idempotency-Key: already used for another request (PATCH ${crs(`/${cr}`)}); send a new key with a new request`
      }
    })
    expect((await send('POST', crs(), 'k', { subject: 'Two' })).status).toBe(422)
    expect((await send('PATCH', crs(`/${cr}?x=1`), 'k', { subject: 'Two' })).status).toBe(422)
    expect((await t.owner.api.get(crs(`/${cr}`))).body.subject).toBe('Two')
    expect(changeRequestCount()).toBe(1)
  })

  it('scopes keys to the user: the same key from two users is two requests', async () => {
    const editor = await t.user({ role: 'edit' })
    const a = await send('POST', crs(), 'shared', { subject: 'Mine' })
    const b = await send('POST', crs(), 'shared', { subject: 'Mine' }, editor.token)
    expect([a.status, b.status]).toEqual([201, 201])
    expect(b.headers.get('idempotency-replayed')).toBeNull()
    expect(b.body.id).not.toBe(a.body.id)
    expect(changeRequestCount()).toBe(2)
  })

  it('records nothing for a failed request: the same key applies when sent again', async () => {
    const cr = await openCr()
    const body = { changes: [insert('Guide', 'Text.\n')] }
    // The change request is archived: the batch is refused (409) and rolled back.
    expect((await t.owner.api.patch(crs(`/${cr}`), { status: 'archived' })).status).toBe(200)
    expect((await send('POST', crs(`/${cr}/content`), 'retry-1', body)).status).toBe(409)
    expect(countRows('SELECT count(*) FROM idempotency_keys')).toBe(0)
    expect((await t.owner.api.patch(crs(`/${cr}`), { status: 'open' })).status).toBe(200)
    const retried = await send('POST', crs(`/${cr}/content`), 'retry-1', body)
    expect(retried.status).toBe(200)
    expect(retried.headers.get('idempotency-replayed')).toBeNull()
    expect(await titles(cr)).toEqual(['Guide'])
    // A request refused by validation records nothing either.
    expect((await send('POST', crs(), 'invalid-1', { subject: 7 })).status).toBe(400)
    expect((await send('POST', crs(), 'invalid-1', { subject: 'Fine' })).status).toBe(201)
  })

  it('validates the header (400) and refuses it where the answer is not kept', async () => {
    for (const key of ['', 'a b', 'é', 'x'.repeat(256)]) {
      const res = await send('POST', crs(), key, { subject: 'S' })
      expect(res.status, JSON.stringify(key)).toBe(400)
      expect(res.body).toEqual({ error: { code: 400, message: 'Idempotency-Key: must be 1 to 255 visible ASCII characters' } })
    }
    expect((await send('POST', crs(), 'x'.repeat(255), { subject: 'S' })).status).toBe(201)
    expect(changeRequestCount()).toBe(1)
    const ping = await send('POST', `/v1/orgs/${t.orgId}/ping`, 'ping-1')
    expect(ping.status).toBe(400)
    expect(ping.body.error.message).toBe(
      'Idempotency-Key: not accepted by POST /v1/orgs/:organizationId/ping (its answer is signed after the write)'
    )
    // A share link's key is shown once and only its hash is stored: no answer holding it is kept.
    const site = (await t.owner.api.post(`/v1/orgs/${t.orgId}/sites`, { title: 'Docs', visibility: 'share-link' })).body
    const link = await send('POST', `/v1/orgs/${t.orgId}/sites/${site.id}/share-links`, 'link-1', { name: 'Partners' })
    expect(link.status).toBe(400)
    expect(link.body.error.message).toMatch(
      /^Idempotency-Key: not accepted by POST .*share-links \(its answer holds a key shown once, which is not stored\)$/
    )
    expect(countRows('SELECT count(*) FROM site_share_links')).toBe(0)
    // Reads ignore it.
    expect((await send('GET', crs(), '')).status).toBe(200)
  })

  it('is documented on the write operations that accept it', async () => {
    const spec = (await t.anonymous.get('/v1/openapi.json')).body
    const headerOf = (op: any) => op.parameters?.find((p: any) => p.in === 'header' && p.name === 'Idempotency-Key')
    expect(headerOf(spec.paths['/v1/spaces/{spaceId}/change-requests'].post)).toMatchObject({
      required: false,
      schema: { type: 'string', maxLength: 255 }
    })
    expect(headerOf(spec.paths['/v1/spaces/{spaceId}/change-requests/{changeRequestId}'].patch)).toBeDefined()
    expect(headerOf(spec.paths['/v1/spaces/{spaceId}/change-requests/{changeRequestId}'].get)).toBeUndefined()
    expect(headerOf(spec.paths['/v1/orgs/{organizationId}/ping'].post)).toBeUndefined()
  })

  it('answers a key whose first request is still running with 409', async () => {
    // An import fetches before it writes: the page it fetches is held until the second request has been answered.
    let held: ServerResponse | undefined
    let fetched!: () => void
    const reached = new Promise<void>((resolve) => (fetched = resolve))
    const site = createServer((_req, res) => {
      held = res
      fetched()
    })
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/page`
      const cr = await openCr()
      const path = crs(`/${cr}/content/import`)
      const body = { url, source: 'html' }
      const first = send('POST', path, 'import-1', body)
      await reached
      const second = await send('POST', path, 'import-1', body)
      expect(second.status).toBe(409)
      expect(second.body).toEqual({ error: { code: 409, message: 'Idempotency-Key: a request with this key is in progress' } })
      held!
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><head><title>Imported</title></head><body><p>Hello.</p></body></html>')
      const answered = await first
      expect(answered.status).toBe(201)
      const third = await send('POST', path, 'import-1', body)
      expect(third.status).toBe(201)
      expect(third.headers.get('idempotency-replayed')).toBe('true')
      expect(third.text).toBe(answered.text)
      expect(await titles(cr)).toEqual(['Imported'])
    } finally {
      site.closeAllConnections()
      await new Promise((resolve) => site.close(resolve))
    }
  })

  it('answers two requests sent together with one change request', async () => {
    const [a, b] = await Promise.all([send('POST', crs(), 'together', { subject: 'S' }), send('POST', crs(), 'together', { subject: 'S' })])
    expect([a.status, b.status].sort()).toEqual([201, 201])
    expect(b.body.id).toBe(a.body.id)
    expect(changeRequestCount()).toBe(1)
  })

  it('sweeps records after 24 hours; the key then applies anew', async () => {
    expect((await send('POST', crs(), 'old', { subject: 'S' })).status).toBe(201)
    t.clock.advance(23 * 3600_000)
    expect(sweepIdempotencyKeys(t.server.api.services)).toBe(0)
    expect((await send('POST', crs(), 'old', { subject: 'S' })).headers.get('idempotency-replayed')).toBe('true')
    t.clock.advance(1 * 3600_000 + 1000)
    // Past 24 hours the record no longer answers, even before the sweep removed it.
    const fresh = await send('POST', crs(), 'old', { subject: 'S' })
    expect(fresh.status).toBe(201)
    expect(fresh.headers.get('idempotency-replayed')).toBeNull()
    expect(changeRequestCount()).toBe(2)
    expect(countRows('SELECT count(*) FROM idempotency_keys')).toBe(1)
    t.clock.advance(24 * 3600_000 + 1000)
    expect(sweepIdempotencyKeys(t.server.api.services)).toBe(1)
    expect(countRows('SELECT count(*) FROM idempotency_keys')).toBe(0)
  })
})

describe('Idempotency-Key across a restart', () => {
  let dir: string
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('answers a key recorded before the server restarted', async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-idem-'))
    await t.close()
    t = await startTestServer({ dataDir: dir })
    spaceId = await t.emptySpace('Docs')
    const first = await send('POST', crs(), 'durable', { subject: 'Before the crash' })
    expect(first.status).toBe(201)
    await t.close()
    t = await startTestServer({ dataDir: dir })
    // Same owner, new token: the key belongs to the user, not to the token.
    const again = await send('POST', crs(), 'durable', { subject: 'Before the crash' })
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotency-replayed')).toBe('true')
    expect(again.text).toBe(first.text)
    expect(changeRequestCount()).toBe(1)
  })
})
