// The outbox under faults: a connected workspace reaches its server through a fault proxy the test controls
// (testing/faultProxy.ts), or a server in a child process killed with SIGKILL (testing/remoteQuire.ts). Edits are
// queued while the proxy refuses connections, then sent with answers lost, requests cut, gateways failing; each
// scenario ends with the server holding every edit exactly once (change requests and pages counted, texts
// compared, one revision per batch) and an empty outbox. Sends are driven by `backend.sync()`, never by timers.
import { afterEach, describe, expect, it } from 'vitest'
import { openLocalBackend } from '../backend/localBackend'
import { RemoteBackend } from '../backend/remoteBackend'
import { isWrite, startFaultProxy, type ProxiedRequest } from '../testing/faultProxy'
import { startTestServer, type Client } from '../testing/harness'
import { prng } from '../testing/prng'
import { startRemoteQuire } from '../testing/remoteQuire'
import { tempDirs } from '../testing/tempDirs'
import { ConnectedBackend } from './connectedBackend'
import { outbox } from './outbox'

const tempDir = tempDirs('faults')
const open: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close()
})

/** The server as the test sees it: directly, never through the proxy. */
interface Remote {
  url: string
  token: string
  api: Client
  orgId: string
}

type Connected = Awaited<ReturnType<typeof connect>>

/**
 * A connected workspace whose server is reached through a fault proxy. `keys: false`: the proxy drops the
 * Idempotency-Key header, so the server behaves as one that keeps no keys (the hosted service may not).
 */
async function connect(remote: Remote, { keys = true }: { keys?: boolean } = {}) {
  const proxy = await startFaultProxy(remote.url)
  open.push(proxy)
  if (!keys) proxy.withoutHeader('idempotency-key')
  const me = (await remote.api.get('/v1/user')).body as { id: string; displayName: string; email: string }
  const copy = await openLocalBackend({ dataDir: tempDir(), account: { id: me.id, displayName: me.displayName, email: me.email } })
  const warnings: string[] = []
  const backend = new ConnectedBackend({
    remote: new RemoteBackend({ url: proxy.url, token: remote.token, via: 'test-host' }),
    copy,
    // Probes would race the test's own sends: a server out of reach is asked again only when the test syncs.
    retryMs: 600_000,
    warn: (message) => void warnings.push(message)
  })
  open.push(backend)
  backend.start()
  await backend.idle()
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await backend.request(
      new Request(`http://quire.localhost${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body)
      })
    )
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers }
  }
  const unsent = () => outbox(copy.services.db).count()
  return { remote, proxy, backend, copy, call, unsent, warnings }
}

/** A space on the server with pages (markdown by title), opened through the app so the copy has it. */
async function spaceWithPages(t: Connected, pages: Record<string, string>) {
  const api = t.remote.api
  const space = await api.post(`/v1/orgs/${t.remote.orgId}/spaces`, { title: 'Guide', empty: true })
  const spaceId = space.body.id as string
  const cr = (await api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Seed' })).body
  const changes = Object.entries(pages).map(([title, markdown]) => ({ operation: 'insert_page', title, document: { markdown } }))
  expect((await api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes })).status).toBe(200)
  expect((await api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).body.result).toBe('merge')
  const tree = await t.call('GET', `/v1/spaces/${spaceId}/content/pages`)
  expect(tree.status).toBe(200)
  await t.backend.idle()
  const ids = Object.fromEntries((tree.body.pages as { id: string; title: string }[]).map((p) => [p.title, p.id]))
  return { spaceId, ids }
}

/** A change request made online (the server has it), opened in the app so the copy has its content. */
async function openedChangeRequest(t: Connected, spaceId: string, subject: string) {
  const cr = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject })
  expect(cr.status).toBe(201)
  await t.call('GET', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content/pages`)
  await t.backend.idle()
  return cr.body as { id: string; number: number }
}

async function goOffline(t: Connected) {
  await t.proxy.refuse()
  expect((await t.backend.check()).status).toBe('unreachable')
}

/** Back in reach: sends until the outbox is empty (each fault stops one send; the next sync settles it). */
async function sendAll(t: Connected, rounds = 20) {
  await t.proxy.accept()
  for (let i = 0; i < rounds && t.unsent() > 0; i++) {
    await t.backend.sync()
    await t.backend.idle()
    // Held for the user: no fault should ever lead here.
    const held = t.backend.outboxList().items.filter((item) => item.failed || item.conflict)
    expect(held, JSON.stringify(held)).toEqual([])
  }
  await t.backend.idle()
  expect(t.unsent(), `unsent after ${rounds} sends; warnings: ${t.warnings.join('; ')}`).toBe(0)
}

/** The pages of a change request on the server, depth first: title, its markdown, its parent's title. */
async function serverPages(t: Connected, spaceId: string, crId: string) {
  const api = t.remote.api
  const base = `/v1/spaces/${spaceId}/change-requests/${crId}/content`
  const tree = (await api.get(`${base}/pages`)).body.pages as WirePage[]
  const out: { title: string; parent: string | null; markdown: string }[] = []
  const visit = async (pages: WirePage[], parent: string | null) => {
    for (const page of pages) {
      const markdown = (await api.get(`${base}/page/${page.id}`, { format: 'markdown' })).body.markdown as string
      out.push({ title: page.title, parent, markdown })
      await visit(page.pages ?? [], page.title)
    }
  }
  await visit(tree, null)
  return out
}
interface WirePage {
  id: string
  title: string
  pages?: WirePage[]
}

/** The server's change requests of a space with this subject. */
async function changeRequestsNamed(t: Connected, spaceId: string, subject: string) {
  const items: { id: string; subject: string }[] = []
  for (const status of ['draft', 'open'])
    items.push(...(await t.remote.api.get(`/v1/spaces/${spaceId}/change-requests`, { limit: 100, status })).body.items)
  return items.filter((cr) => cr.subject === subject)
}

/**
 * The content writes to a change request the server applied, as the proxy saw them (a 2xx from the server that was
 * not a replay of a key it had seen), by idempotency key: each key must be applied at most once. Writes the
 * server applied but never answered (killed) are not seen.
 */
function appliedKeys(t: Connected, crId: string): Map<string, number> {
  const applied = new Map<string, number>()
  for (const entry of t.proxy.log) {
    if (entry.method !== 'POST' || !entry.path.includes(`/change-requests/${crId}/content`) || !entry.key) continue
    if (entry.targetStatus === undefined || entry.targetStatus >= 300 || entry.replayed) continue
    applied.set(entry.key, (applied.get(entry.key) ?? 0) + 1)
  }
  return applied
}

/**
 * Each content write the server applied to a change request, once: as many revisions as keys applied (saves made
 * one after another may go as one batch, so at most as many as batches were queued), no key applied twice.
 */
async function expectAppliedOnce(t: Connected, spaceId: string, crId: string, queued: number, label = '', { unseen = false } = {}) {
  const keys = appliedKeys(t, crId)
  expect(
    [...keys].filter(([, n]) => n > 1),
    `${label} keys applied twice`
  ).toEqual([])
  const revisions = await batchesApplied(t, spaceId, crId)
  expect(revisions, `${label} revisions`).toBeLessThanOrEqual(queued)
  // A server killed after applying a write answers nothing for it: one revision more than keys seen.
  if (unseen) expect(revisions - keys.size, `${label} revisions beyond the keys seen applied`).toBeLessThanOrEqual(1)
  else expect(revisions, `${label} revisions, one per key applied`).toBe(keys.size)
}

/** How many content batches the server applied to a change request: its revisions from the initial one. */
async function batchesApplied(t: Connected, spaceId: string, crId: string): Promise<number> {
  const cr = (await t.remote.api.get(`/v1/spaces/${spaceId}/change-requests/${crId}`)).body as { revision: string; revisionInitial: string }
  let count = 0
  for (let revision = cr.revision; revision !== cr.revisionInitial; count++) {
    const parents = (await t.remote.api.get(`/v1/spaces/${spaceId}/revisions/${revision}`)).body.parents as string[]
    revision = parents[0]!
  }
  return count
}

const byTitle = (pages: { title: string; markdown: string }[]) => Object.fromEntries(pages.map((p) => [p.title, p.markdown]))

/**
 * A Quire test server in this process. Its clock is set to now: a lost answer's change request is looked for among
 * those made since the request was sent (by this computer's clock, give or take ten minutes).
 */
async function inProcessRemote(): Promise<Remote> {
  const server = await startTestServer()
  open.push(server)
  server.clock.advance(Date.now() - server.clock.now().getTime())
  return { url: server.url, token: server.owner.token, api: server.owner.api, orgId: server.orgId }
}

/**
 * The lost-answer scenarios run against a Quire server (it answers a repeated Idempotency-Key with its first answer)
 * and against one that keeps no keys (the proxy drops the header): there the replay finds a lost create among the
 * server's draft and open change requests, and a batch carries If-Match (an insert-only batch too), so a repeat it
 * already applied is refused and found applied.
 */
describe.each([
  { keys: true, server: 'a Quire server' },
  { keys: false, server: 'a server without idempotency keys' }
])('an answer lost after the server applied the write, $server', ({ keys }) => {
  it('a change request made offline is created once, with the batch written to it', async () => {
    const t = await connect(await inProcessRemote(), { keys })
    const { spaceId, ids } = await spaceWithPages(t, { Install: 'Run the installer.\n' })
    await goOffline(t)
    const cr = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Lost answer' })
    expect(cr.status).toBe(201)
    const path = `/v1/spaces/${spaceId}/change-requests/${cr.body.number}`
    expect(
      (
        await t.call('POST', `${path}/content`, {
          changes: [
            { operation: 'update_page', page: ids.Install, document: { markdown: 'Run the installer, then restart.\n' } },
            { operation: 'insert_page', title: 'Troubleshooting', document: { markdown: 'Restart first.\n' } }
          ]
        })
      ).status
    ).toBe(200)

    t.proxy.dropAnswer((r) => r.method === 'POST' && r.path === `/v1/spaces/${spaceId}/change-requests`)
    await sendAll(t)
    expect(t.proxy.log.filter((e) => e.fault === 'drop-answer')).toMatchObject([{ forwarded: true, targetStatus: 201, delivered: false }])

    const made = await changeRequestsNamed(t, spaceId, 'Lost answer')
    expect(made).toHaveLength(1)
    expect(await serverPages(t, spaceId, made[0]!.id)).toEqual([
      { title: 'Install', parent: null, markdown: 'Run the installer, then restart.\n' },
      { title: 'Troubleshooting', parent: null, markdown: 'Restart first.\n' }
    ])
    expect(await batchesApplied(t, spaceId, made[0]!.id)).toBe(1)
  })

  it('a content batch with insert_page and update_page is applied once (no page twice)', async () => {
    const t = await connect(await inProcessRemote(), { keys })
    const { spaceId, ids } = await spaceWithPages(t, { Install: 'Run the installer.\n', Usage: 'Open the app.\n' })
    const cr = await openedChangeRequest(t, spaceId, 'Online first')
    await goOffline(t)
    const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`
    expect(
      (
        await t.call('POST', path, {
          changes: [
            { operation: 'update_page', page: ids.Install, document: { markdown: 'Run the installer, then restart.\n' } },
            { operation: 'insert_page', title: 'Troubleshooting', document: { markdown: 'Restart first.\n' } }
          ]
        })
      ).status
    ).toBe(200)
    // A second batch on top, touching the page the lost one added.
    const added = ((await t.call('GET', `${path}/pages`)).body.pages as { id: string; title: string }[]).find(
      (p) => p.title === 'Troubleshooting'
    )!.id
    expect(
      (
        await t.call('POST', path, {
          changes: [
            { operation: 'update_page', page: added, document: { markdown: 'Restart first.\nThen reinstall.\n' } },
            { operation: 'insert_page', title: 'FAQ', into: added, document: { markdown: 'Ask.\n' } }
          ]
        })
      ).status
    ).toBe(200)

    t.proxy.dropAnswer((r) => r.method === 'POST' && r.path.endsWith('/content'), { times: 2 })
    await sendAll(t)
    expect(t.proxy.log.filter((e) => e.fault === 'drop-answer')).toHaveLength(2)

    expect(await serverPages(t, spaceId, cr.id)).toEqual([
      { title: 'Install', parent: null, markdown: 'Run the installer, then restart.\n' },
      { title: 'Usage', parent: null, markdown: 'Open the app.\n' },
      { title: 'Troubleshooting', parent: null, markdown: 'Restart first.\nThen reinstall.\n' },
      { title: 'FAQ', parent: 'Troubleshooting', markdown: 'Ask.\n' }
    ])
    expect(await batchesApplied(t, spaceId, cr.id)).toBe(2)
    expect(await changeRequestsNamed(t, spaceId, 'Online first')).toHaveLength(1)
  })
})

describe.each([
  { keys: true, server: 'a Quire server' },
  { keys: false, server: 'a server without idempotency keys' }
])('an insert-only batch sent after a rebase, $server', ({ keys }) => {
  // An insert-only batch: If-Match guards the pages a batch changes, not those it adds.
  it('its answer lost, its page is inserted once', async () => {
    const t = await connect(await inProcessRemote(), { keys })
    const { spaceId, ids } = await spaceWithPages(t, { Install: 'Run the installer.\n' })
    const cr = await openedChangeRequest(t, spaceId, 'Two batches')
    await goOffline(t)
    const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`
    expect(
      (await t.call('POST', path, { changes: [{ operation: 'update_page', page: ids.Install, document: { markdown: 'Run it.\n' } }] }))
        .status
    ).toBe(200)
    expect(
      (await t.call('POST', path, { changes: [{ operation: 'insert_page', title: 'FAQ', document: { markdown: 'Ask.\n' } }] })).status
    ).toBe(200)
    // The first batch's answer is lost (it is then found applied, not sent as it was); the second is rebased, and
    // its answer is lost too.
    t.proxy.dropAnswer((r) => r.method === 'POST' && r.path.endsWith('/content'))
    let contentPosts = 0
    t.proxy.dropAnswer((r) => r.method === 'POST' && r.path.endsWith('/content') && ++contentPosts === 4)
    await sendAll(t)
    expect((await serverPages(t, spaceId, cr.id)).map((p) => [p.title, p.markdown])).toEqual([
      ['Install', 'Run it.\n'],
      ['FAQ', 'Ask.\n']
    ])
    expect(await batchesApplied(t, spaceId, cr.id)).toBe(2)
  })
})

describe.each([
  { keys: true, server: 'a Quire server' },
  { keys: false, server: 'a server without idempotency keys' }
])('a gateway answering 502 or 504 after it forwarded the write, $server', ({ keys }) => {
  it('every batch and status change of a change request goes once', async () => {
    const t = await connect(await inProcessRemote(), { keys })
    const { spaceId, ids } = await spaceWithPages(t, { Install: 'Run the installer.\n' })
    const cr = await openedChangeRequest(t, spaceId, 'Behind a gateway')
    await goOffline(t)
    const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}`
    expect(
      (
        await t.call('POST', `${path}/content`, {
          changes: [
            { operation: 'update_page', page: ids.Install, document: { markdown: 'Run the installer.\nRestart.\n' } },
            { operation: 'insert_page', title: 'Notes', document: { markdown: 'One.\n' } }
          ]
        })
      ).status
    ).toBe(200)
    expect(
      (
        await t.call('POST', `${path}/content`, {
          changes: [{ operation: 'update_page', page: ids.Install, document: { markdown: 'Run the installer.\nRestart.\nDone.\n' } }]
        })
      ).status
    ).toBe(200)
    expect((await t.call('PATCH', path, { status: 'open' })).status).toBe(200)

    // The first write answered 502, the second 504, and so on; each was applied by the server.
    let writes = 0
    t.proxy.answer502((r) => isWrite(r) && ++writes % 2 === 1, { forward: true, times: 3 })
    t.proxy.answer504(isWrite, { forward: true, times: 3 })
    await sendAll(t)
    expect(t.proxy.log.filter((e) => (e.fault === '502' || e.fault === '504') && e.targetStatus)).toHaveLength(6)

    expect(await changeRequestsNamed(t, spaceId, 'Behind a gateway')).toHaveLength(1)
    expect((await t.remote.api.get(path)).body.status).toBe('open')
    expect((await serverPages(t, spaceId, cr.id)).map((p) => [p.title, p.markdown])).toEqual([
      ['Install', 'Run the installer.\nRestart.\nDone.\n'],
      ['Notes', 'One.\n']
    ])
    expect(await batchesApplied(t, spaceId, cr.id)).toBe(2)
  })

  it('a change request made offline is created once', async () => {
    const t = await connect(await inProcessRemote(), { keys })
    const { spaceId, ids } = await spaceWithPages(t, { Install: 'Run the installer.\n' })
    await goOffline(t)
    const cr = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Behind a gateway' })
    const path = `/v1/spaces/${spaceId}/change-requests/${cr.body.number}`
    expect(
      (
        await t.call('POST', `${path}/content`, {
          changes: [
            { operation: 'update_page', page: ids.Install, document: { markdown: 'Run the installer.\nRestart.\n' } },
            { operation: 'insert_page', title: 'Notes', document: { markdown: 'One.\n' } }
          ]
        })
      ).status
    ).toBe(200)
    expect(
      (
        await t.call('POST', `${path}/content`, {
          changes: [{ operation: 'insert_page', title: 'More notes', document: { markdown: 'Two.\n' } }]
        })
      ).status
    ).toBe(200)
    expect((await t.call('PATCH', path, { status: 'open' })).status).toBe(200)

    // Every write: the first answered 502, the second 504, and so on; each was applied by the server.
    let writes = 0
    t.proxy.answer502((r) => isWrite(r) && ++writes % 2 === 1, { forward: true, times: 4 })
    t.proxy.answer504(isWrite, { forward: true, times: 4 })
    await sendAll(t)
    expect(t.proxy.log.filter((e) => e.fault === '502' || e.fault === '504').length).toBeGreaterThanOrEqual(4)

    const made = await changeRequestsNamed(t, spaceId, 'Behind a gateway')
    expect(made).toHaveLength(1)
    expect((await t.remote.api.get(`/v1/spaces/${spaceId}/change-requests/${made[0]!.id}`)).body.status).toBe('open')
    expect((await serverPages(t, spaceId, made[0]!.id)).map((p) => [p.title, p.markdown])).toEqual([
      ['Install', 'Run the installer.\nRestart.\n'],
      ['Notes', 'One.\n'],
      ['More notes', 'Two.\n']
    ])
    expect(await batchesApplied(t, spaceId, made[0]!.id)).toBe(2)
  })
})

/** Appends a line to a page's text (so a batch applied twice, or an old one applied late, shows in the text). */
const appended = (text: string, line: string) => `${text}${line}\n`

describe('the remote Quire killed while the outbox is sent', () => {
  it('SIGKILL in the middle of sending 50 queued single-page edits, then a restart: every edit exactly once', async () => {
    const server = await startRemoteQuire(tempDir())
    open.push(server)
    const t = await connect({ url: server.url, token: server.token, api: server.owner, orgId: server.orgId })
    const titles = ['One', 'Two', 'Three', 'Four', 'Five']
    const { spaceId, ids } = await spaceWithPages(t, Object.fromEntries(titles.map((title) => [title, `${title}\n`])))
    const cr = await openedChangeRequest(t, spaceId, 'Fifty edits')
    await goOffline(t)
    const texts = Object.fromEntries(titles.map((title) => [title, `${title}\n`]))
    const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`
    for (let i = 0; i < 50; i++) {
      const title = titles[(i * 3) % titles.length]!
      texts[title] = appended(texts[title]!, `edit ${i}`)
      // Every tenth edit also sets the title: the document-only saves between them go as one batch each (ten writes).
      const change = {
        operation: 'update_page',
        page: ids[title],
        document: { markdown: texts[title] },
        ...(i % 10 === 9 ? { title } : {})
      }
      expect((await t.call('POST', path, { changes: [change] })).status).toBe(200)
    }
    expect(t.unsent()).toBe(50)

    // The 4th write is on its way when the server dies.
    let writes = 0
    let killed: Promise<void> | undefined
    let killedAt = 0
    // A fault that never applies, for its predicate: it sees each request as it arrives.
    t.proxy.delay(0, (r) => {
      if (isWrite(r) && ++writes === 4) {
        killedAt = r.n
        killed = server.kill()
      }
      return false
    })
    await t.proxy.accept()
    await t.backend.sync()
    await t.backend.idle()
    await killed
    expect(server.running).toBe(false)
    // The write on its way never got the server's answer: the proxy answered as a gateway whose upstream died.
    const lost = t.proxy.log.find((e) => e.n === killedAt)!
    expect([lost.status, lost.targetStatus]).toEqual([502, undefined])
    expect(t.unsent()).toBeGreaterThan(0)
    expect(t.unsent()).toBeLessThan(50)

    await server.restart()
    await sendAll(t)
    expect(byTitle(await serverPages(t, spaceId, cr.id))).toEqual(texts)
    // The write the server died on may have been applied unseen: no key twice, and at most one revision per edit.
    await expectAppliedOnce(t, spaceId, cr.id, 50, '', { unseen: true })
  }, 60_000)
})

describe.each([
  { keys: true, server: 'a Quire server' },
  { keys: false, server: 'a server without idempotency keys' }
])('connections cut at random moments (seeded), $server', ({ keys }) => {
  // Every run is checked, and the failing seeds are named at the end.
  it('50 queued edits (a new change request, inserts, updates of several pages) end exactly once, in each of 20 runs', async () => {
    const remote = await inProcessRemote()
    const t = await connect(remote, { keys })
    const failures: string[] = []
    for (let seed = 1; seed <= 20; seed++) {
      const random = prng(seed)
      const draw = (n: number) => Math.floor(random() * n)
      const { spaceId, ids } = await spaceWithPages(t, { Alpha: 'Alpha\n', Beta: 'Beta\n', Gamma: 'Gamma\n' })
      await goOffline(t)
      const subject = `Run ${seed}`
      const cr = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject })
      expect(cr.status).toBe(201)
      const path = `/v1/spaces/${spaceId}/change-requests/${cr.body.number}/content`
      // What the server must end with: each page's text and parent, by title.
      const expected = new Map<string, { markdown: string; parent: string | null; id: string }>(
        Object.entries(ids).map(([title, id]) => [title, { markdown: `${title}\n`, parent: null, id }])
      )
      let batches = 0
      for (let i = 1; i < 50; i++) {
        const titles = [...expected.keys()]
        if (draw(4) === 0) {
          // An insert, at the root or under a page (one added offline too).
          const title = `Page ${seed}.${i}`
          const parent = draw(2) ? titles[draw(titles.length)]! : null
          const change = {
            operation: 'insert_page',
            title,
            document: { markdown: `${title}\n` },
            ...(parent ? { into: expected.get(parent)!.id } : {})
          }
          expect((await t.call('POST', path, { changes: [change] })).status).toBe(200)
          const pages = (await t.call('GET', `${path}/pages`)).body.pages as WirePage[]
          const flat = (list: WirePage[]): WirePage[] => list.flatMap((p) => [p, ...flat(p.pages ?? [])])
          expected.set(title, { markdown: `${title}\n`, parent, id: flat(pages).find((p) => p.title === title)!.id })
        } else {
          // Updates of one or two pages in one batch.
          const changes = []
          for (const title of new Set([titles[draw(titles.length)]!, ...(draw(3) === 0 ? [titles[draw(titles.length)]!] : [])])) {
            const page = expected.get(title)!
            page.markdown = appended(page.markdown, `edit ${i}`)
            changes.push({ operation: 'update_page', page: page.id, document: { markdown: page.markdown } })
          }
          expect((await t.call('POST', path, { changes })).status).toBe(200)
        }
        batches++
      }
      expect(t.unsent()).toBe(50)

      // Three cuts, at drawn writes: in the request (the server never gets it whole) or in the answer (applied, the
      // answer lost). Every live fault sees every request, so both share one decision per request.
      const cuts = new Set([1 + draw(60), 1 + draw(60), 1 + draw(60)])
      const decided = new Map<number, 'request' | 'answer' | undefined>()
      let writes = 0
      const cutIn = (r: ProxiedRequest) => {
        if (!decided.has(r.n)) decided.set(r.n, isWrite(r) && cuts.has(++writes) ? (draw(2) ? 'answer' : 'request') : undefined)
        return decided.get(r.n)
      }
      t.proxy.cutRequest((r) => cutIn(r) === 'request', draw(300), { times: Infinity })
      t.proxy.dropAnswer((r) => cutIn(r) === 'answer', { times: Infinity })
      const checkRun = async () => {
        const made = await changeRequestsNamed(t, spaceId, subject)
        expect(made, `seed ${seed}`).toHaveLength(1)
        const onServer = await serverPages(t, spaceId, made[0]!.id)
        expect(onServer.map((p) => p.title).sort(), `seed ${seed}: pages`).toEqual([...expected.keys()].sort())
        expect(Object.fromEntries(onServer.map((p) => [p.title, { markdown: p.markdown, parent: p.parent }])), `seed ${seed}`).toEqual(
          Object.fromEntries([...expected].map(([title, page]) => [title, { markdown: page.markdown, parent: page.parent }]))
        )
        await expectAppliedOnce(t, spaceId, made[0]!.id, batches, `seed ${seed}:`)
      }
      try {
        await sendAll(t, 30)
        await checkRun()
      } catch (error) {
        failures.push(`seed ${seed}: ${(error as Error).message.split('\n')[0]}`)
        // What is left would be sent in the next run: given up.
        for (const item of t.backend.outboxList().items.reverse()) await t.backend.discard(item.seq).catch(() => undefined)
      }
      t.proxy.clear()
    }
    // FAULTS_VERBOSE=1 prints every failing seed.
    if (process.env.FAULTS_VERBOSE) console.log(failures.join('\n'))
    expect(failures).toEqual([])
  }, 120_000)
})
