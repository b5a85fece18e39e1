import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { addSection, addSiteSpace, createSite, createSpace, expectInvalid, expectSite, sitePath, sitesPath } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

describe('access to sites', () => {
  it('answers 401 without a token', async () => {
    const site = await createSite(t)
    for (const [method, path] of [
      ['GET', sitesPath(t)],
      ['POST', sitesPath(t)],
      ['GET', sitePath(t, site.id)],
      ['PATCH', sitePath(t, site.id)],
      ['DELETE', sitePath(t, site.id)],
      ['POST', `${sitePath(t, site.id)}/publish`],
      ['POST', `${sitePath(t, site.id)}/unpublish`]
    ]) {
      const res = await t.anonymous.request(method!, path!, method === 'GET' || method === 'DELETE' ? undefined : {})
      expect(res.status, `${method} ${path}`).toBe(401)
      expect(res.body.error.code).toBe(401)
    }
  })

  it('hides sites from non-members and unknown ids (404)', async () => {
    const site = await createSite(t)
    const outsider = await t.user({ role: 'none' })
    expect((await outsider.api.get(sitesPath(t))).status).toBe(404)
    expect((await outsider.api.get(sitePath(t, site.id))).status).toBe(404)
    expect((await outsider.api.patch(sitePath(t, site.id), { title: 'Mine' })).status).toBe(404)
    const unknown = await t.owner.api.get(sitePath(t, 'nope'))
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: { code: 404, message: expect.any(String) } })
    // A site of another organization is not reachable through this one.
    const other = await t.owner.api.post('/v1/orgs', { title: 'Other org' })
    expect((await t.owner.api.get(`/v1/orgs/${other.body.id}/sites/${site.id}`)).status).toBe(404)
  })

  it('lets members read, and only the create role manage (403 below; guests see nothing)', async () => {
    const site = await createSite(t)
    const guest = await t.user({ role: null })
    expect((await guest.api.get(sitesPath(t))).status).toBe(403)
    expect((await guest.api.get(sitePath(t, site.id))).status).toBe(403)

    const reader = await t.user({ role: 'review' })
    expect((await reader.api.get(sitePath(t, site.id))).status).toBe(200)
    expect((await reader.api.get(sitesPath(t))).body.count).toBe(1)
    for (const [method, path, body] of [
      ['POST', sitesPath(t), { title: 'Mine' }],
      ['PATCH', sitePath(t, site.id), { title: 'Mine' }],
      ['DELETE', sitePath(t, site.id), undefined],
      ['POST', `${sitePath(t, site.id)}/publish`, {}]
    ] as const) {
      const res = await reader.api.request(method, path, body)
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(res.body.error.code).toBe(403)
    }
    expect((await t.owner.api.get(sitePath(t, site.id))).body).toMatchObject({ title: 'Docs', published: false })

    const creator = await t.user({ role: 'create' })
    const own = await creator.api.post(sitesPath(t), { title: 'Creator site' })
    expect(own.status).toBe(201)
    expect((await creator.api.patch(sitePath(t, site.id), { title: 'Renamed' })).status).toBe(200)
  })
})

describe('creating sites', () => {
  it('creates an unpublished basic site with defaults', async () => {
    const res = await t.owner.api.post(sitesPath(t), {})
    expect(res.status).toBe(201)
    expectSite(res.body)
    expect(res.body).toMatchObject({
      type: 'basic',
      visibility: 'public',
      published: false,
      siteSpaces: 0,
      adaptiveContent: { enabled: false }
    })
    expect((await t.owner.api.get(sitePath(t, res.body.id))).body).toEqual(res.body)
  })

  it('links the given spaces in order, the first as the default', async () => {
    const a = await createSpace(t, 'Guides')
    const b = await createSpace(t, 'API Reference')
    const site = await createSite(t, { title: 'Developer docs', type: 'premium', visibility: 'unlisted', spaces: [a.id, b.id] })
    expect(site).toMatchObject({ title: 'Developer docs', type: 'premium', visibility: 'unlisted', siteSpaces: 2 })
    const list = (await t.owner.api.get(`${sitePath(t, site.id)}/site-spaces`)).body
    expect(list.items.map((s: any) => [s.space.id, s.path, s.default])).toEqual([
      [a.id, 'guides', true],
      [b.id, 'api-reference', false]
    ])
  })

  it('creates a new space for the site when asked', async () => {
    const before = (await t.owner.api.get(`/v1/orgs/${t.orgId}/spaces`)).body.count
    const site = await createSite(t, { title: 'Fresh site', spaces: 'new' })
    expect(site.siteSpaces).toBe(1)
    const spaces = (await t.owner.api.get(`/v1/orgs/${t.orgId}/spaces`)).body
    expect(spaces.count).toBe(before + 1)
    const siteSpace = (await t.owner.api.get(`${sitePath(t, site.id)}/site-spaces`)).body.items[0]
    expect(siteSpace).toMatchObject({ title: 'Fresh site', default: true, space: { title: 'Fresh site' } })
  })

  it('rejects invalid bodies and changes nothing', async () => {
    const space = await createSpace(t)
    const other = await t.owner.api.post('/v1/orgs', { title: 'Other org' })
    const foreign = (await t.owner.api.post(`/v1/orgs/${other.body.id}/spaces`, { title: 'Elsewhere' })).body
    const deleted = await createSpace(t, 'Deleted')
    await t.owner.api.delete(`/v1/spaces/${deleted.id}`)
    const n = await expectInvalid(t.owner.api, 'POST', sitesPath(t), [
      [{ title: 'x' }, 'title: must be at least 2 characters'],
      [{ title: 'x'.repeat(129) }, 'title: must be at most 128 characters'],
      [{ title: 42 }, 'title: must be string'],
      [{ type: 'gold' }, 'type: must be one of'],
      [{ visibility: 'private' }, 'visibility: must be one of'],
      [{ spaces: 'old' }, 'spaces'],
      [{ spaces: [123] }, 'spaces'],
      [{ spaces: [space.id, space.id] }, 'spaces'],
      [{ spaces: ['unknown-space'] }, 'spaces.0: no space unknown-space in this organization']
    ])
    expect(n).toBeGreaterThan(5)
    for (const id of [foreign.id, deleted.id]) {
      const res = await t.owner.api.post(sitesPath(t), { spaces: [space.id, id] })
      expect(res.status).toBe(400)
      expect(res.body.error.message).toBe(`spaces.1: no space ${id} in this organization`)
    }
    expect((await t.owner.api.get(sitesPath(t))).body.count).toBe(0)
    const malformed = await t.owner.api.request('POST', sitesPath(t), '{"title":')
    expect(malformed.status).toBe(400)
  })
})

describe('listing sites', () => {
  it('pages through every site once, with a true count', async () => {
    for (let i = 0; i < 5; i++) await createSite(t, { title: `Site ${i}` })
    const { items, pages } = await walk(t.owner.api, sitesPath(t), { limit: 2 })
    expect(items.map((s) => s.title)).toEqual(['Site 0', 'Site 1', 'Site 2', 'Site 3', 'Site 4'])
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1])
    expect(pages.every((p) => p.count === 5)).toBe(true)
    expect(pages.at(-1).next).toBeUndefined()
    items.forEach(expectSite)
  })

  it('filters by space, title and published', async () => {
    const space = await createSpace(t)
    const a = await createSite(t, { title: 'Alpha Docs', spaces: [space.id] })
    const b = await createSite(t, { title: 'Beta docs' })
    await createSite(t, { title: 'Gamma' })
    await t.owner.api.post(`${sitePath(t, b.id)}/publish`)

    const bySpace = (await t.owner.api.get(sitesPath(t), { space: space.id })).body
    expect(bySpace).toMatchObject({ count: 1, items: [{ id: a.id }] })
    const byTitle = (await t.owner.api.get(sitesPath(t), { title: 'DOCS' })).body
    expect(byTitle.items.map((s: any) => s.id)).toEqual([a.id, b.id])
    expect(byTitle.count).toBe(2)
    expect((await t.owner.api.get(sitesPath(t), { published: true })).body).toMatchObject({
      count: 1,
      items: [{ id: b.id, published: true }]
    })
    expect((await t.owner.api.get(sitesPath(t), { published: false })).body.count).toBe(2)
    expect((await t.owner.api.get(sitesPath(t), { published: true, title: 'alpha' })).body.count).toBe(0)

    // A deleted space no longer counts as linked; restoring it brings the site space back.
    await t.owner.api.delete(`/v1/spaces/${space.id}`)
    expect((await t.owner.api.get(sitesPath(t), { space: space.id })).body.count).toBe(0)
    expect((await t.owner.api.get(sitePath(t, a.id))).body.siteSpaces).toBe(0)
    await t.owner.api.post(`/v1/spaces/${space.id}/restore`)
    expect((await t.owner.api.get(sitePath(t, a.id))).body.siteSpaces).toBe(1)
  })

  it('rejects bad list queries', async () => {
    expect((await t.owner.api.get(sitesPath(t), { limit: 1001 })).body.error.message).toBe('limit: must be at most 1000')
    expect((await t.owner.api.get(sitesPath(t), { published: 'maybe' })).status).toBe(400)
    expect((await t.owner.api.get(sitesPath(t), { page: 'garbage' })).status).toBe(400)
  })
})

describe('updating sites', () => {
  it('updates every field and keeps what was not sent', async () => {
    const site = await createSite(t)
    const res = await t.owner.api.patch(sitePath(t, site.id), {
      title: 'Renamed docs',
      visibility: 'share-link',
      basename: 'docs',
      hostname: 'docs.example.com',
      proxy: 'example.com/docs',
      adaptiveContent: { enabled: true }
    })
    expect(res.status).toBe(200)
    expectSite(res.body)
    expect(res.body).toMatchObject({
      title: 'Renamed docs',
      visibility: 'share-link',
      basename: 'docs',
      hostname: 'docs.example.com',
      adaptiveContent: { enabled: true },
      proxy: { origin: 'example.com/docs', target: res.body.urls.preview }
    })
    const again = await t.owner.api.patch(sitePath(t, site.id), { proxy: null, hostname: null, basename: null })
    expect(again.body).toMatchObject({ title: 'Renamed docs', visibility: 'share-link' })
    expect(again.body.proxy).toBeUndefined()
    expect(again.body.hostname).toBeUndefined()
    expect(again.body.basename).toBeUndefined()
  })

  it('refuses a hostname another site uses (409)', async () => {
    const a = await createSite(t)
    const b = await createSite(t)
    expect((await t.owner.api.patch(sitePath(t, a.id), { hostname: 'docs.example.com' })).status).toBe(200)
    const clash = await t.owner.api.patch(sitePath(t, b.id), { hostname: 'docs.example.com' })
    expect(clash.status).toBe(409)
    expect(clash.body.error.message).toContain('hostname')
  })

  it('sets the default site space at the root and the default section', async () => {
    const [a, b] = [await createSpace(t, 'One'), await createSpace(t, 'Two')]
    const site = await createSite(t, { spaces: [a.id, b.id] })
    const [first, second] = (await t.owner.api.get(`${sitePath(t, site.id)}/site-spaces`)).body.items
    expect((await t.owner.api.patch(sitePath(t, site.id), { defaultSiteSpace: second.id })).status).toBe(200)
    const defaults = (await t.owner.api.get(`${sitePath(t, site.id)}/site-spaces`, { default: true })).body
    expect(defaults).toMatchObject({ count: 1, items: [{ id: second.id, default: true }] })
    expect((await t.owner.api.get(`${sitePath(t, site.id)}/site-spaces`, { default: false })).body.items.map((s: any) => s.id)).toEqual([
      first.id
    ])

    const s1 = await addSection(t, site.id, { spaceId: a.id, title: 'Guides' })
    const s2 = await addSection(t, site.id, { spaceId: b.id, title: 'Reference' })
    expect(s1.default).toBe(true)
    expect(s2.default).toBe(false)
    expect((await t.owner.api.patch(sitePath(t, site.id), { defaultSiteSection: s2.id })).status).toBe(200)
    const sections = (await t.owner.api.get(`${sitePath(t, site.id)}/sections`)).body.items
    expect(sections.map((s: any) => [s.id, s.default])).toEqual([
      [s1.id, false],
      [s2.id, true]
    ])
    // With sections, defaultSiteSpace must be in the default section.
    const outside = await t.owner.api.patch(sitePath(t, site.id), { defaultSiteSpace: s1.siteSpaces[0]!.id })
    expect(outside.status).toBe(400)
    expect(outside.body.error.message).toContain('defaultSiteSpace: ')
    const extra = await addSiteSpace(t, site.id, a.id)
    expect(extra.section).toBe(s2.id)
    expect((await t.owner.api.patch(sitePath(t, site.id), { defaultSiteSpace: extra.id })).status).toBe(200)
    const section = (await t.owner.api.get(`${sitePath(t, site.id)}/sections`)).body.items[1]
    expect(section.siteSpaces.map((s: any) => s.default)).toEqual([false, true])
  })

  it('rejects invalid updates with the field in the message, and changes nothing', async () => {
    const site = await createSite(t, { title: 'Stable' })
    const n = await expectInvalid(t.owner.api, 'PATCH', sitePath(t, site.id), [
      [{ title: 'x' }, 'title: must be at least 2 characters'],
      [{ title: 'x'.repeat(129) }, 'title: must be at most 128 characters'],
      [{ visibility: 'in-collection' }, 'visibility: must be one of'],
      [{ hostname: 'bad_host.example.com' }, 'hostname: must be a lower-case host name of three labels or more, like docs.example.com'],
      [{ hostname: 'example.com' }, 'hostname: must be a lower-case host name of three labels or more, like docs.example.com'],
      [{ hostname: 'Docs.Example.com' }, 'hostname: must be a lower-case host name of three labels or more, like docs.example.com'],
      [
        {
          hostname: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(63)}.${'g'.repeat(63)}.${'h'.repeat(63)}.com`
        },
        'hostname: must be at most 512 characters'
      ],
      [{ basename: '' }, 'basename: must be at least 1 characters'],
      [{ basename: 'b'.repeat(101) }, 'basename: must be at most 100 characters'],
      [{ proxy: 'example.com' }, 'proxy: must be a domain and a path, without the scheme, like example.com/docs'],
      [{ proxy: 'https://example.com/docs' }, 'proxy: must be a domain and a path, without the scheme, like example.com/docs'],
      [{ proxy: `example.com/${'p'.repeat(510)}` }, 'proxy: must be at most 512 characters'],
      [{ adaptiveContent: {} }, 'adaptiveContent.enabled: is required'],
      [{ adaptiveContent: { enabled: 'yes' } }, 'adaptiveContent.enabled: must be boolean'],
      [{ defaultSiteSpace: 'nope' }, 'defaultSiteSpace: no site space nope in this site'],
      [{ defaultSiteSection: 'nope' }, 'defaultSiteSection: no section nope in this site']
    ])
    expect(n).toBeGreaterThanOrEqual(15)
    expect((await t.owner.api.get(sitePath(t, site.id))).body).toMatchObject({ title: 'Stable', visibility: 'public' })
  })
})

describe('deleting, publishing and unpublishing', () => {
  it('publishes and unpublishes', async () => {
    const site = await createSite(t)
    const on = await t.owner.api.post(`${sitePath(t, site.id)}/publish`)
    expect(on.status).toBe(200)
    expectSite(on.body)
    expect(on.body.published).toBe(true)
    expect((await t.owner.api.get(sitePath(t, site.id))).body.published).toBe(true)
    const off = await t.owner.api.post(`${sitePath(t, site.id)}/unpublish`)
    expect(off.body.published).toBe(false)
    expect((await t.owner.api.post(`${sitePath(t, 'nope')}/publish`)).status).toBe(404)
  })

  it('deletes a site with its structure (205), leaving the spaces', async () => {
    const space = await createSpace(t)
    const site = await createSite(t, { spaces: [space.id] })
    await addSection(t, site.id, { spaceId: space.id, title: 'Part' })
    const res = await t.owner.api.delete(sitePath(t, site.id))
    expect(res.status).toBe(205)
    expect(res.body).toBeUndefined()
    expect((await t.owner.api.get(sitePath(t, site.id))).status).toBe(404)
    expect((await t.owner.api.get(`${sitePath(t, site.id)}/site-spaces`)).status).toBe(404)
    expect((await t.owner.api.get(`/v1/spaces/${space.id}`)).status).toBe(200)
    expect((await t.owner.api.delete(sitePath(t, site.id))).status).toBe(404)
  })
})

describe('what a site says about itself and the caller', () => {
  it('gives the applied type, the inherited default level, every feature Quire has and the preview address', async () => {
    const site = await createSite(t, { type: 'premium' })
    const res = await t.owner.api.get(sitePath(t, site.id))
    expect(res.body).toMatchObject({ type: 'premium', appliedType: 'premium', defaultLevel: 'inherit' })
    expect(res.body.urls.preview).toBe(`${t.url}/preview/sites/${site.id}/`)
    expect(res.body.features).toContainEqual({ id: 'sites-sections', plan: 'premium', frozen: false })
    expect(res.body.features).toContainEqual({ id: 'sites-share-links', plan: 'premium', frozen: false })
  })

  it("answers permissions from the caller's role on the site: organization role raised by grants", async () => {
    const site = await createSite(t)
    const reader = await t.user({ role: 'read' })
    const creator = await t.user({ role: 'create' })
    const all = {
      view: true,
      access: true,
      edit: true,
      create: true,
      admin: true,
      installIntegration: true,
      viewAdaptiveSchema: true,
      editAdaptiveSchema: true
    }
    expect((await t.owner.api.get(sitePath(t, site.id))).body.permissions).toEqual(all)
    expect((await reader.api.get(sitePath(t, site.id))).body.permissions).toEqual({
      view: true,
      access: true,
      edit: false,
      create: false,
      admin: false,
      installIntegration: false,
      viewAdaptiveSchema: true,
      editAdaptiveSchema: false
    })
    expect((await creator.api.get(sitesPath(t))).body.items[0].permissions).toEqual({ ...all, admin: false })
    expect((await t.owner.api.patch(`${sitePath(t, site.id)}/permissions/users/${reader.user.id}`, { role: 'admin' })).status).toBe(204)
    expect((await reader.api.get(sitePath(t, site.id))).body.permissions).toEqual(all)
  })

  it('marks site spaces, sections and section groups draft until the site is published', async () => {
    const site = await createSite(t, { spaces: [(await createSpace(t, 'Guides')).id] })
    await addSection(t, site.id, { spaceId: (await createSpace(t, 'Reference')).id, title: 'Reference' })
    const section = (await t.owner.api.get(`${sitePath(t, site.id)}/sections`)).body.items[0]
    const group = await t.owner.api.post(`${sitePath(t, site.id)}/section-groups`, { title: 'All', sections: [section.id] })
    const drafts = async () => {
      const sections = (await t.owner.api.get(`${sitePath(t, site.id)}/sections`)).body.items
      const groups = (await t.owner.api.get(`${sitePath(t, site.id)}/section-groups`)).body.items
      const siteSpaces = (await t.owner.api.get(`${sitePath(t, site.id)}/site-spaces`)).body.items
      return [...sections, ...groups, ...groups.flatMap((g: any) => g.children), ...siteSpaces].map((x: any) => x.draft)
    }
    expect(group.body.children.map((c: any) => c.id)).toEqual([section.id])
    expect(new Set(await drafts())).toEqual(new Set([true]))
    await t.owner.api.post(`${sitePath(t, site.id)}/publish`)
    expect(new Set(await drafts())).toEqual(new Set([false]))
  })
})
