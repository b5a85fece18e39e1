import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../storage/database'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { createSite, createSpace, expectInvalid, preview, publish, sitePath } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const linksPath = (siteId: string) => `${sitePath(t, siteId)}/share-links`

/** A share link as answered: its URL carries the key in the answer that creates it only. */
function expectShareLink(link: any, siteId: string, { created = false } = {}) {
  expect(link).toMatchObject({
    object: 'share-link',
    id: expect.any(String),
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    name: expect.any(String),
    active: expect.any(Boolean),
    urls: { published: expect.stringMatching(new RegExp(`/preview/sites/${siteId}/${created ? '\\?shareKey=[\\w-]{32}' : ''}$`)) }
  })
}

describe('access to share links', () => {
  it('answers 401, 404, and 403 below the create role (keys are secrets: even listing is management)', async () => {
    const site = await createSite(t, { visibility: 'share-link' })
    const link = (await t.owner.api.post(linksPath(site.id), { name: 'Partners' })).body
    const item = `${linksPath(site.id)}/${link.id}`
    const operations = [
      ['GET', linksPath(site.id), undefined],
      ['POST', linksPath(site.id), { name: 'x' }],
      ['PATCH', item, { active: false }],
      ['DELETE', item, undefined]
    ] as const
    for (const [method, path, body] of operations) expect((await t.anonymous.request(method, path, body)).status).toBe(401)
    const outsider = await t.user({ role: 'none' })
    for (const [method, path, body] of operations) expect((await outsider.api.request(method, path, body)).status).toBe(404)
    const reviewer = await t.user({ role: 'review' })
    for (const [method, path, body] of operations)
      expect((await reviewer.api.request(method, path, body)).status, `${method} ${path}`).toBe(403)
    const creator = await t.user({ role: 'create' })
    expect((await creator.api.get(linksPath(site.id))).body.count).toBe(1)
    expect((await t.owner.api.patch(`${linksPath(site.id)}/nope`, { active: false })).status).toBe(404)
    const other = await createSite(t)
    expect((await t.owner.api.patch(`${linksPath(other.id)}/${link.id}`, { active: false })).status).toBe(404)
    expect((await t.owner.api.get(linksPath(site.id))).body.items[0].active).toBe(true)
  })
})

describe('share links', () => {
  it('creates active links, each with its own secret key', async () => {
    const site = await createSite(t, { visibility: 'share-link' })
    const a = await t.owner.api.post(linksPath(site.id), { name: 'Partners' })
    expect(a.status).toBe(201)
    expectShareLink(a.body, site.id, { created: true })
    expect(a.body).toMatchObject({ name: 'Partners', active: true })
    const b = (await t.owner.api.post(linksPath(site.id), { name: 'Press' })).body
    expect(new URL(b.urls.published).searchParams.get('shareKey')).not.toBe(new URL(a.body.urls.published).searchParams.get('shareKey'))
  })

  it('lists, renames, turns off and deletes links', async () => {
    const site = await createSite(t)
    for (let i = 0; i < 3; i++) await t.owner.api.post(linksPath(site.id), { name: `Link ${i}` })
    const { items, pages } = await walk(t.owner.api, linksPath(site.id), { limit: 2 })
    expect(items.map((l) => l.name)).toEqual(['Link 0', 'Link 1', 'Link 2'])
    expect(pages.map((p) => p.items.length)).toEqual([2, 1])
    expect(pages.every((p) => p.count === 3)).toBe(true)
    items.forEach((l) => expectShareLink(l, site.id))

    const item = `${linksPath(site.id)}/${items[0].id}`
    const off = await t.owner.api.patch(item, { active: false, name: 'Old partners' })
    expect(off.status).toBe(200)
    expectShareLink(off.body, site.id)
    expect(off.body).toMatchObject({ active: false, name: 'Old partners', urls: { published: items[0].urls.published } })
    expect((await t.owner.api.patch(item, { active: true })).body).toMatchObject({ active: true, name: 'Old partners' })

    const res = await t.owner.api.delete(item)
    expect(res.status).toBe(205)
    expect(res.body).toBeUndefined()
    expect((await t.owner.api.get(linksPath(site.id))).body.count).toBe(2)
    expect((await t.owner.api.delete(item)).status).toBe(404)
  })

  it('rejects invalid bodies, changing nothing', async () => {
    const site = await createSite(t)
    await expectInvalid(t.owner.api, 'POST', linksPath(site.id), [
      [{}, 'name: is required'],
      [{ name: '' }, 'name: must be at least 1 characters'],
      [{ name: 'n'.repeat(51) }, 'name: must be at most 50 characters'],
      [{ name: 42 }, 'name: must be string']
    ])
    expect((await t.owner.api.get(linksPath(site.id))).body.count).toBe(0)
    const link = (await t.owner.api.post(linksPath(site.id), { name: 'Kept' })).body
    await expectInvalid(t.owner.api, 'PATCH', `${linksPath(site.id)}/${link.id}`, [
      [{ active: 'no' }, 'active: must be boolean'],
      [{ name: 'n'.repeat(51) }, 'name: must be at most 50 characters']
    ])
    expect((await t.owner.api.get(linksPath(site.id))).body.items[0]).toMatchObject({ name: 'Kept', active: true })
  })
})

describe('share-link keys', () => {
  const keyOf = (link: { urls: { published: string } }) => new URL(link.urls.published).searchParams.get('shareKey')!
  const table = () => t.server.api.services.db.prepare('SELECT * FROM site_share_links').all() as Record<string, unknown>[]

  it('shows a key once, when its link is created, and stores only its SHA-256', async () => {
    const space = await createSpace(t, 'Docs')
    const site = await createSite(t, { visibility: 'share-link', spaces: [space.id] })
    await publish(t, site.id)
    const created = (await t.owner.api.post(linksPath(site.id), { name: 'Partners' })).body
    const key = keyOf(created)
    expect(key).toMatch(/^[\w-]{32}$/)
    expect((await preview(t, `/preview/sites/${site.id}/?shareKey=${key}`)).status).toBe(200)

    // Lists and changes answer the site's URL, without the key.
    const listed = (await t.owner.api.get(linksPath(site.id))).body.items[0]
    expectShareLink(listed, site.id)
    expect(listed.urls.published).toBe((await t.owner.api.get(sitePath(t, site.id))).body.urls.published)
    const renamed = (await t.owner.api.patch(`${linksPath(site.id)}/${created.id}`, { name: 'Old partners' })).body
    expectShareLink(renamed, site.id)
    for (const body of [listed, renamed]) expect(JSON.stringify(body)).not.toContain(key)

    // The table holds the hash, not the key.
    const rows = table()
    expect(rows).toHaveLength(1)
    expect(rows[0]!.key_hash).toBe(createHash('sha256').update(key).digest('hex'))
    expect(JSON.stringify(rows)).not.toContain(key)

    // A turned-off link is refused by the preview and by the API's lookups.
    await t.owner.api.patch(`${linksPath(site.id)}/${created.id}`, { active: false })
    expect((await preview(t, `/preview/sites/${site.id}/?shareKey=${key}`)).status).toBe(404)
    expect((await t.owner.api.get(`${sitePath(t, site.id)}/published`, { shareKey: key })).status).toBe(400)
    expect((await t.owner.api.get(`/v1/spaces/${space.id}`, { shareKey: key })).status).toBe(400)
  })

  it("resolves a space's published URL with the key of an active link of a site showing it", async () => {
    const docs = await createSpace(t, 'Docs')
    const elsewhere = await createSpace(t, 'Elsewhere')
    const open = await createSite(t, { spaces: [docs.id] })
    await publish(t, open.id)
    const shared = await createSite(t, { visibility: 'share-link', spaces: [docs.id] })
    await publish(t, shared.id)
    const key = keyOf((await t.owner.api.post(linksPath(shared.id), { name: 'Partners' })).body)

    // Without a key, the first published site showing the space; with one, the link's site, carrying the key.
    expect((await t.owner.api.get(`/v1/spaces/${docs.id}`)).body.urls.published).toBe(`${t.url}/preview/sites/${open.id}/docs/`)
    const res = await t.owner.api.get(`/v1/spaces/${docs.id}`, { shareKey: key })
    expect(res.status).toBe(200)
    expect(res.body.urls.published).toBe(`${t.url}/preview/sites/${shared.id}/docs/?shareKey=${key}`)
    expect((await preview(t, new URL(res.body.urls.published).pathname + new URL(res.body.urls.published).search)).status).toBe(200)

    for (const [spaceId, shareKey] of [
      [elsewhere.id, key],
      [docs.id, 'wrong']
    ]) {
      const refused = await t.owner.api.get(`/v1/spaces/${spaceId}`, { shareKey })
      expect(refused.status).toBe(400)
      expect(refused.body.error.message).toBe('shareKey: not the key of an active share link of a published site showing this space')
    }
    await t.owner.api.post(`${sitePath(t, shared.id)}/unpublish`)
    expect((await t.owner.api.get(`/v1/spaces/${docs.id}`, { shareKey: key })).status).toBe(400)
  })

  it('still opens a site with a key stored in plaintext before keys were hashed (migration 17)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-share-links-'))
    try {
      const before = await startTestServer({ dataDir: dir })
      const space = await createSpace(before, 'Docs')
      const site = await createSite(before, { visibility: 'share-link', spaces: [space.id] })
      await publish(before, site.id)
      await before.owner.api.post(`${sitePath(before, site.id)}/share-links`, { name: 'Partners' })
      await before.close()
      // The link as a workspace from before the migration holds it: its key itself, in the column named key.
      const legacyKey = 'Legacy-plaintext-share-key-01234'
      const db = openDatabase({ file: join(dir, 'quire.db') })
      db.exec('ALTER TABLE site_share_links RENAME COLUMN key_hash TO key')
      db.prepare('UPDATE site_share_links SET key = ?').run(legacyKey)
      db.prepare('DELETE FROM schema_migrations WHERE version = 17').run()
      db.close()

      const after = await startTestServer({ dataDir: dir })
      try {
        expect((await preview(after, `/preview/sites/${site.id}/?shareKey=${legacyKey}`)).status).toBe(200)
        expect((await preview(after, `/preview/sites/${site.id}/?shareKey=${legacyKey}x`)).status).toBe(404)
        const rows = after.server.api.services.db.prepare('SELECT * FROM site_share_links').all()
        expect(JSON.stringify(rows)).not.toContain(legacyKey)
        expect((await after.owner.api.get(`${sitePath(after, site.id)}/share-links`)).body.items[0].urls.published).not.toContain(
          'shareKey'
        )
      } finally {
        await after.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
