import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { createSite, createSpace, expectInvalid, preview, publish, setPages, sitePath } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const redirects = (siteId: string) => `${sitePath(t, siteId)}/redirects`
const external = (url = 'https://example.com/new') => ({ kind: 'external', url })

/** A published site showing one space ("guides") with the pages Intro and Install. */
async function guidesSite(body: Record<string, unknown> = {}) {
  const space = await createSpace(t, 'Guides')
  setPages(t, space.id, [
    { title: 'Intro', markdown: 'Welcome.\n' },
    { title: 'Install', markdown: 'Run it.\n' }
  ])
  const site = await createSite(t, { spaces: [space.id], ...body })
  await publish(t, site.id)
  const siteSpace = (await t.owner.api.get(`${sitePath(t, site.id)}/site-spaces`)).body.items[0] as { id: string }
  const pages = (await t.owner.api.get(`/v1/spaces/${space.id}/content/pages`)).body.pages as { id: string; title: string }[]
  const pageId = (title: string) => pages.find((p) => p.title === title)!.id
  return { site, space, siteSpace, install: pageId('Install'), intro: pageId('Intro') }
}

describe('site redirects', () => {
  it('creates, lists, changes and deletes redirects', async () => {
    const { site, space, siteSpace, install } = await guidesSite()
    const created = await t.owner.api.post(redirects(site.id), {
      source: '/old/setup',
      destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: install }
    })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      object: 'site-redirect',
      id: expect.any(String),
      source: '/old/setup',
      draft: false,
      captureWildcard: false,
      permanent: false,
      destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: install },
      createdAt: t.clock.now().toISOString()
    })
    // A path in a space the site shows is stored as the page it names.
    const byPath = await t.owner.api.post(redirects(site.id), {
      source: '/setup',
      destination: { kind: 'path', spaceId: space.id, path: 'install' },
      permanent: true
    })
    expect(byPath.status).toBe(201)
    expect(byPath.body.destination).toEqual({ kind: 'site-page', siteSpaceId: siteSpace.id, pageId: install })
    expect(byPath.body.permanent).toBe(true)

    const list = await t.owner.api.get(redirects(site.id))
    expect(list.status).toBe(200)
    expect(list.body.count).toBe(2)
    expect(list.body.items.map((r: any) => r.source)).toEqual(['/setup', '/old/setup'])

    t.clock.advance(1000)
    const patched = await t.owner.api.patch(`${redirects(site.id)}/${created.body.id}`, { destination: external(), source: '/older/setup' })
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({ source: '/older/setup', destination: external(), updatedAt: t.clock.now().toISOString() })
    expect((await t.owner.api.get(redirects(site.id), { orderBy: 'updatedAt' })).body.items.map((r: any) => r.source)).toEqual([
      '/older/setup',
      '/setup'
    ])
    expect((await t.owner.api.get(redirects(site.id), { orderBy: 'source' })).body.items.map((r: any) => r.source)).toEqual([
      '/older/setup',
      '/setup'
    ])
    expect((await t.owner.api.get(redirects(site.id), { search: 'OLDER' })).body.items.map((r: any) => r.source)).toEqual(['/older/setup'])

    const deleted = await t.owner.api.delete(`${redirects(site.id)}/${created.body.id}`)
    expect(deleted.status).toBe(205)
    expect((await t.owner.api.delete(`${redirects(site.id)}/${created.body.id}`)).status).toBe(204)
    expect((await t.owner.api.get(redirects(site.id))).body.items.map((r: any) => r.source)).toEqual(['/setup'])
  })

  it('pages through redirects by keyset in each order', async () => {
    const { site } = await guidesSite()
    const sources = Array.from({ length: 7 }, (_, i) => `/p${String.fromCharCode(103 - i)}`)
    for (const source of sources) {
      expect((await t.owner.api.post(redirects(site.id), { source, destination: external() })).status).toBe(201)
      t.clock.advance(1000)
    }
    for (const [orderBy, expected] of [
      ['createdAt', [...sources].reverse()],
      ['updatedAt', [...sources].reverse()],
      ['source', [...sources].sort()]
    ] as const) {
      const seen: string[] = []
      let page: string | undefined
      do {
        const res = await t.owner.api.get(redirects(site.id), { orderBy, limit: 3, ...(page ? { page } : {}) })
        expect(res.status).toBe(200)
        expect(res.body.count).toBe(7)
        seen.push(...res.body.items.map((r: any) => r.source))
        page = res.body.next?.page
      } while (page)
      expect(seen, orderBy).toEqual(expected)
    }
    expect((await t.owner.api.get(redirects(site.id), { page: 'bogus' })).status).toBe(400)
  })

  it('keeps drafts apart and publishes them in bulk', async () => {
    const { site } = await guidesSite()
    const draft = await t.owner.api.post(redirects(site.id), {
      source: '/a',
      destination: external('https://example.com/draft'),
      draft: true
    })
    expect(draft.status).toBe(201)
    expect((await t.owner.api.post(redirects(site.id), { source: '/a', destination: external() })).status).toBe(201)
    expect((await t.owner.api.get(redirects(site.id))).body.items.map((r: any) => r.draft)).toEqual([false])
    expect((await t.owner.api.get(redirects(site.id), { draft: true })).body.items.map((r: any) => r.id)).toEqual([draft.body.id])
    const res = await t.owner.api.put(redirects(site.id), { redirects: [{ source: '/a', intent: 'publish' }] })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ results: [{ status: 'published', source: '/a', draft: false, id: draft.body.id }] })
    expect((await t.owner.api.get(redirects(site.id))).body.items).toMatchObject([
      { id: draft.body.id, draft: false, destination: external('https://example.com/draft') }
    ])
    expect((await t.owner.api.get(redirects(site.id), { draft: true })).body.count).toBe(0)
  })

  it('answers 409 for a source the site already redirects, and checks sources and destinations', async () => {
    const { site, space, siteSpace } = await guidesSite()
    const other = await createSite(t)
    const first = await t.owner.api.post(redirects(site.id), { source: '/a', destination: external() })
    expect((await t.owner.api.post(redirects(site.id), { source: '/a', destination: external() })).body).toEqual({
      error: { code: 409, message: 'source: the site already has a live redirect from /a' }
    })
    const second = await t.owner.api.post(redirects(site.id), { source: '/b', destination: external() })
    expect((await t.owner.api.patch(`${redirects(site.id)}/${second.body.id}`, { source: '/a' })).status).toBe(409)
    expect(first.status).toBe(201)
    const otherSpace = await createSpace(t, 'Elsewhere')
    await expectInvalid(t.owner.api, 'POST', redirects(site.id), [
      [{ source: 'a', destination: external() }, 'source: must be a path like /old/page'],
      [{ source: '/a b', destination: external() }, 'source: must be'],
      [{ source: '/*', destination: external() }, 'source: must be'],
      [{ source: '/a/*/b', destination: external() }, 'source: must be'],
      [{ source: `/${'a'.repeat(512)}`, destination: external() }, 'source: must be at most 512 characters'],
      [{ source: '/c' }, 'destination: is required'],
      [{ source: '/c', destination: { kind: 'elsewhere' } }, 'destination.kind'],
      [{ source: '/c', destination: external('javascript:alert(1)') }, 'destination.url: must be an http or https URL'],
      [{ source: '/c', destination: external('not a url') }, 'destination.url: must be a valid uri'],
      [
        { source: '/c', destination: { kind: 'site-space', siteSpaceId: 'nope' } },
        'destination.siteSpaceId: no site space nope in this site'
      ],
      [
        { source: '/c', destination: { kind: 'site-section', siteSectionId: 'nope' } },
        'destination.siteSectionId: no section nope in this site'
      ],
      [{ source: '/c', destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: 'nope' } }, 'destination.pageId: no page nope'],
      [
        { source: '/c', destination: { kind: 'path', spaceId: otherSpace.id, path: 'install' } },
        `destination.spaceId: the site shows no space ${otherSpace.id}`
      ],
      [{ source: '/c', destination: { kind: 'path', spaceId: space.id, path: 'nope' } }, 'destination.path: no page at "nope"']
    ])
    // A site space of another site is not a destination of this one.
    const otherSiteSpace = (await t.owner.api.post(`${sitePath(t, other.id)}/site-spaces`, { spaceId: otherSpace.id })).body
    expect(
      (await t.owner.api.post(redirects(site.id), { source: '/c', destination: { kind: 'site-space', siteSpaceId: otherSiteSpace.id } }))
        .status
    ).toBe(400)
    expect((await t.owner.api.get(redirects(site.id))).body.count).toBe(2)
  })

  it('answers 401, 404 and 403: readers of the site read, its admins write', async () => {
    const { site } = await guidesSite()
    const made = (await t.owner.api.post(redirects(site.id), { source: '/a', destination: external() })).body
    const item = `${redirects(site.id)}/${made.id}`
    const writes = [
      ['POST', redirects(site.id), { source: '/b', destination: external() }],
      ['PUT', redirects(site.id), { redirects: [{ source: '/b', destination: external() }] }],
      ['PATCH', item, { permanent: true }],
      ['DELETE', item, undefined]
    ] as const
    const reads = [redirects(site.id), `${sitePath(t, site.id)}/redirect?source=/a`]
    for (const [method, path, body] of writes) expect((await t.anonymous.request(method, path, body)).status).toBe(401)
    const outsider = await t.user({ role: 'none' })
    for (const path of reads) expect((await outsider.api.get(path)).status).toBe(404)
    for (const [method, path, body] of writes) expect((await outsider.api.request(method, path, body)).status).toBe(404)
    const creator = await t.user({ role: 'create', email: 'creator@example.com' })
    for (const path of reads) expect((await creator.api.get(path)).status).toBe(200)
    for (const [method, path, body] of writes) expect((await creator.api.request(method, path, body)).status, `${method} ${path}`).toBe(403)
    const guest = await t.user({ role: null })
    expect((await guest.api.get(redirects(site.id))).status).toBe(403)
    // An admin grant on the site makes its holder an admin of its redirects.
    expect((await t.owner.api.post(`${sitePath(t, site.id)}/permissions`, { role: 'admin', users: ['creator@example.com'] })).status).toBe(
      204
    )
    expect((await creator.api.patch(item, { permanent: true })).status).toBe(200)
    expect((await t.owner.api.patch(`${redirects(site.id)}/nope`, { permanent: true })).status).toBe(404)
    const other = await createSite(t)
    expect((await t.owner.api.patch(`${redirects(other.id)}/${made.id}`, { permanent: false })).status).toBe(404)
    expect((await t.owner.api.delete(`${redirects(other.id)}/${made.id}`)).status).toBe(204)
    expect((await t.owner.api.get(redirects(site.id))).body.items[0].permanent).toBe(true)
  })
})

describe('bulk redirects', () => {
  it('writes 500 rows in one transaction', async () => {
    const { site } = await guidesSite()
    const rows = Array.from({ length: 500 }, (_, i) => ({ source: `/old/${i}`, destination: external(`https://example.com/${i}`) }))
    const res = await t.owner.api.put(redirects(site.id), { redirects: rows })
    expect(res.status).toBe(200)
    expect(res.body.results).toHaveLength(500)
    expect(res.body.results[17]).toEqual({ status: 'created', source: '/old/17', draft: false, id: expect.any(String) })
    expect((await t.owner.api.get(redirects(site.id), { limit: 1 })).body.count).toBe(500)
    expect((await t.owner.api.put(redirects(site.id), { redirects: [...rows, rows[0]] })).body.error.message).toBe(
      'redirects: must have at most 500 items'
    )

    // Again: updates; null deletes.
    const again = await t.owner.api.put(redirects(site.id), {
      redirects: [
        { ...rows[1], permanent: true },
        { source: '/old/2', destination: null },
        { source: '/never', destination: null }
      ]
    })
    expect(again.body.results).toEqual([
      { status: 'updated', source: '/old/1', draft: false, id: res.body.results[1].id },
      { status: 'deleted', source: '/old/2', draft: false },
      { status: 'deleted', source: '/never', draft: false }
    ])
    expect((await t.owner.api.get(redirects(site.id), { limit: 1 })).body.count).toBe(499)
  })

  it('refuses the whole batch for one bad row, naming its index', async () => {
    const { site } = await guidesSite()
    const rows: Record<string, unknown>[] = Array.from({ length: 30 }, (_, i) => ({ source: `/old/${i}`, destination: external() }))
    const bad = (index: number, row: Record<string, unknown>) => rows.map((r, i) => (i === index ? row : r))
    await expectInvalid(t.owner.api, 'PUT', redirects(site.id), [
      [{ redirects: bad(17, { source: 'no-slash', destination: external() }) }, 'redirects.17.source: must be a path'],
      [
        { redirects: bad(17, { source: '/x', destination: { kind: 'site-space', siteSpaceId: 'nope' } }) },
        'redirects.17.destination.siteSpaceId: no site space nope in this site'
      ],
      [
        { redirects: bad(29, { source: '/x', destination: external('ftp://example.com/') }) },
        'redirects.29.destination.url: must be an http or https URL'
      ],
      [{ redirects: bad(3, { source: '/old/1', destination: external() }) }, 'redirects.3.source: /old/1 is already in this batch'],
      [{ redirects: bad(5, { source: '/x' }) }, 'redirects.5.destination: is required'],
      [{ redirects: bad(5, { source: '/x', intent: 'publish' }) }, 'redirects.5.source: no draft redirect from /x to publish'],
      [{ redirects: [] }, 'redirects: must have at least 1 items']
    ])
    expect((await t.owner.api.get(redirects(site.id))).body.count).toBe(0)
  })
})

describe('GET …/redirect?source=', () => {
  it('answers the redirect a source path meets and where it leads, 404 when none', async () => {
    const { site, siteSpace, install } = await guidesSite()
    const page = (
      await t.owner.api.post(redirects(site.id), {
        source: '/old',
        destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: install }
      })
    ).body
    await t.owner.api.post(redirects(site.id), {
      source: '/docs/*',
      captureWildcard: true,
      destination: external('https://example.com/manual')
    })
    const res = await t.owner.api.get(`${sitePath(t, site.id)}/redirect`, { source: '/old' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ redirect: page, target: `${t.url}/preview/sites/${site.id}/guides/install/` })
    const wild = await t.owner.api.get(`${sitePath(t, site.id)}/redirect`, { source: '/docs/a/b' })
    expect(wild.body).toMatchObject({ redirect: { source: '/docs/*' }, target: 'https://example.com/manual/a/b' })
    expect((await t.owner.api.get(`${sitePath(t, site.id)}/redirect`, { source: '/docs/*' })).body.target).toBe(
      'https://example.com/manual'
    )
    const none = await t.owner.api.get(`${sitePath(t, site.id)}/redirect`, { source: '/new' })
    expect(none.body).toEqual({ error: { code: 404, message: 'Site redirect not found' } })
    expect((await t.owner.api.get(`${sitePath(t, site.id)}/redirect`, { source: 'old' })).status).toBe(400)
  })
})

describe('the preview honours redirects', () => {
  it('answers a redirected path with its destination (307, or 308 when permanent on a public site)', async () => {
    const { site, siteSpace, install } = await guidesSite()
    await t.owner.api.post(redirects(site.id), {
      source: '/old/setup',
      destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: install }
    })
    await t.owner.api.post(redirects(site.id), {
      source: '/guides/intro',
      permanent: true,
      destination: external('https://example.com/intro')
    })
    await t.owner.api.post(redirects(site.id), {
      source: '/legacy/*',
      captureWildcard: true,
      destination: { kind: 'site-space', siteSpaceId: siteSpace.id }
    })
    await t.owner.api.post(redirects(site.id), { source: '/later', draft: true, destination: external() })
    const root = `/preview/sites/${site.id}`

    const moved = await preview(t, `${root}/old/setup/`)
    expect(moved.status).toBe(307)
    expect(moved.headers.get('location')).toBe(`${root}/guides/install/`)
    // A redirect wins over the page at its source.
    const shadowed = await preview(t, `${root}/guides/intro`)
    expect(shadowed.status).toBe(308)
    expect(shadowed.headers.get('location')).toBe('https://example.com/intro')
    const wild = await preview(t, `${root}/legacy/install`)
    expect(wild.status).toBe(307)
    expect(wild.headers.get('location')).toBe(`${root}/guides/install/`)
    // Drafts are not live.
    expect((await preview(t, `${root}/later`)).status).toBe(404)
    expect((await preview(t, `${root}/guides/install/`)).status).toBe(200)
  })

  it('sends share-link readers on with their key, and strangers nowhere', async () => {
    const { site, siteSpace } = await guidesSite({ visibility: 'share-link' })
    await t.owner.api.post(redirects(site.id), {
      source: '/old',
      permanent: true,
      destination: { kind: 'site-space', siteSpaceId: siteSpace.id }
    })
    const root = `/preview/sites/${site.id}`
    const stranger = await preview(t, `${root}/old`)
    expect(stranger.status).toBe(404)
    expect(stranger.headers.get('location')).toBeNull()
    const key = new URL(
      (await t.owner.api.post(`${sitePath(t, site.id)}/share-links`, { name: 'x' })).body.urls.published
    ).searchParams.get('shareKey')!
    const res = await preview(t, `${root}/old?shareKey=${key}`)
    expect(res.status).toBe(307)
    expect(new URL(res.headers.get('location')!, t.url).pathname).toBe(`${root}/guides/`)
  })
})
