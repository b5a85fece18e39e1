import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { createSite, expectInvalid, sitePath } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const linksPath = (siteId: string) => `${sitePath(t, siteId)}/share-links`

function expectShareLink(link: any, siteId: string) {
  expect(link).toMatchObject({
    object: 'share-link',
    id: expect.any(String),
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    name: expect.any(String),
    active: expect.any(Boolean),
    urls: { published: expect.stringMatching(new RegExp(`/preview/sites/${siteId}/\\?shareKey=[\\w-]{20,}$`)) }
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
    for (const [method, path, body] of operations) expect((await reviewer.api.request(method, path, body)).status, `${method} ${path}`).toBe(403)
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
    expectShareLink(a.body, site.id)
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
