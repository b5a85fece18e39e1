import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { addSection, addSiteSpace, createSite, createSpace, expectInvalid, expectSiteSpace, sitePath } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const siteSpacesPath = (siteId: string) => `${sitePath(t, siteId)}/site-spaces`
const order = async (siteId: string) => (await walk(t.owner.api, siteSpacesPath(siteId))).items.map((s) => s.title)

describe('access to site spaces', () => {
  it('answers 401, 404 and 403 as it should', async () => {
    const space = await createSpace(t)
    const site = await createSite(t, { spaces: [space.id] })
    const [siteSpace] = (await t.owner.api.get(siteSpacesPath(site.id))).body.items
    const item = `${siteSpacesPath(site.id)}/${siteSpace.id}`
    const operations = [
      ['GET', siteSpacesPath(site.id), undefined],
      ['POST', siteSpacesPath(site.id), { spaceId: space.id }],
      ['PATCH', item, { path: 'x' }],
      ['DELETE', item, undefined],
      ['POST', `${item}/move`, {}]
    ] as const
    for (const [method, path, body] of operations) {
      expect((await t.anonymous.request(method, path, body)).status, `${method} ${path}`).toBe(401)
    }
    const outsider = await t.user({ role: 'none' })
    for (const [method, path, body] of operations) {
      expect((await outsider.api.request(method, path, body)).status, `${method} ${path}`).toBe(404)
    }
    const reader = await t.user({ role: 'edit' })
    expect((await reader.api.get(siteSpacesPath(site.id))).status).toBe(200)
    for (const [method, path, body] of operations.slice(1)) {
      expect((await reader.api.request(method, path, body)).status, `${method} ${path}`).toBe(403)
    }
    expect((await t.owner.api.get(siteSpacesPath('nope'))).status).toBe(404)
    expect((await t.owner.api.patch(`${siteSpacesPath(site.id)}/nope`, { path: 'x' })).status).toBe(404)
    // A site space of another site is not reachable through this one.
    const other = await createSite(t)
    expect((await t.owner.api.patch(`${siteSpacesPath(other.id)}/${siteSpace.id}`, { path: 'x' })).status).toBe(404)
    expect((await t.owner.api.delete(`${siteSpacesPath(other.id)}/${siteSpace.id}`)).status).toBe(404)
  })
})

describe('linking spaces', () => {
  it('links at the root with a unique path from the title; the first is the default', async () => {
    const site = await createSite(t)
    const a = await createSpace(t, 'User Guide')
    const b = await createSpace(t, 'User guide')
    const first = await addSiteSpace(t, site.id, a.id)
    expectSiteSpace(first)
    expect(first).toMatchObject({ path: 'user-guide', default: true, title: 'User Guide', space: { id: a.id, object: 'space' } })
    expect(first.section).toBeUndefined()
    expect(first.urls.published).toMatch(new RegExp(`/preview/sites/${site.id}/user-guide/$`))
    const second = await addSiteSpace(t, site.id, b.id)
    expect(second).toMatchObject({ path: 'user-guide-2', default: false })
    expect((await t.owner.api.get(sitePath(t, site.id))).body.siteSpaces).toBe(2)
  })

  it('links into the given section, else into the default section', async () => {
    const [a, b, c] = [await createSpace(t, 'A'), await createSpace(t, 'B'), await createSpace(t, 'C')]
    const site = await createSite(t)
    const s1 = await addSection(t, site.id, { spaceId: a.id, title: 'One' })
    const s2 = await addSection(t, site.id, { spaceId: b.id, title: 'Two' })
    const intoTwo = await addSiteSpace(t, site.id, c.id, s2.id)
    expect(intoTwo).toMatchObject({ section: s2.id, default: false })
    expect(intoTwo.urls.published).toMatch(new RegExp(`/preview/sites/${site.id}/two/c/$`))
    const intoDefault = await addSiteSpace(t, site.id, c.id)
    expect(intoDefault).toMatchObject({ section: s1.id, path: 'c-2' })
  })

  it('rejects invalid bodies and changes nothing', async () => {
    const site = await createSite(t)
    const other = await createSite(t)
    const space = await createSpace(t)
    const foreignSection = await addSection(t, other.id, { spaceId: space.id })
    await expectInvalid(t.owner.api, 'POST', siteSpacesPath(site.id), [
      [{}, 'spaceId: is required'],
      [{ spaceId: '' }, 'spaceId: must be at least 1 characters'],
      [{ spaceId: 7 }, 'spaceId: must be string'],
      [{ spaceId: 'nope' }, 'spaceId: no space nope in this organization'],
      [{ spaceId: space.id, sectionId: foreignSection.id }, `sectionId: no section ${foreignSection.id} in this site`]
    ])
    expect((await t.owner.api.get(siteSpacesPath(site.id))).body.count).toBe(0)
  })
})

describe('listing site spaces', () => {
  it('walks every site space once in order, and filters on default', async () => {
    const site = await createSite(t)
    for (let i = 0; i < 5; i++) await addSiteSpace(t, site.id, (await createSpace(t, `S${i}`)).id)
    const { items, pages } = await walk(t.owner.api, siteSpacesPath(site.id), { limit: 2 })
    expect(items.map((s) => s.title)).toEqual(['S0', 'S1', 'S2', 'S3', 'S4'])
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1])
    expect(pages.every((p) => p.count === 5)).toBe(true)
    const defaults = await walk(t.owner.api, siteSpacesPath(site.id), { default: true })
    expect(defaults.items.map((s) => s.title)).toEqual(['S0'])
    expect(defaults.pages[0].count).toBe(1)
    const others = await walk(t.owner.api, siteSpacesPath(site.id), { default: false, limit: 3 })
    expect(others.items.map((s) => s.title)).toEqual(['S1', 'S2', 'S3', 'S4'])
    expect(others.pages[0].count).toBe(4)
  })

  it('resolves published URLs with an active share key, and rejects other keys', async () => {
    const site = await createSite(t, { visibility: 'share-link', spaces: [(await createSpace(t, 'Docs')).id] })
    const link = (await t.owner.api.post(`${sitePath(t, site.id)}/share-links`, { name: 'Partners' })).body
    const key = new URL(link.urls.published).searchParams.get('shareKey')!
    const res = await t.owner.api.get(siteSpacesPath(site.id), { shareKey: key })
    expect(res.body.items[0].urls.published).toContain(`/docs/?shareKey=${key}`)
    const bad = await t.owner.api.get(siteSpacesPath(site.id), { shareKey: 'wrong' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toContain('shareKey: ')
    expect((await t.owner.api.get(siteSpacesPath(site.id), { default: 'perhaps' })).status).toBe(400)
  })
})

describe('updating site spaces', () => {
  it('updates the path and the condition, and removes the condition with null', async () => {
    const site = await createSite(t, { spaces: [(await createSpace(t)).id] })
    const [siteSpace] = (await t.owner.api.get(siteSpacesPath(site.id))).body.items
    const res = await t.owner.api.patch(`${siteSpacesPath(site.id)}/${siteSpace.id}`, {
      path: 'v2',
      condition: 'visitor.claims.isBeta && !visitor.claims.unsigned.internal'
    })
    expect(res.status).toBe(200)
    expectSiteSpace(res.body)
    expect(res.body).toMatchObject({ path: 'v2', condition: 'visitor.claims.isBeta && !visitor.claims.unsigned.internal' })
    expect(res.body.urls.published).toMatch(/\/v2\/$/)
    const kept = await t.owner.api.patch(`${siteSpacesPath(site.id)}/${siteSpace.id}`, {})
    expect(kept.body.condition).toBe('visitor.claims.isBeta && !visitor.claims.unsigned.internal')
    const removed = await t.owner.api.patch(`${siteSpacesPath(site.id)}/${siteSpace.id}`, { condition: null })
    expect(removed.body.condition).toBeUndefined()
    expect(removed.body.path).toBe('v2')
  })

  it('refuses a path another site space of the site uses (409)', async () => {
    const site = await createSite(t, { spaces: [(await createSpace(t, 'One')).id, (await createSpace(t, 'Two')).id] })
    const [one, two] = (await t.owner.api.get(siteSpacesPath(site.id))).body.items
    const clash = await t.owner.api.patch(`${siteSpacesPath(site.id)}/${two.id}`, { path: one.path })
    expect(clash.status).toBe(409)
    expect(clash.body.error).toEqual({ code: 409, message: expect.stringContaining('path: ') })
    expect((await t.owner.api.patch(`${siteSpacesPath(site.id)}/${one.id}`, { path: one.path })).status).toBe(200)
    // Another site may use the same path.
    const other = await createSite(t, { spaces: [(await createSpace(t, 'One')).id] })
    expect((await t.owner.api.get(siteSpacesPath(other.id))).body.items[0].path).toBe('one')
  })

  it('rejects invalid paths and conditions with the envelope', async () => {
    const site = await createSite(t, { spaces: [(await createSpace(t, 'Docs')).id] })
    const [siteSpace] = (await t.owner.api.get(siteSpacesPath(site.id))).body.items
    const n = await expectInvalid(t.owner.api, 'PATCH', `${siteSpacesPath(site.id)}/${siteSpace.id}`, [
      [{ path: '' }, 'path: must be at least 1 characters'],
      [{ path: 'p'.repeat(101) }, 'path: must be at most 100 characters'],
      [{ path: 'with space' }, 'path: must be letters, digits, ., _, ~ and -, other than . and ..'],
      [{ path: 'a/b' }, 'path: must be letters, digits, ., _, ~ and -, other than . and ..'],
      [{ path: '..' }, 'path: must be letters, digits, ., _, ~ and -, other than . and ..'],
      [{ condition: '' }, 'condition: must be at least 1 characters'],
      [{ condition: `visitor.claims.a || ${'visitor.claims.b || '.repeat(60)}true` }, 'condition: must be at most 1024 characters'],
      [{ condition: 'visitor.claims.isBeta &&' }, 'condition: cannot be parsed'],
      [{ condition: 'visitor.claims.isBeta)' }, 'condition: cannot be parsed'],
      [{ condition: 'user.isBeta' }, 'condition: unknown name user'],
      [{ condition: 'visitor.claim.isBeta' }, 'condition: visitor.claim.isBeta is not a claim'],
      [{ condition: 'visitor.claims' }, 'condition: visitor.claims is not a claim'],
      [{ condition: 'visitor.claims.n + 1 > 2' }, 'condition: operator + is not allowed'],
      [{ condition: 'alert(1)' }, 'condition: only includes, startsWith, endsWith can be called'],
      [{ condition: 'visitor.claims.a; visitor.claims.b' }, 'condition: '],
      [{ condition: 'visitor.claims[visitor.claims.key]' }, 'condition: only visitor.claims.<name> paths'],
      [{ condition: 'this.constructor' }, 'condition: '],
      [{ condition: 42 }, 'condition: must be string']
    ])
    expect(n).toBeGreaterThanOrEqual(15)
    expect((await t.owner.api.get(siteSpacesPath(site.id))).body.items[0]).toMatchObject({ path: 'docs' })
    expect((await t.owner.api.get(siteSpacesPath(site.id))).body.items[0].condition).toBeUndefined()
  })
})

describe('deleting and moving site spaces', () => {
  it('unlinks (205), keeps the count true and passes the default on', async () => {
    const site = await createSite(t, { spaces: [(await createSpace(t, 'One')).id, (await createSpace(t, 'Two')).id] })
    const [one, two] = (await t.owner.api.get(siteSpacesPath(site.id))).body.items
    const res = await t.owner.api.delete(`${siteSpacesPath(site.id)}/${one.id}`)
    expect(res.status).toBe(205)
    expect(res.body).toBeUndefined()
    expect((await t.owner.api.get(sitePath(t, site.id))).body.siteSpaces).toBe(1)
    expect((await t.owner.api.get(siteSpacesPath(site.id))).body.items).toMatchObject([{ id: two.id, default: true }])
    expect((await t.owner.api.delete(`${siteSpacesPath(site.id)}/${one.id}`)).status).toBe(404)
  })

  it('moves before and after others, keeping a stable order, and to the end without a position', async () => {
    const site = await createSite(t)
    for (const title of ['A', 'B', 'C', 'D']) await addSiteSpace(t, site.id, (await createSpace(t, title)).id)
    const ids = Object.fromEntries((await t.owner.api.get(siteSpacesPath(site.id))).body.items.map((s: any) => [s.title, s.id]))
    const move = (id: string, body: unknown) => t.owner.api.post(`${siteSpacesPath(site.id)}/${id}/move`, body)
    const moved = await move(ids.D, { position: { before: { type: 'site-space', siteSpace: ids.A } } })
    expect(moved.status).toBe(200)
    expectSiteSpace(moved.body)
    expect(await order(site.id)).toEqual(['D', 'A', 'B', 'C'])
    await move(ids.A, { position: { after: { type: 'site-space', siteSpace: ids.C } } })
    expect(await order(site.id)).toEqual(['D', 'B', 'C', 'A'])
    // Many moves into the same gap keep the order exact (positions are renumbered when the gap runs out).
    for (let i = 0; i < 60; i++) {
      await move(i % 2 ? ids.B : ids.C, { position: { after: { type: 'site-space', siteSpace: ids.D } } })
    }
    expect(await order(site.id)).toEqual(['D', 'B', 'C', 'A'])
    await move(ids.D, {})
    expect(await order(site.id)).toEqual(['B', 'C', 'A', 'D'])

    await expectInvalid(t.owner.api, 'POST', `${siteSpacesPath(site.id)}/${ids.A}/move`, [
      [{ position: { before: { type: 'site-space', siteSpace: 'nope' } } }, 'position.before: '],
      [
        { position: { before: { type: 'site-space', siteSpace: ids.B }, after: { type: 'site-space', siteSpace: ids.C } } },
        'position: give either before or after'
      ],
      [{ position: { after: { type: 'space', siteSpace: ids.B } } }, 'position.after.type'],
      [{ position: { after: { type: 'site-space', siteSpace: ids.A } } }, 'position.after: ']
    ])
    expect(await order(site.id)).toEqual(['B', 'C', 'A', 'D'])
  })

  it('moves only among the site spaces of the same section', async () => {
    const site = await createSite(t)
    const s1 = await addSection(t, site.id, { spaceId: (await createSpace(t, 'One')).id })
    const s2 = await addSection(t, site.id, { spaceId: (await createSpace(t, 'Two')).id })
    const res = await t.owner.api.post(`${siteSpacesPath(site.id)}/${s1.siteSpaces[0]!.id}/move`, {
      position: { before: { type: 'site-space', siteSpace: s2.siteSpaces[0]!.id } }
    })
    expect(res.status).toBe(400)
  })
})
