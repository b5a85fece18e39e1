// The mirror against a real server: what it pulls into a fresh workspace must answer, through the copy's own
// API, what the server answers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadPages } from '../content/revisions'
import { openLocalBackend, type LocalBackend } from '../backend/localBackend'
import { startTestServer, type Client, type TestServer } from '../testing/harness'
import { tempDirs } from '../testing/tempDirs'
import { createMirror, politeGet, MirrorError, type Mirror, type MirrorOptions, type RemoteGet } from './mirror'

const tmp = tempDirs('mirror')
const LOCAL = 'http://quire.localhost'

let t: TestServer
let copy: LocalBackend | undefined
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(async () => {
  await copy?.close()
  copy = undefined
  await t.close()
})

/** Each write a minute after the last: the server's clock stands still otherwise, and update times would tie. */
async function write(api: Client, method: 'post' | 'patch' | 'delete', path: string, body?: unknown, expected = [200, 201, 204, 205]) {
  t.clock.advance(60_000)
  const res = await api[method](path, body)
  expect(expected, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status)
  return res.body
}

const insert = (title: string, markdown: string, extra: Record<string, unknown> = {}) => ({
  operation: 'insert_page',
  title,
  document: { markdown },
  ...extra
})
const edit = (page: string, markdown: string) => ({ operation: 'update_page', page, document: { markdown } })

/** A change request with these changes; merged unless `status` says what to leave it as. */
async function changeRequest(
  spaceId: string,
  subject: string,
  changes: unknown[],
  status: 'merged' | 'open' | 'draft' = 'merged',
  api = t.owner.api
) {
  const cr = await write(api, 'post', `/v1/spaces/${spaceId}/change-requests`, { subject })
  await write(api, 'post', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes })
  if (status === 'merged') expect((await write(api, 'post', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).result).toBe('merge')
  if (status === 'open') await write(api, 'patch', `/v1/spaces/${spaceId}/change-requests/${cr.id}`, { status: 'open' })
  return cr as { id: string; number: number }
}

async function pageIds(spaceId: string): Promise<Record<string, string>> {
  const ids: Record<string, string> = {}
  const visit = (pages: any[]) => pages.forEach((p) => ((ids[p.title] = p.id), visit(p.pages)))
  visit((await t.owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages)
  return ids
}

const GUIDE = `---
description: Where to start
icon: book
layout:
  tableOfContents: { visible: false }
  outline: false
  cover: { visible: true, size: hero }
---
# Guide

Welcome to the handbook.
`

/**
 * The server's state: a second organization, collections (one nested), spaces in and out of them, pages nested two
 * levels with front matter settings, an open change request with edits and a second user's draft one.
 */
async function seed() {
  const api = t.owner.api
  const orgId = t.orgId
  const guides = await write(api, 'post', `/v1/orgs/${orgId}/collections`, { title: 'Guides' })
  await write(api, 'patch', `/v1/collections/${guides.id}`, { description: 'How we work', defaultLevel: 'comment' })
  const nested = await write(api, 'post', `/v1/orgs/${orgId}/collections`, { title: 'Internals', parent: guides.id })
  const handbook = await write(api, 'post', `/v1/orgs/${orgId}/spaces`, { title: 'Handbook', emoji: '📘', parent: guides.id, empty: true })
  const internals = await write(api, 'post', `/v1/orgs/${orgId}/spaces`, { title: 'Internals', parent: nested.id })
  const notes = await write(api, 'post', `/v1/orgs/${orgId}/spaces`, { title: 'Notes', editMode: 'locked' })
  const scratch = await write(api, 'post', `/v1/orgs/${orgId}/spaces`, { title: 'Scratch' })
  const other = await write(api, 'post', '/v1/orgs', { title: 'Second org', emailDomains: ['example.org'] })
  const elsewhere = await write(api, 'post', `/v1/orgs/${other.id}/spaces`, { title: 'Elsewhere' })

  await changeRequest(handbook.id, 'Seed', [
    insert('Guide', GUIDE, { ref: 'guide', emoji: '🧭' }),
    insert('Install', '# Install\n\nRun the zephyrine installer.\n', { into: 'guide', ref: 'install' }),
    insert('Linux', '---\nnoIndex: true\nhidden: true\n---\n# Linux\n\nOn Linux, use the package.\n', { into: 'install' }),
    insert('FAQ', '# FAQ\n\nQuestions and answers.\n', { description: 'Asked often' })
  ])
  const pages = await pageIds(handbook.id)
  const polish = await changeRequest(handbook.id, 'Polish the guide', [edit(pages.Guide!, `${GUIDE}\nA new paragraph.\n`)], 'open')
  const writer = await t.user({ role: 'edit', name: 'Wren Writer' })
  const typos = await changeRequest(
    handbook.id,
    'Typos',
    [edit(pages.FAQ!, '# FAQ\n\nQuestions and their answers.\n')],
    'draft',
    writer.api
  )
  return { guides, nested, handbook, internals, notes, scratch, other, elsewhere, pages, polish, typos, writer }
}

interface Pull {
  mirror: Mirror
  /** Every path the mirror asked for. */
  seen: string[]
  /** The most page documents asked for at once. */
  maxInFlight: () => number
}

/** A fresh copy owned by the server's owner, and a mirror reading the server with the owner's token. */
async function openCopy(options: MirrorOptions = {}, token = t.owner.token): Promise<Pull> {
  const owner = t.owner.user
  copy = await openLocalBackend({ dataDir: tmp(), account: { id: owner.id, displayName: owner.display_name, email: owner.email } })
  const seen: string[] = []
  let inFlight = 0
  let most = 0
  const get: RemoteGet = async (path) => {
    seen.push(path)
    const page = path.includes('/content/page/')
    if (page) most = Math.max(most, ++inFlight)
    try {
      return await fetch(new URL(path, t.url), { headers: { authorization: `Bearer ${token}` } })
    } finally {
      if (page) inFlight--
    }
  }
  const local = copy
  const mirror = createMirror(local.services.db, get, { committed: () => void local.services.writes++, ...options })
  return { mirror, seen, maxInFlight: () => most }
}

/** Everything the account sees: organizations, every space, every open or draft change request's content. */
async function pullAll(mirror: Mirror) {
  await mirror.pullAccount()
  await mirror.pullOrganizations()
  const orgs = (await t.owner.api.get('/v1/orgs')).body.items as { id: string }[]
  for (const org of orgs) {
    for (const space of (await t.owner.api.get(`/v1/orgs/${org.id}/spaces`, { limit: 1000 })).body.items) {
      await mirror.pullSpace(space.id)
      for (const status of ['open', 'draft']) {
        for (const cr of (await t.owner.api.get(`/v1/spaces/${space.id}/change-requests`, { status })).body.items) {
          await mirror.pullChangeRequest(space.id, String(cr.number))
        }
      }
    }
  }
}

async function fromCopy(path: string): Promise<{ status: number; body: any }> {
  const res = await copy!.request(new Request(`${LOCAL}${path}`))
  return { status: res.status, body: res.status === 204 ? undefined : await res.json() }
}

/** The `urls` members name each server's own address: both become `{base}`, nothing is dropped. */
function normalize(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body).replaceAll(t.url, '{base}').replaceAll(LOCAL, '{base}'))
}

/** The copy answers `path` as the server does. */
async function expectSameAnswer(path: string) {
  const server = await t.owner.api.get(path)
  const local = await fromCopy(path)
  expect(server.status, `${path} on the server: ${JSON.stringify(server.body)}`).toBe(200)
  expect({ path, status: local.status, body: normalize(local.body) }).toEqual({ path, status: 200, body: normalize(server.body) })
  return server.body
}

/** Rows of every table of the copy, and the rows its connection changed so far. */
function footprint() {
  const db = copy!.services.db
  const tables = db
    .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'search_sections_%' ORDER BY name")
    .pluck()
    .all()
  const rows = Object.fromEntries(tables.map((name) => [name, db.prepare<[], number>(`SELECT count(*) FROM "${name}"`).pluck().get()]))
  return { rows, changes: db.prepare<[], number>('SELECT total_changes()').pluck().get()! }
}

describe('mirror: server → local copy', () => {
  it('pulls what the account sees so the copy answers as the server does', async () => {
    const s = await seed()
    const { mirror, maxInFlight } = await openCopy({ pageSize: 2, concurrency: 2 })
    await pullAll(mirror)
    expect(maxInFlight()).toBeLessThanOrEqual(2)

    await expectSameAnswer('/v1/user')
    const orgs = await expectSameAnswer('/v1/orgs')
    expect(orgs.items).toHaveLength(2)
    for (const org of orgs.items) {
      await expectSameAnswer(`/v1/orgs/${org.id}`)
      await expectSameAnswer(`/v1/orgs/${org.id}/collections`)
      const spaces = await expectSameAnswer(`/v1/orgs/${org.id}/spaces`)
      for (const space of spaces.items) {
        await expectSameAnswer(`/v1/spaces/${space.id}`)
        await expectSameAnswer(`/v1/spaces/${space.id}/content/pages`)
      }
    }
    expect((await expectSameAnswer(`/v1/orgs/${t.orgId}/collections`)).items.find((c: any) => c.id === s.nested.id).parent).toBe(
      s.guides.id
    )

    const h = s.handbook.id
    for (const id of Object.values(s.pages)) await expectSameAnswer(`/v1/spaces/${h}/content/page/${id}`)
    // Front matter settings present as on a locally written page.
    const guide = (await fromCopy(`/v1/spaces/${h}/content/page/${s.pages.Guide}`)).body
    expect(guide).toMatchObject({
      description: 'Where to start',
      icon: 'book',
      emoji: '🧭',
      layout: { tableOfContents: false, outline: false, coverSize: 'hero' }
    })
    expect((await fromCopy(`/v1/spaces/${h}/content/page/${s.pages.Linux}`)).body).toMatchObject({
      noIndex: true,
      hidden: true,
      path: 'guide/install/linux'
    })

    const open = await expectSameAnswer(`/v1/spaces/${h}/change-requests`)
    expect(open.items.map((cr: any) => cr.subject)).toEqual(['Polish the guide'])
    const drafts = await expectSameAnswer(`/v1/spaces/${h}/change-requests?status=draft`)
    expect(drafts.items[0].createdBy).toMatchObject({ id: s.writer.user.id, displayName: 'Wren Writer' })
    for (const cr of [s.polish, s.typos]) {
      await expectSameAnswer(`/v1/spaces/${h}/change-requests/${cr.number}`)
      await expectSameAnswer(`/v1/spaces/${h}/change-requests/${cr.id}`)
      await expectSameAnswer(`/v1/spaces/${h}/change-requests/${cr.number}/content/pages`)
    }
    await expectSameAnswer(`/v1/spaces/${h}/change-requests/${s.polish.number}/content/page/${s.pages.Guide}`)
    await expectSameAnswer(`/v1/spaces/${h}/change-requests/${s.typos.number}/content/page/${s.pages.FAQ}`)

    const found = await expectSameAnswer(`/v1/spaces/${h}/search?query=zephyrine`)
    expect(found.items.map((p: any) => p.title)).toEqual(['Install'])
  })

  it('keeps the server ids, and the change requests whose revisions it did not pull', async () => {
    const s = await seed()
    const { mirror } = await openCopy()
    await mirror.pullAccount()
    await mirror.pullOrganizations()
    await mirror.pullSpace(s.handbook.id)
    const db = copy!.services.db
    const server = t.server.api.services.db
    const ids = (database: typeof db, sql: string) => database.prepare<[], string>(sql).pluck().all().sort()
    for (const sql of [
      'SELECT id FROM organizations',
      'SELECT id FROM collections',
      'SELECT id FROM spaces WHERE deleted_at IS NULL',
      "SELECT id FROM change_requests WHERE status IN ('open', 'draft')"
    ]) {
      expect(ids(db, sql), sql).toEqual(ids(server, sql))
    }
    const primary = (database: typeof db) => {
      const revision = database.prepare<[string], string>('SELECT revision_id FROM spaces WHERE id = ?').pluck().get(s.handbook.id)!
      return loadPages(database, revision)
        .map((p) => `${p.id} ${p.documentId ?? ''} ${p.documentHash ?? ''}`)
        .sort()
    }
    expect(primary(db)).toEqual(primary(server))
    expect(ids(db, 'SELECT id FROM users')).toEqual(
      ids(server, `SELECT id FROM users WHERE id IN ('${t.owner.user.id}', '${s.writer.user.id}')`)
    )

    // Only the primary content was pulled: the change requests' own revisions are not in the copy, yet they answer.
    expect(db.prepare('SELECT count(*) FROM revisions WHERE change_request_id IS NOT NULL').pluck().get()).toBe(0)
    await expectSameAnswer(`/v1/spaces/${s.handbook.id}/change-requests/${s.polish.number}`)
    await expectSameAnswer(`/v1/spaces/${s.handbook.id}/change-requests?status=draft`)
  })

  it('a second pull after a merge on the server reads only the changed page and moves the space to the new revision', async () => {
    const s = await seed()
    const { mirror, seen } = await openCopy()
    await pullAll(mirror)
    const h = s.handbook.id
    // Read (and its count cached) before the pull: the pull's commits tell the copy's API its counts are stale.
    expect((await expectSameAnswer(`/v1/spaces/${h}/change-requests`)).count).toBe(1)

    await write(t.owner.api, 'post', `/v1/spaces/${h}/change-requests/${s.polish.id}/merge`)
    const before = (await fromCopy(`/v1/spaces/${h}`)).body.revision
    seen.length = 0
    await mirror.pullSpace(h)
    expect(seen.filter((p) => p.includes('/content/page/'))).toEqual([`/v1/spaces/${h}/content/page/${s.pages.Guide}?format=markdown`])
    // The copy stores the new revision as its one changed page over the revision it held (a delta, one page row).
    const after = (await fromCopy(`/v1/spaces/${h}`)).body.revision
    const db = copy!.services.db
    expect(db.prepare('SELECT base_id FROM revision_bases WHERE revision_id = ?').pluck().get(after)).toBe(before)
    expect(db.prepare('SELECT count(*) FROM revision_pages WHERE revision_id = ?').pluck().get(after)).toBe(1)

    const space = await expectSameAnswer(`/v1/spaces/${h}`)
    expect((await fromCopy(`/v1/spaces/${h}`)).body.revision).toBe(space.revision)
    await expectSameAnswer(`/v1/spaces/${h}/content/pages`)
    expect((await expectSameAnswer(`/v1/spaces/${h}/content/page/${s.pages.Guide}`)).markdown).toContain('A new paragraph.')
    // The merged change request left the open list; its row follows.
    expect(await expectSameAnswer(`/v1/spaces/${h}/change-requests`)).toEqual({ items: [], count: 0 })
    expect((await expectSameAnswer(`/v1/spaces/${h}/change-requests/${s.polish.number}`)).status).toBe('merged')
    expect((await expectSameAnswer(`/v1/spaces/${h}/search?query=paragraph`)).items.map((p: any) => p.title)).toEqual(['Guide'])
  })

  it('drops primary revisions of a space once nothing needs them (each holds a row per page)', async () => {
    const s = await seed()
    const { mirror } = await openCopy()
    await pullAll(mirror)
    const h = s.handbook.id
    const db = copy!.services.db
    const primaries = () =>
      db.prepare<[string], string>('SELECT id FROM revisions WHERE space_id = ? AND change_request_id IS NULL ORDER BY seq').pluck().all(h)
    const search = () => fromCopy(`/v1/spaces/${h}/search?query=guide`)
    const merged = async (markdown: string) => {
      await changeRequest(h, 'Another edit', [edit(s.pages.Guide!, markdown)])
      await mirror.pullSpace(h)
      return (await fromCopy(`/v1/spaces/${h}`)).body.revision as string
    }

    const first = await merged(`${GUIDE}\nOne.\n`)
    await search()
    const second = await merged(`${GUIDE}\nTwo.\n`)
    // `first` is what the search rows still describe: kept until they catch up.
    expect(primaries()).toContain(first)
    await search()
    const third = await merged(`${GUIDE}\nThree.\n`)
    const kept = primaries()
    expect(kept).not.toContain(first)
    expect(kept).toContain(second)
    expect(kept).toContain(third)
    // The revisions the seed's change requests were opened on stay: their bases.
    const bases = db.prepare<[string], string>('SELECT DISTINCT revision_initial FROM change_requests WHERE space_id = ?').pluck().all(h)
    for (const base of bases) expect(kept).toContain(base)
    expect((await fromCopy(`/v1/spaces/${h}/content/page/${s.pages.Guide}`)).body.markdown).toContain('Three.')
  })

  it('a space or change request pulled first brings what holds it: its organization, collections and space', async () => {
    const s = await seed()
    const { mirror } = await openCopy()
    await mirror.pullChangeRequest(s.handbook.id, String(s.typos.number))
    await mirror.pullSpace(s.internals.id)
    await expectSameAnswer(`/v1/orgs/${t.orgId}/collections`)
    await expectSameAnswer(`/v1/spaces/${s.internals.id}`)
    await expectSameAnswer(`/v1/spaces/${s.handbook.id}`)
    await expectSameAnswer(`/v1/spaces/${s.handbook.id}/change-requests/${s.typos.number}/content/pages`)
  })

  it('leaves alone the change requests the copy keeps (writes the server does not have yet)', async () => {
    const s = await seed()
    let held: string | undefined
    const { mirror } = await openCopy({ keeps: (id) => id === held })
    await pullAll(mirror)
    const h = s.handbook.id
    held = s.polish.id
    const row = () => copy!.services.db.prepare('SELECT * FROM change_requests WHERE id = ?').get(s.polish.id)
    const before = row()

    await write(t.owner.api, 'post', `/v1/spaces/${h}/change-requests/${s.polish.id}/merge`)
    await write(s.writer.api, 'patch', `/v1/spaces/${h}/change-requests/${s.typos.id}`, { subject: 'Typos, all of them' })
    await mirror.pullSpace(h)
    expect(row()).toEqual(before)
    await expectSameAnswer(`/v1/spaces/${h}/change-requests/${s.typos.number}`)
  })

  it('starts a content read over when the content moves on while its pages are read', async () => {
    const s = await seed()
    const h = s.handbook.id
    const owner = t.owner.user
    copy = await openLocalBackend({ dataDir: tmp(), account: { id: owner.id, displayName: owner.display_name, email: owner.email } })
    const seen: string[] = []
    let merged = false
    const mirror = createMirror(copy.services.db, async (path) => {
      seen.push(path)
      if (!merged && path.startsWith(`/v1/spaces/${h}/content/page/${s.pages.Guide}`)) {
        merged = true
        await write(t.owner.api, 'post', `/v1/spaces/${h}/change-requests/${s.polish.id}/merge`)
      }
      return fetch(new URL(path, t.url), { headers: { authorization: `Bearer ${t.owner.token}` } })
    })
    await mirror.pullOrganizations()
    await mirror.pullSpace(h)

    expect(merged).toBe(true)
    expect(seen.filter((p) => p === `/v1/spaces/${h}/content`)).toHaveLength(2)
    await expectSameAnswer(`/v1/spaces/${h}`)
    for (const id of Object.values(s.pages)) await expectSameAnswer(`/v1/spaces/${h}/content/page/${id}`)
    // Only the revision read whole is stored.
    expect(copy!.services.db.prepare('SELECT count(*) FROM revisions').pluck().get()).toBe(1)
  })

  it('removes what the server no longer lists: a deleted space, a deleted collection with its spaces', async () => {
    const s = await seed()
    const { mirror } = await openCopy()
    await pullAll(mirror)
    const db = copy!.services.db
    expect((await fromCopy(`/v1/spaces/${s.scratch.id}`)).status).toBe(200)

    await write(t.owner.api, 'delete', `/v1/spaces/${s.scratch.id}`)
    await write(t.owner.api, 'delete', `/v1/collections/${s.nested.id}`)
    await mirror.pullOrganizations()

    for (const gone of [s.scratch.id, s.internals.id]) {
      expect((await fromCopy(`/v1/spaces/${gone}`)).status).toBe(404)
      expect(db.prepare('SELECT count(*) FROM revisions WHERE space_id = ?').pluck().get(gone)).toBe(0)
      expect(db.prepare('SELECT count(*) FROM search_spaces WHERE space_id = ?').pluck().get(gone)).toBe(0)
    }
    expect((await fromCopy(`/v1/collections/${s.nested.id}`)).status).toBe(404)
    await expectSameAnswer(`/v1/orgs/${t.orgId}/spaces`)
    await expectSameAnswer(`/v1/orgs/${t.orgId}/collections`)
  })

  it('pulling the same state twice changes nothing and reads no content again', async () => {
    const s = await seed()
    const { mirror, seen } = await openCopy()
    await pullAll(mirror)
    await fromCopy(`/v1/spaces/${s.handbook.id}/search?query=guide`)
    const before = footprint()
    seen.length = 0
    await pullAll(mirror)
    expect(footprint()).toEqual(before)
    expect(seen.filter((p) => /\/content(\/|$|\?)/.test(p))).toEqual([])
  })

  it('rejects with MirrorError carrying the status and the server message (404, 401); network failures propagate', async () => {
    await seed()
    const { mirror } = await openCopy()
    const missing = mirror.pullSpace('no-such-space')
    await expect(missing).rejects.toBeInstanceOf(MirrorError)
    await expect(missing).rejects.toMatchObject({ status: 404, message: expect.stringMatching(/Space/) })
    await expect(mirror.pullChangeRequest(t.orgId, '1')).rejects.toMatchObject({ status: 404 })

    const refused = createMirror(copy!.services.db, (path) => fetch(new URL(path, t.url), { headers: { authorization: 'Bearer wrong' } }))
    await expect(refused.pullAccount()).rejects.toMatchObject({ name: 'MirrorError', status: 401 })
    await expect(refused.pullOrganizations()).rejects.toMatchObject({ status: 401 })

    const down = new TypeError('fetch failed')
    const offline = createMirror(copy!.services.db, () => Promise.reject(down))
    await expect(offline.pullOrganizations()).rejects.toBe(down)
  })

  it("takes the account's role from the server, and keeps what it has ('read' for a new one) where the server does not say", async () => {
    const s = await seed()
    const guest = await t.user({ role: null })
    await write(t.owner.api, 'post', `/v1/spaces/${s.notes.id}/permissions`, { role: 'comment', users: [guest.user.id] }, [204])
    copy = await openLocalBackend({ dataDir: tmp(), account: { id: guest.user.id, displayName: guest.user.display_name } })
    const db = copy.services.db
    let membersAnswer: number | undefined
    const get: RemoteGet = (path) =>
      membersAnswer && path.includes('/members/')
        ? Promise.resolve(Response.json({ error: { code: membersAnswer, message: 'Not for you' } }, { status: membersAnswer }))
        : fetch(new URL(path, t.url), { headers: { authorization: `Bearer ${guest.token}` } })
    const mirror = createMirror(db, get)
    const roles = () => db.prepare('SELECT organization_id, role FROM members').all()

    await mirror.pullOrganizations()
    expect(roles()).toEqual([{ organization_id: t.orgId, role: null }])
    expect(db.prepare('SELECT id FROM spaces').pluck().all()).toEqual([s.notes.id])
    // The guest's grant on the space (from the server's permissions for it): the copy lets the guest in as the server does.
    const onServer = await fetch(new URL(`/v1/spaces/${s.notes.id}`, t.url), { headers: { authorization: `Bearer ${guest.token}` } })
    const local = await fromCopy(`/v1/spaces/${s.notes.id}`)
    expect(local.status).toBe(200)
    expect(local.body.permissions).toEqual(((await onServer.json()) as { permissions: unknown }).permissions)
    expect(local.body.permissions).toMatchObject({ view: true, comment: true, edit: false })

    membersAnswer = 403
    await mirror.pullOrganizations()
    expect(roles()).toEqual([{ organization_id: t.orgId, role: null }])
    db.prepare('DELETE FROM members').run()
    membersAnswer = 404
    await mirror.pullOrganizations()
    expect(roles()).toEqual([{ organization_id: t.orgId, role: 'read' }])
  })
})

describe('politeGet', () => {
  it('waits as long as a server answering 429 asks, then asks again; gives up after a few tries', async () => {
    const waits: number[] = []
    const answers = [
      new Response('{}', { status: 429, headers: { 'retry-after': '2' } }),
      new Response('{}', { status: 429, headers: { 'retry-after': new Date(Date.now() + 5 * 60_000).toUTCString() } }),
      new Response('{}', { status: 429 }),
      Response.json({ ok: true })
    ]
    const get = politeGet(
      async () => answers.shift()!,
      async (ms) => void waits.push(ms)
    )
    const res = await get('/v1/orgs')
    expect(res.status).toBe(200)
    // Seconds as given; a date capped at a minute; none: a growing pause.
    expect(waits).toEqual([2000, 60_000, 4000])

    const always = politeGet(
      async () => new Response('{}', { status: 429, headers: { 'retry-after': '0' } }),
      async () => {}
    )
    expect((await always('/v1/orgs')).status).toBe(429)
    const plain = politeGet(
      async () => new Response('{}', { status: 404 }),
      async () => {
        throw new Error('no wait for a 404')
      }
    )
    expect((await plain('/v1/orgs')).status).toBe(404)
  })
})
