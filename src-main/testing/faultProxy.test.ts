// The fault proxy does what each control says, against a real Quire test server: what the server applied is read
// back directly (not through the proxy).
import { afterEach, describe, expect, it } from 'vitest'
import { isWrite, startFaultProxy } from './faultProxy'
import { httpClient, startTestServer, type TestServer } from './harness'

const open: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close()
})

async function setup() {
  const server = await startTestServer()
  open.push(server)
  const proxy = await startFaultProxy(server.url)
  open.push(proxy)
  const viaProxy = httpClient(proxy.url, server.owner.token)
  return { server, proxy, viaProxy }
}

const spaceTitles = async (server: TestServer) =>
  ((await server.owner.api.get(`/v1/orgs/${server.orgId}/spaces`)).body.items as { title: string }[]).map((s) => s.title).sort()

const createSpace = (t: { server: TestServer; viaProxy: ReturnType<typeof httpClient> }, title: string) =>
  t.viaProxy.post(`/v1/orgs/${t.server.orgId}/spaces`, { title, empty: true })

/** The error a fetch failed with, in words (its cause's code or message). */
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: Error) => {
      const cause = error.cause as { code?: string; message?: string } | undefined
      return cause?.code ?? cause?.message ?? error.message
    }
  )

describe('faultProxy', () => {
  it('passes requests and answers unchanged, naming the target as Host, and logs them', async () => {
    const t = await setup()
    const user = await t.viaProxy.get('/v1/user')
    expect(user).toMatchObject({ status: 200, body: { id: t.server.owner.user.id } })
    expect(user.headers.get('etag')).toBe((await t.server.owner.api.get('/v1/user')).headers.get('etag'))
    const made = await createSpace(t, 'Through')
    expect(made).toMatchObject({ status: 201, body: { title: 'Through' } })
    expect(await spaceTitles(t.server)).toContain('Through')
    // A larger body, streamed.
    const big = 'x'.repeat(200_000)
    const cr = (await t.viaProxy.post(`/v1/spaces/${made.body.id}/change-requests`, { subject: 'Big' })).body
    const content = await t.viaProxy.post(`/v1/spaces/${made.body.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'Big', document: { markdown: big } }]
    })
    expect(content.status).toBe(200)
    await t.proxy.settled()
    expect(t.proxy.log.map(({ n, method, status, forwarded, delivered }) => ({ n, method, status, forwarded, delivered }))).toEqual([
      { n: 1, method: 'GET', status: 200, forwarded: true, delivered: true },
      { n: 2, method: 'POST', status: 201, forwarded: true, delivered: true },
      { n: 3, method: 'POST', status: 201, forwarded: true, delivered: true },
      { n: 4, method: 'POST', status: 200, forwarded: true, delivered: true }
    ])
    expect(t.proxy.log[1]!.path).toBe(`/v1/orgs/${t.server.orgId}/spaces`)
  })

  it('dropAnswer(n): the Nth write reaches the server and is applied, and the client gets no answer', async () => {
    const t = await setup()
    t.proxy.dropAnswer(2)
    expect((await createSpace(t, 'First')).status).toBe(201)
    expect((await t.viaProxy.get('/v1/user')).status, 'reads are not counted').toBe(200)
    expect(await failure(createSpace(t, 'Second'))).toMatch(/UND_ERR_SOCKET|ECONNRESET|other side closed/)
    expect((await createSpace(t, 'Third')).status, 'once by default').toBe(201)
    expect(await spaceTitles(t.server)).toEqual(['First', 'Second', 'Third'])
    await t.proxy.settled()
    expect(t.proxy.log[2]).toMatchObject({ method: 'POST', fault: 'drop-answer', forwarded: true, targetStatus: 201, delivered: false })
    expect(t.proxy.log[2]!.status).toBeUndefined()
  })

  it('dropAnswer(predicate, {times}): every matching request, as many times as asked', async () => {
    const t = await setup()
    t.proxy.dropAnswer((r) => r.method === 'POST' && r.path.endsWith('/spaces'), { times: 2 })
    expect(await failure(createSpace(t, 'A'))).not.toBe('answered')
    expect(await failure(createSpace(t, 'B'))).not.toBe('answered')
    expect((await createSpace(t, 'C')).status).toBe(201)
    expect(await spaceTitles(t.server)).toEqual(['A', 'B', 'C'])
  })

  it('cutRequest: the connection is cut in the request body; the server never gets the request', async () => {
    const t = await setup()
    t.proxy.cutRequest(isWrite, 10)
    expect(await failure(createSpace(t, 'Cut'))).not.toBe('answered')
    // A body shorter than the cut is cut before its last byte all the same.
    t.proxy.cutRequest(isWrite, 10_000)
    expect(await failure(createSpace(t, 'Short'))).not.toBe('answered')
    await t.proxy.settled()
    expect(t.proxy.log.map((e) => ({ fault: e.fault, forwarded: e.forwarded, delivered: e.delivered }))).toEqual([
      { fault: 'cut-request', forwarded: false, delivered: false },
      { fault: 'cut-request', forwarded: false, delivered: false }
    ])
    expect((await createSpace(t, 'Whole')).status).toBe(201)
    expect(await spaceTitles(t.server)).toEqual(['Whole'])
  })

  it('answer502/answer504: a gateway’s error, after forwarding the write or without', async () => {
    const t = await setup()
    t.proxy.answer502(isWrite, { forward: true })
    const lost = await createSpace(t, 'Applied')
    expect(lost.status).toBe(502)
    expect(lost.headers.get('content-type')).toBe('text/html')
    t.proxy.answer504(isWrite, { forward: true })
    expect((await createSpace(t, 'Applied too')).status).toBe(504)
    t.proxy.answer502(isWrite)
    expect((await createSpace(t, 'Never sent')).status).toBe(502)
    t.proxy.answer504(isWrite, { forward: false })
    expect((await createSpace(t, 'Never sent either')).status).toBe(504)
    expect(await spaceTitles(t.server)).toEqual(['Applied', 'Applied too'])
    expect(t.proxy.log.map((e) => [e.fault, e.forwarded, e.targetStatus, e.status])).toEqual([
      ['502', true, 201, 502],
      ['504', true, 201, 504],
      ['502', false, undefined, 502],
      ['504', false, undefined, 504]
    ])
  })

  it('answers 502 itself when the target cannot be reached, as a gateway does', async () => {
    const t = await setup()
    await t.server.close()
    expect((await t.viaProxy.get('/v1/user')).status).toBe(502)
    expect(t.proxy.log[0]).toMatchObject({ status: 502, forwarded: false, delivered: true })
  })

  it('refuse() and accept(): connections are refused (open ones dropped), then taken again on the same port', async () => {
    const t = await setup()
    expect((await t.viaProxy.get('/v1/user')).status).toBe(200)
    await t.proxy.refuse()
    expect(await failure(t.viaProxy.get('/v1/user'))).toBe('ECONNREFUSED')
    await t.proxy.accept()
    expect((await t.viaProxy.get('/v1/user')).status).toBe(200)
    expect(t.proxy.url).toBe(`http://127.0.0.1:${t.proxy.port}`)
  })

  it('delay(ms, predicate): the matching request is held while others pass', async () => {
    const t = await setup()
    t.proxy.delay(400, (r) => r.path === '/v1/user')
    const order: string[] = []
    const held = t.viaProxy.get('/v1/user').then((r) => order.push(`user ${r.status}`))
    // Sent after it, answered before it.
    await t.viaProxy.get(`/v1/orgs/${t.server.orgId}`).then((r) => order.push(`org ${r.status}`))
    await held
    expect(order).toEqual(['org 200', 'user 200'])
    expect(t.proxy.log.find((e) => e.path === '/v1/user')).toMatchObject({ fault: 'delay', status: 200, delivered: true })
  })

  it('clear() removes faults not used up', async () => {
    const t = await setup()
    t.proxy.answer502(() => true, { times: Infinity })
    expect((await t.viaProxy.get('/v1/user')).status).toBe(502)
    expect((await t.viaProxy.get('/v1/user')).status).toBe(502)
    t.proxy.clear()
    expect((await t.viaProxy.get('/v1/user')).status).toBe(200)
  })
})
