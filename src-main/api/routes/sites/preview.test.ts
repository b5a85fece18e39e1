import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { systemCtx } from '../../../workspace/context'
import { spacePublishedUrls } from '../../presenters/siteSpace'
import { makePng, seedContent } from '../files/fixtures'
import { addSection, createSite, createSpace, preview, publish, setPages, sitePath, visitorToken } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const root = (siteId: string) => `/preview/sites/${siteId}/`
/** Ids of the site spaces listed in the navigation of a preview page. */
const navSiteSpaces = (html: string) => [...html.matchAll(/data-site-space="([^"]+)"/g)].map((m) => m[1])
const navSections = (html: string) => [...html.matchAll(/data-section="([^"]+)"/g)].map((m) => m[1])

async function siteSpacesOf(siteId: string) {
  return (await t.owner.api.get(`${sitePath(t, siteId)}/site-spaces`)).body.items as {
    id: string
    path: string
    title: string
    urls: { published: string }
  }[]
}

describe('rendering', () => {
  it('renders a published site: navigation, the page markdown as HTML, the primary colour', async () => {
    const space = await createSpace(t, 'Guides')
    setPages(t, space.id, [
      { title: 'Getting started', markdown: '# Welcome\n\nSome **bold** text.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n' },
      { title: 'Install', markdown: 'Run `npm install`.\n' }
    ])
    const other = await createSpace(t, 'API')
    const site = await createSite(t, { title: 'Acme docs', spaces: [space.id, other.id] })
    await t.owner.api.put(`${sitePath(t, site.id)}/customization`, { styling: { primaryColor: { light: '#ab12cd' } } })
    expect((await preview(t, root(site.id))).status).toBe(404)
    await publish(t, site.id)

    const published = (await t.owner.api.get(sitePath(t, site.id))).body.urls.published
    const home = await preview(t, new URL(published).pathname)
    expect(home.status).toBe(200)
    expect(home.headers.get('content-type')).toContain('text/html')
    expect(home.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(home.headers.get('referrer-policy')).toBe('no-referrer')
    expect(home.html).toContain('<title>Getting started · Acme docs</title>')
    expect(home.html).toContain('<strong>bold</strong>')
    expect(home.html).toContain('<table>')
    expect(home.html).toContain('--primary:#ab12cd')
    expect(home.html).toContain(`href="/preview/sites/${site.id}/guides/install/"`)
    const [guides, api] = await siteSpacesOf(site.id)
    expect(navSiteSpaces(home.html)).toEqual([guides!.id, api!.id])
    expect(home.html).not.toContain('name="robots"')

    const install = await preview(t, `/preview/sites/${site.id}/guides/install/`)
    expect(install.status).toBe(200)
    expect(install.html).toContain('<code>npm install</code>')
    expect(install.html).toMatch(/<a href="[^"]+install\/" aria-current="page">Install<\/a>/)
    expect((await preview(t, `/preview/sites/${site.id}/guides/nope/`)).status).toBe(404)
    expect((await preview(t, `/preview/sites/${site.id}/nope/`)).status).toBe(404)
    expect((await preview(t, '/preview/sites/unknown/')).status).toBe(404)
    // The site space's own published URL opens it.
    const apiPage = await preview(t, new URL((await siteSpacesOf(site.id))[1]!.path, `${t.url}${root(site.id)}`).pathname)
    expect(apiPage.status).toBe(200)
    expect(apiPage.html).toMatch(new RegExp(`data-site-space="${api!.id}"><a [^>]*aria-current="page"`))

    await t.owner.api.post(`${sitePath(t, site.id)}/unpublish`)
    expect((await preview(t, root(site.id))).status).toBe(404)
  })

  it('links and opens pages whose slugs have letters beyond ASCII, percent-encoded', async () => {
    const space = await createSpace(t, 'Guides')
    setPages(t, space.id, [
      { title: 'Start', markdown: 'Hello.' },
      { title: 'Größe 文档', markdown: '## Ελληνικά\n\n这是一个文档系统。' }
    ])
    const site = await createSite(t, { title: 'Docs', spaces: [space.id] })
    await publish(t, site.id)
    const home = await preview(t, root(site.id))
    const encoded = `guides/${encodeURIComponent('größe-文档')}/`
    expect(home.html).toContain(`href="/preview/sites/${site.id}/${encoded}"`)
    const page = await preview(t, `/preview/sites/${site.id}/${encoded}`)
    expect(page.status).toBe(200)
    expect(page.html).toContain('这是一个文档系统。')
    expect(page.html).toContain('Ελληνικά</h2>')
  })

  it("renders GitBook's block tags as blocks, and an include with nothing to show as nothing", async () => {
    const space = await createSpace(t)
    setPages(t, space.id, [
      {
        title: 'Tags',
        markdown:
          '{% hint style="success" %}\nAll **set**.\n{% endhint %}\n{% code title="run.sh" %}\n```sh\nquire serve\n```\n{% endcode %}\n{% include "../.gitbook/includes/none.md" %}\n'
      }
    ])
    const site = await createSite(t, { spaces: [space.id] })
    await publish(t, site.id)
    const page = await preview(t, root(site.id))
    expect(page.html).toContain('<div class="gb-hint gb-hint-success"><p>All <strong>set</strong>.</p></div>')
    expect(page.html).toContain(
      '<div class="gb-code gb-block"><div class="docs-code"><div class="docs-code-bar"><span class="docs-code-language">run.sh</span>' +
        '<button type="button" class="docs-copy" aria-label="Copy code">Copy</button></div><pre><code class="language-sh">quire serve\n</code></pre></div></div>'
    )
    expect(page.html).not.toContain('{%')
    // The reader does not see the author's broken include.
    expect(page.html).toContain('.gb-include-missing{display:none}')
  })

  it('sanitizes page content and marks unlisted sites noindex', async () => {
    const space = await createSpace(t)
    setPages(t, space.id, [
      { title: 'Evil', markdown: '<script>alert(1)</script>\n\n[click](javascript:alert(1))\n\n<img src=x onerror="alert(2)">\n' }
    ])
    const site = await createSite(t, { visibility: 'unlisted', spaces: [space.id] })
    await publish(t, site.id)
    const page = await preview(t, root(site.id))
    expect(page.status).toBe(200)
    expect(page.html).not.toContain('<script>')
    expect(page.html).not.toContain('javascript:')
    expect(page.html).not.toContain('onerror')
    expect(page.html).toContain('<meta name="robots" content="noindex">')
  })

  it('gives spaces shown on a published site their preview URL (for the space presenter)', async () => {
    const space = await createSpace(t, 'Docs')
    const site = await createSite(t, { spaces: [space.id] })
    const ctx = () => systemCtx(t.server.api.services, t.owner.user)
    expect(spacePublishedUrls(ctx(), [space.id]).size).toBe(0)
    await publish(t, site.id)
    const url = spacePublishedUrls(ctx(), [space.id]).get(space.id)!
    expect(url).toBe((await siteSpacesOf(site.id))[0]!.urls.published)
    expect((await preview(t, new URL(url).pathname)).status).toBe(200)
  })

  it('is served outside /v1 without a token, and is not in the API document', async () => {
    const doc = (await t.anonymous.get('/v1/openapi.json')).body
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/preview'))).toBe(false)
  })
})

describe('files', () => {
  it("shows a page's images and file links from the site, to whoever may read its pages", async () => {
    const space = await createSpace(t, 'Guides', { empty: true })
    const png = makePng(3, 2)
    await seedContent(t, space.id, [
      { operation: 'insert_files', files: [{ name: 'diagram.png', base64: png.toString('base64'), ref: 'diagram' }] },
      {
        operation: 'insert_page',
        title: 'Pictures',
        document: {
          markdown:
            '![By id](/files/diagram)\n\n![By path](../.gitbook/assets/diagram.png)\n\n[Download](/files/diagram)\n\n![Gone](/files/nope)\n'
        }
      }
    ])
    const fileId = (await t.owner.api.get(`/v1/spaces/${space.id}/content/files`)).body.items[0].id
    const site = await createSite(t, { visibility: 'share-link', spaces: [space.id] })
    await publish(t, site.id)
    const [siteSpace] = (await t.owner.api.get(`${sitePath(t, site.id)}/site-spaces`)).body.items
    const key = new URL(
      (await t.owner.api.post(`${sitePath(t, site.id)}/share-links`, { name: 'Readers' })).body.urls.published
    ).searchParams.get('shareKey')!

    const page = await preview(t, `${root(site.id)}?shareKey=${key}`)
    const fileUrl = `/preview/sites/${site.id}/~files/${siteSpace.id}/${fileId}/diagram.png`
    expect(page.html).toContain(`<img src="${fileUrl}" alt="By id">`)
    expect(page.html).toContain(`<img src="${fileUrl}" alt="By path">`)
    expect(page.html).toContain(`<a href="${fileUrl}">Download</a>`)
    expect(page.html).toContain('<img src="/files/nope" alt="Gone">')

    // The browser loads the image with the cookie the page set (the share key), as it loads the next page.
    const cookie = page.headers.get('set-cookie')!.split(';', 1)[0]!
    const image = await fetch(new URL(fileUrl, t.url), { headers: { cookie } })
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/png')
    expect(image.headers.get('x-content-type-options')).toBe('nosniff')
    expect(image.headers.get('cache-control')).toBe('private, no-cache')
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true)
    expect((await fetch(new URL(fileUrl, t.url), { headers: { cookie, 'if-none-match': image.headers.get('etag')! } })).status).toBe(304)
    expect((await preview(t, `${fileUrl}?shareKey=${key}`)).status).toBe(200)

    // Without the share key there is nothing; nor for an unknown file or site space, or once the site is unpublished.
    expect((await preview(t, fileUrl)).status).toBe(404)
    expect((await preview(t, fileUrl.replace(fileId, 'nope'), { cookie })).status).toBe(404)
    expect((await preview(t, fileUrl.replace(siteSpace.id, 'nope'), { cookie })).status).toBe(404)
    await t.owner.api.post(`${sitePath(t, site.id)}/unpublish`)
    expect((await preview(t, fileUrl, { cookie })).status).toBe(404)
  })

  it('keeps the files of a site space the visitor may not see', async () => {
    const space = await createSpace(t, 'Beta', { empty: true })
    await seedContent(t, space.id, [{ operation: 'insert_files', files: [{ name: 'plan.png', base64: makePng(1, 1).toString('base64') }] }])
    const fileId = (await t.owner.api.get(`/v1/spaces/${space.id}/content/files`)).body.items[0].id
    const site = await createSite(t, { visibility: 'visitor-auth', spaces: [space.id] })
    await publish(t, site.id)
    const [siteSpace] = (await t.owner.api.get(`${sitePath(t, site.id)}/site-spaces`)).body.items
    await t.owner.api.patch(`${sitePath(t, site.id)}/site-spaces/${siteSpace.id}`, { condition: 'visitor.claims.isBeta' })
    const path = `/preview/sites/${site.id}/~files/${siteSpace.id}/${fileId}/plan.png`
    expect((await preview(t, path)).status).toBe(401)
    expect((await preview(t, `${path}?jwt_token=${await visitorToken(t, { isBeta: false })}`)).status).toBe(404)
    expect((await preview(t, `${path}?jwt_token=${await visitorToken(t, { isBeta: true })}`)).status).toBe(200)
  })
})

describe('access', () => {
  it('opens a share-link site with an active key only; a deactivated link stops at once', async () => {
    const space = await createSpace(t)
    setPages(t, space.id, [{ title: 'Secret plans', markdown: 'Launch on Monday.' }])
    const site = await createSite(t, { visibility: 'share-link', spaces: [space.id] })
    await publish(t, site.id)
    const link = (await t.owner.api.post(`${sitePath(t, site.id)}/share-links`, { name: 'Partners' })).body
    const url = new URL(link.urls.published)
    expect(url.searchParams.get('shareKey')).toMatch(/^[\w-]{32}$/)

    const without = await preview(t, root(site.id))
    expect(without.status).toBe(404)
    expect(without.html).not.toContain('Secret plans')
    expect((await preview(t, `${root(site.id)}?shareKey=wrong`)).status).toBe(404)

    const withKey = await preview(t, `${url.pathname}${url.search}`)
    expect(withKey.status).toBe(200)
    expect(withKey.html).toContain('Launch on Monday.')
    const cookie = withKey.headers.get('set-cookie')!
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain(`Path=/preview/sites/${site.id}`)
    const cookiePair = cookie.split(';', 1)[0]!
    // The next pages need no key in the URL: the cookie carries it.
    expect((await preview(t, root(site.id), { cookie: cookiePair })).status).toBe(200)

    await t.owner.api.patch(`${sitePath(t, site.id)}/share-links/${link.id}`, { active: false })
    expect((await preview(t, `${url.pathname}${url.search}`)).status).toBe(404)
    expect((await preview(t, root(site.id), { cookie: cookiePair })).status).toBe(404)
    await t.owner.api.patch(`${sitePath(t, site.id)}/share-links/${link.id}`, { active: true })
    expect((await preview(t, `${url.pathname}${url.search}`)).status).toBe(200)
    await t.owner.api.delete(`${sitePath(t, site.id)}/share-links/${link.id}`)
    expect((await preview(t, `${url.pathname}${url.search}`)).status).toBe(404)
  })

  it("opens a visitor-auth site with a visitor JWT signed with its organization's key only", async () => {
    const space = await createSpace(t)
    setPages(t, space.id, [{ title: 'Members area', markdown: 'Hello member.' }])
    const site = await createSite(t, { visibility: 'visitor-auth', spaces: [space.id] })
    await publish(t, site.id)
    expect((await preview(t, root(site.id))).status).toBe(401)
    expect((await preview(t, `${root(site.id)}?jwt_token=not.a.jwt`)).status).toBe(401)
    const expired = await visitorToken(t, { plan: 'pro' }, -60)
    expect((await preview(t, `${root(site.id)}?jwt_token=${expired}`)).status).toBe(401)

    const token = await visitorToken(t, { plan: 'pro' })
    const page = await preview(t, `${root(site.id)}?jwt_token=${token}`)
    expect(page.status).toBe(200)
    expect(page.html).toContain('Hello member.')
    const cookiePair = page.headers.get('set-cookie')!.split(';', 1)[0]!
    expect((await preview(t, root(site.id), { cookie: cookiePair })).status).toBe(200)
  })
})

describe('visitor tokens', () => {
  /** A published site of `orgId` showing one space that reads `text`. */
  async function siteOf(orgId: string, text: string, body: Record<string, unknown> = { visibility: 'visitor-auth' }) {
    const space = (await t.owner.api.post(`/v1/orgs/${orgId}/spaces`, { title: 'Space' })).body
    setPages(t, space.id, [{ title: 'Welcome', markdown: text }])
    const site = (await t.owner.api.post(`/v1/orgs/${orgId}/sites`, { title: 'Docs', spaces: [space.id], ...body })).body
    expect((await t.owner.api.post(`/v1/orgs/${orgId}/sites/${site.id}/publish`)).status).toBe(200)
    return site as { id: string }
  }
  const ping = async (api: typeof t.owner.api, orgId: string) =>
    (await api.post(`/v1/orgs/${orgId}/ping`)).body.serviceVisitorClaims as string
  const cookieOf = (token: string) => `quire_visitor_token=${token}`

  it("opens an organization's visitor-auth site only with a token of that organization, in the query or the cookie", async () => {
    const orgB = (await t.owner.api.post('/v1/orgs', { title: 'Other org' })).body.id as string
    const siteB = await siteOf(orgB, 'Only for B.')
    const guestOfA = await t.user({ role: null })
    const tokenA = await ping(guestOfA.api, t.orgId)
    const tokenB = await ping(t.owner.api, orgB)

    for (const attempt of [
      await preview(t, `${root(siteB.id)}?jwt_token=${tokenA}`),
      await preview(t, root(siteB.id), { cookie: cookieOf(tokenA) })
    ]) {
      expect(attempt.status).toBe(401)
      expect(attempt.html).not.toContain('Only for B.')
      expect(attempt.headers.get('set-cookie')).toBeNull()
    }
    // Claims naming B, signed with A's key, are refused as well.
    expect((await preview(t, `${root(siteB.id)}?jwt_token=${await visitorToken(t, { org: orgB })}`)).status).toBe(401)
    // A file of the site is refused alike.
    const [siteSpace] = (await t.owner.api.get(`/v1/orgs/${orgB}/sites/${siteB.id}/site-spaces`)).body.items
    expect((await preview(t, `/preview/sites/${siteB.id}/~files/${siteSpace.id}/nope/x.png?jwt_token=${tokenA}`)).status).toBe(401)

    const opened = await preview(t, `${root(siteB.id)}?jwt_token=${tokenB}`)
    expect(opened.status).toBe(200)
    expect(opened.html).toContain('Only for B.')
    expect((await preview(t, root(siteB.id), { cookie: cookieOf(tokenB) })).status).toBe(200)
    // And B's token opens nothing of A.
    const siteA = await siteOf(t.orgId, 'Only for A.')
    expect((await preview(t, `${root(siteA.id)}?jwt_token=${tokenB}`)).status).toBe(401)
    expect((await preview(t, `${root(siteA.id)}?jwt_token=${tokenA}`)).status).toBe(200)
  })

  it("gives no signed claims on another organization's open site", async () => {
    const orgB = (await t.owner.api.post('/v1/orgs', { title: 'Other org' })).body.id as string
    const siteB = await siteOf(orgB, 'Hello.', { visibility: 'public' })
    await t.owner.api.patch(`/v1/orgs/${orgB}/sites/${siteB.id}`, { adaptiveContent: { enabled: true } })
    const [siteSpace] = (await t.owner.api.get(`/v1/orgs/${orgB}/sites/${siteB.id}/site-spaces`)).body.items
    await t.owner.api.patch(`/v1/orgs/${orgB}/sites/${siteB.id}/site-spaces/${siteSpace.id}`, { condition: 'visitor.claims.isBeta' })
    t.clock.advance(1000)

    const outOfScope = await preview(t, `${root(siteB.id)}?jwt_token=${await visitorToken(t, { isBeta: true })}`)
    expect(outOfScope.status).toBe(200)
    expect(navSiteSpaces(outOfScope.html)).toEqual([])
    expect(outOfScope.headers.get('set-cookie')).toBeNull()
    const inScope = await preview(t, `${root(siteB.id)}?jwt_token=${await visitorToken(t, { isBeta: true }, 3600, orgB)}`)
    expect(navSiteSpaces(inScope.html)).toEqual([siteSpace.id])
  })

  it('opens only the site a token names in its site claim', async () => {
    const s1 = await siteOf(t.orgId, 'Site one.')
    const s2 = await siteOf(t.orgId, 'Site two.')
    const forS1 = await visitorToken(t, { site: s1.id })
    expect((await preview(t, `${root(s1.id)}?jwt_token=${forS1}`)).status).toBe(200)
    expect((await preview(t, `${root(s2.id)}?jwt_token=${forS1}`)).status).toBe(401)
    expect((await preview(t, root(s2.id), { cookie: cookieOf(forS1) })).status).toBe(401)
    // A token without a site claim opens every site of its organization.
    const orgWide = await ping(t.owner.api, t.orgId)
    expect((await preview(t, `${root(s2.id)}?jwt_token=${orgWide}`)).status).toBe(200)
  })

  it("stops a token that opened a site once the site's visitor settings change", async () => {
    const site = await siteOf(t.orgId, 'Members only.')
    const settings = sitePath(t, site.id)
    let token = await ping(t.owner.api, t.orgId)
    const opens = async (tok: string) => {
      const viaQuery = (await preview(t, `${root(site.id)}?jwt_token=${tok}`)).status
      const viaCookie = (await preview(t, root(site.id), { cookie: cookieOf(tok) })).status
      expect(viaCookie).toBe(viaQuery)
      return viaQuery === 200
    }
    expect(await opens(token)).toBe(true)

    // Writes that leave the visitor settings as they were keep it working.
    t.clock.advance(5000)
    await t.owner.api.patch(settings, { title: 'Renamed', visibility: 'visitor-auth', adaptiveContent: { enabled: false } })
    await t.owner.api.post(`${settings}/unpublish`)
    await t.owner.api.post(`${settings}/publish`)
    expect(await opens(token)).toBe(true)

    const changes: [string, () => Promise<unknown>][] = [
      ['adaptive content turned on', () => t.owner.api.patch(settings, { adaptiveContent: { enabled: true } })],
      [
        'a new adaptive schema',
        () =>
          t.owner.api.put(`${settings}/adaptive-schema`, { jsonSchema: { type: 'object', properties: { isBeta: { type: 'boolean' } } } })
      ],
      [
        'the visibility, even changed back',
        async () => {
          await t.owner.api.patch(settings, { visibility: 'public' })
          await t.owner.api.patch(settings, { visibility: 'visitor-auth' })
        }
      ]
    ]
    for (const [change, apply] of changes) {
      t.clock.advance(5000)
      await apply()
      expect(await opens(token), change).toBe(false)
      // A token issued in the same second is refused too; one issued after opens it.
      expect(await opens(await ping(t.owner.api, t.orgId)), change).toBe(false)
      t.clock.advance(1000)
      token = await ping(t.owner.api, t.orgId)
      expect(await opens(token), change).toBe(true)
    }
    // The same schema again changes nothing.
    t.clock.advance(5000)
    await t.owner.api.put(`${settings}/adaptive-schema`, { jsonSchema: { type: 'object', properties: { isBeta: { type: 'boolean' } } } })
    expect(await opens(token)).toBe(true)
  })
})

describe('adaptive content', () => {
  it("leaves a site space whose condition is false for the visitor's claims out of the navigation", async () => {
    const spaces = [await createSpace(t, 'Everyone'), await createSpace(t, 'Beta'), await createSpace(t, 'Staff')]
    const site = await createSite(t, { spaces: spaces.map((s) => s.id) })
    await t.owner.api.patch(sitePath(t, site.id), { adaptiveContent: { enabled: true } })
    await t.owner.api.put(`${sitePath(t, site.id)}/adaptive-schema`, {
      jsonSchema: {
        type: 'object',
        properties: { isBeta: { type: 'boolean' }, unsigned: { type: 'object', properties: { staff: { type: 'boolean' } } } }
      }
    })
    const [everyone, beta, staff] = await siteSpacesOf(site.id)
    await t.owner.api.patch(`${sitePath(t, site.id)}/site-spaces/${beta!.id}`, { condition: 'visitor.claims.isBeta' })
    await t.owner.api.patch(`${sitePath(t, site.id)}/site-spaces/${staff!.id}`, {
      condition: 'visitor.claims.unsigned.staff && !visitor.claims.isBeta'
    })
    await publish(t, site.id)
    // Visitors come later: tokens issued in the second the visitor settings changed are refused.
    t.clock.advance(1000)

    const anonymous = await preview(t, root(site.id))
    expect(navSiteSpaces(anonymous.html)).toEqual([everyone!.id])
    expect(anonymous.html).not.toContain('>Beta<')
    expect((await preview(t, `${root(site.id)}beta/`)).status).toBe(404)

    const betaToken = await visitorToken(t, { isBeta: true })
    const betaVisitor = await preview(t, `${root(site.id)}?jwt_token=${betaToken}`)
    expect(navSiteSpaces(betaVisitor.html)).toEqual([everyone!.id, beta!.id])
    expect((await preview(t, `${root(site.id)}beta/?jwt_token=${betaToken}`)).status).toBe(200)
    const notBeta = await visitorToken(t, { isBeta: false })
    expect(navSiteSpaces((await preview(t, `${root(site.id)}?jwt_token=${notBeta}`)).html)).toEqual([everyone!.id])

    // Unsigned claims come from the query and are kept on the navigation links.
    const staffVisitor = await preview(t, `${root(site.id)}?visitor.staff=true`)
    expect(navSiteSpaces(staffVisitor.html)).toEqual([everyone!.id, staff!.id])
    expect(staffVisitor.html).toContain(`href="/preview/sites/${site.id}/staff/?visitor.staff=true"`)
    const both = await preview(t, `${root(site.id)}?visitor.staff=true&jwt_token=${betaToken}`)
    expect(navSiteSpaces(both.html)).toEqual([everyone!.id, beta!.id])
    // Unsigned claims cannot be forged into signed ones.
    expect(navSiteSpaces((await preview(t, `${root(site.id)}?visitor.isBeta=true`)).html)).toEqual([everyone!.id])
  })

  it('hides sections whose condition is false, and shows the others with their site spaces', async () => {
    const site = await createSite(t)
    const open = await addSection(t, site.id, { spaceId: (await createSpace(t, 'Docs')).id, title: 'Docs' })
    const partners = await addSection(t, site.id, { spaceId: (await createSpace(t, 'Partner API')).id, title: 'Partners' })
    await t.owner.api.patch(`${sitePath(t, site.id)}/sections/${partners.id}`, { condition: 'visitor.claims.partner == true' })
    await publish(t, site.id)
    const page = await preview(t, root(site.id))
    expect(navSections(page.html)).toEqual([open.id])
    expect((await preview(t, `${root(site.id)}partners/`)).status).toBe(404)
    const token = await visitorToken(t, { partner: true })
    const partner = await preview(t, `${root(site.id)}partners/?jwt_token=${token}`)
    expect(partner.status).toBe(200)
    expect(navSections(partner.html)).toEqual([open.id, partners.id])
    expect(partner.html).toMatch(new RegExp(`data-section="${partners.id}"><a [^>]*aria-current="page"`))
  })
})
