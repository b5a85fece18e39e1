import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { addSection, createSite, createSpace, preview, publish, setPages, sitePath } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const navSections = (html: string) => [...html.matchAll(/data-section="([^"]+)"/g)].map((m) => m[1])
/** Path and query of a URL the API gave (the preview is asked on the test server). */
const local = (url: string) => {
  const u = new URL(url)
  return `${u.pathname}${u.search}`
}

async function draftUrl(siteId: string, api = t.owner.api) {
  const res = await api.get(`${sitePath(t, siteId)}/draft-preview`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as { object: string; url: string; expiresAt: string }
}

describe('draft preview', () => {
  it('opens an unpublished site for those who may edit it, and for nobody else', async () => {
    const space = await createSpace(t, 'Guides')
    setPages(t, space.id, [
      { title: 'Intro', markdown: 'Hello.\n' },
      { title: 'Setup', markdown: 'Run it.\n' }
    ])
    const site = await createSite(t, { title: 'Acme', spaces: [space.id] })
    const draft = await draftUrl(site.id)
    expect(draft).toMatchObject({ object: 'site-draft-preview', expiresAt: '2026-03-01T11:00:00.000Z' })
    expect(draft.url).toContain(`/preview/sites/${site.id}/?draft=`)

    const page = await preview(t, local(draft.url))
    expect(page.status).toBe(200)
    expect(page.html).toContain('Draft preview: this site is not published')
    expect(page.html).toContain('<meta name="robots" content="noindex">')
    // The app frames it; a published preview is never framed.
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self' file:")
    // Links keep the draft token: the app's frame may not keep cookies.
    const token = new URL(draft.url).searchParams.get('draft')!
    expect(page.html).toContain(`href="/preview/sites/${site.id}/guides/setup/?draft=${encodeURIComponent(token)}"`)
    expect((await preview(t, `/preview/sites/${site.id}/guides/setup/?draft=${encodeURIComponent(token)}`)).status).toBe(200)

    // Without the token, with a forged one or another site's, the site does not exist.
    expect((await preview(t, `/preview/sites/${site.id}/`)).status).toBe(404)
    const [exp, user] = token.split('.')
    expect((await preview(t, `/preview/sites/${site.id}/?draft=${exp}.${user}.${'A'.repeat(43)}`)).status).toBe(404)
    const other = await createSite(t, { title: 'Other', spaces: [space.id] })
    expect((await preview(t, `/preview/sites/${other.id}/?draft=${encodeURIComponent(token)}`)).status).toBe(404)

    // It lasts an hour.
    t.clock.advance(60 * 60 * 1000)
    expect((await preview(t, local(draft.url))).status).toBe(404)
  })

  it('asks for the role that changes sites (403 below it, 404 outside the organization or for an unknown site)', async () => {
    const site = await createSite(t)
    const reader = await t.user({ role: 'edit' })
    const res = await reader.api.get(`${sitePath(t, site.id)}/draft-preview`)
    expect(res.status).toBe(403)
    expect(res.body.error.message).toContain('create role')
    const outsider = await t.user({ role: 'none' })
    expect((await outsider.api.get(`${sitePath(t, site.id)}/draft-preview`)).status).toBe(404)
    expect((await t.owner.api.get(`${sitePath(t, 'nope')}/draft-preview`)).status).toBe(404)
    expect((await t.owner.api.get(`/v1/orgs/nope/sites/${site.id}/draft-preview`)).status).toBe(404)
  })

  it('stops opening the site once its user may no longer edit sites', async () => {
    const site = await createSite(t)
    const creator = await t.user({ role: 'create' })
    const draft = await draftUrl(site.id, creator.api)
    expect((await preview(t, local(draft.url))).status).toBe(200)
    expect((await t.owner.api.patch(`/v1/orgs/${t.orgId}/members/${creator.user.id}`, { role: 'read' })).status).toBe(200)
    expect((await preview(t, local(draft.url))).status).toBe(404)
  })

  it('opens share-link and visitor-auth sites without their key or token', async () => {
    const site = await createSite(t, { spaces: [(await createSpace(t)).id] })
    await t.owner.api.patch(sitePath(t, site.id), { visibility: 'visitor-auth' })
    await publish(t, site.id)
    expect((await preview(t, `/preview/sites/${site.id}/`)).status).toBe(401)
    expect((await preview(t, local((await draftUrl(site.id)).url))).status).toBe(200)
    await t.owner.api.patch(sitePath(t, site.id), { visibility: 'share-link' })
    expect((await preview(t, `/preview/sites/${site.id}/`)).status).toBe(404)
    const page = await preview(t, local((await draftUrl(site.id)).url))
    expect(page.status).toBe(200)
    expect(page.html).toContain('<div class="draft" role="note">Draft preview</div>')
  })
})

describe('visitor tokens', () => {
  const schema = {
    type: 'object',
    properties: {
      partner: { type: 'boolean' },
      beta: { type: 'boolean' },
      unsigned: { type: 'object', properties: { staff: { type: 'boolean' } } }
    }
  }

  async function adaptiveSite() {
    const site = await createSite(t)
    const open = await addSection(t, site.id, { spaceId: (await createSpace(t, 'Docs')).id, title: 'Docs' })
    const partners = await addSection(t, site.id, { spaceId: (await createSpace(t, 'Partner API')).id, title: 'Partners' })
    await t.owner.api.patch(`${sitePath(t, site.id)}/sections/${partners.id}`, { condition: 'visitor.claims.partner == true' })
    await t.owner.api.put(`${sitePath(t, site.id)}/adaptive-schema`, { jsonSchema: schema })
    // Tokens count from the second after the visitor settings changed.
    t.clock.advance(1000)
    return { site, open, partners }
  }

  it('signs chosen claims that show the site as that visitor sees it, in the draft preview too', async () => {
    const { site, open, partners } = await adaptiveSite()
    const res = await t.owner.api.post(`${sitePath(t, site.id)}/visitor-tokens`, { claims: { partner: true }, expiresIn: 600 })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body).toMatchObject({ object: 'site-visitor-token', claims: { partner: true }, expiresAt: '2026-03-01T10:10:01.000Z' })
    const token = res.body.token as string
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())
    expect(payload).toMatchObject({ partner: true, org: t.orgId, site: site.id, sub: t.owner.user.id })
    expect(payload.exp - payload.iat).toBe(600)

    const draft = local((await draftUrl(site.id)).url)
    expect(navSections((await preview(t, draft)).html)).toEqual([open.id])
    const asPartner = await preview(t, `${draft}&jwt_token=${token}`)
    expect(navSections(asPartner.html)).toEqual([open.id, partners.id])
    // The token is carried in the draft's links, so the next page is seen as the same visitor.
    expect(asPartner.html).toContain(`jwt_token=${token}`)
    const notPartner = (await t.owner.api.post(`${sitePath(t, site.id)}/visitor-tokens`, { claims: { partner: false } })).body.token
    expect(navSections((await preview(t, `${draft}&jwt_token=${notPartner}`)).html)).toEqual([open.id])

    // On the published site too, until it expires.
    await publish(t, site.id)
    expect(navSections((await preview(t, `/preview/sites/${site.id}/?jwt_token=${token}`)).html)).toEqual([open.id, partners.id])
    t.clock.advance(600 * 1000)
    expect(navSections((await preview(t, `/preview/sites/${site.id}/?jwt_token=${token}`)).html)).toEqual([open.id])
  })

  it('is refused by every other site, of the organization or not', async () => {
    const { site } = await adaptiveSite()
    const token = (await t.owner.api.post(`${sitePath(t, site.id)}/visitor-tokens`, { claims: { partner: true } })).body.token
    const other = await createSite(t, { spaces: [(await createSpace(t)).id] })
    await t.owner.api.patch(sitePath(t, other.id), { visibility: 'visitor-auth' })
    await publish(t, other.id)
    expect((await preview(t, `/preview/sites/${other.id}/?jwt_token=${token}`)).status).toBe(401)
    await publish(t, site.id)
    await t.owner.api.patch(sitePath(t, site.id), { visibility: 'visitor-auth' })
    t.clock.advance(1000)
    const fresh = (await t.owner.api.post(`${sitePath(t, site.id)}/visitor-tokens`, { claims: {} })).body.token
    expect((await preview(t, `/preview/sites/${site.id}/?jwt_token=${fresh}`)).status).toBe(200)
    expect((await preview(t, `/preview/sites/${other.id}/?jwt_token=${fresh}`)).status).toBe(401)
  })

  it('takes only the signed claims of the adaptive schema, as booleans, for a bounded time', async () => {
    const { site } = await adaptiveSite()
    const path = `${sitePath(t, site.id)}/visitor-tokens`
    const cases: [Record<string, unknown>, string][] = [
      [{ claims: { nope: true } }, "claims.nope: not a signed claim of the site's adaptive schema"],
      [{ claims: { unsigned: true } }, 'claims.unsigned: not a signed claim'],
      [{ claims: { partner: 'yes' } }, 'claims'],
      [{ claims: { partner: true }, expiresIn: 7 * 24 * 3600 }, 'expiresIn'],
      [{ claims: { partner: true }, expiresIn: 5 }, 'expiresIn'],
      [{}, 'claims']
    ]
    for (const [body, message] of cases) {
      const res = await t.owner.api.post(path, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.message, JSON.stringify(body)).toContain(message)
    }
    // A site without a schema has no claims to sign; an empty set is a plain visitor.
    const bare = await createSite(t)
    expect((await t.owner.api.post(`${sitePath(t, bare.id)}/visitor-tokens`, { claims: { partner: true } })).status).toBe(400)
    expect((await t.owner.api.post(`${sitePath(t, bare.id)}/visitor-tokens`, { claims: {} })).status).toBe(201)
  })

  it('is for admins only (403 for others, 404 outside the organization or for an unknown site)', async () => {
    const { site } = await adaptiveSite()
    const path = `${sitePath(t, site.id)}/visitor-tokens`
    const creator = await t.user({ role: 'create' })
    const res = await creator.api.post(path, { claims: { partner: true } })
    expect(res.status).toBe(403)
    expect(res.body.error.message).toContain('admin role')
    const outsider = await t.user({ role: 'none' })
    expect((await outsider.api.post(path, { claims: {} })).status).toBe(404)
    expect((await t.owner.api.post(`${sitePath(t, 'nope')}/visitor-tokens`, { claims: {} })).status).toBe(404)
    const admin = await t.user({ role: 'admin' })
    expect((await admin.api.post(path, { claims: { partner: true } })).status).toBe(201)
  })
})

describe('the page a reader sees', () => {
  it('shows the customization, an outline, previous and next, and serves its script', async () => {
    const space = await createSpace(t, 'Guides')
    setPages(t, space.id, [
      { title: 'Intro', markdown: '## Why\n\nBecause.\n\n## How\n\nLike this.\n' },
      { title: 'Setup', markdown: 'Run it.\n' },
      { title: 'Deploy', markdown: 'Ship it.\n' }
    ])
    const site = await createSite(t, { title: 'Acme', spaces: [space.id] })
    await t.owner.api.put(`${sitePath(t, site.id)}/customization`, {
      styling: { theme: 'bold', primaryColor: { light: '#ab12cd', dark: '#cd12ab' }, font: 'Roboto' },
      favicon: { icon: { light: 'https://example.com/logo.png', dark: 'https://example.com/logo-dark.png' } }
    })
    await publish(t, site.id)
    const setup = await preview(t, `/preview/sites/${site.id}/guides/setup/?scheme=dark`)
    expect(setup.status).toBe(200)
    expect(setup.html).toContain('<html lang="en" data-scheme="dark">')
    expect(setup.html).toContain(':root[data-scheme=dark]{--primary:#cd12ab')
    expect(setup.html).toContain("font-family:'Roboto'")
    expect(setup.html).toContain('header{background:var(--primary)')
    expect(setup.html).toContain(
      '<img class="logo logo-light" src="https://example.com/logo.png" alt=""><img class="logo logo-dark" src="https://example.com/logo-dark.png" alt="">'
    )
    expect(setup.html).toContain('<link rel="icon" href="https://example.com/logo.png">')
    // A favicon is only ever an image: a script address is not followed.
    await t.owner.api.put(`${sitePath(t, site.id)}/customization`, { favicon: { icon: { light: 'javascript:alert(1)' } } })
    const scripted = await preview(t, `/preview/sites/${site.id}/`)
    expect(scripted.html).toContain('<img class="logo" src="#" alt="">')
    expect(scripted.html).not.toContain('javascript:')
    expect(setup.html).toContain(
      `<a class="previous" rel="prev" href="/preview/sites/${site.id}/guides/intro/"><small>Previous</small>Intro</a>`
    )
    expect(setup.html).toContain(`<a class="next" rel="next" href="/preview/sites/${site.id}/guides/deploy/"><small>Next</small>Deploy</a>`)

    const intro = await preview(t, `/preview/sites/${site.id}/`)
    expect(intro.html).not.toContain('rel="prev"')
    expect(intro.html).toContain(
      '<nav class="outline" aria-label="On this page"><h2>On this page</h2><ul><li class="depth-2"><a href="#why">Why</a></li><li class="depth-2"><a href="#how">How</a></li></ul></nav>'
    )
    expect(intro.html).toContain(`<script src="/preview/sites/${site.id}/~assets/preview.js" defer></script>`)
    expect(intro.headers.get('content-security-policy')).toContain("script-src 'self'")

    const script = await fetch(new URL(`/preview/sites/${site.id}/~assets/preview.js`, t.url))
    expect(script.status).toBe(200)
    expect(script.headers.get('content-type')).toContain('text/javascript')
    expect(await script.text()).toContain('[role=tab]')
  })

  it('searches the spaces the visitor sees, and only the pages they list', async () => {
    const open = await createSpace(t, 'Docs')
    setPages(t, open.id, [{ title: 'Install', markdown: '## Requirements\n\nA recent kettle.\n' }])
    const hidden = await createSpace(t, 'Partner API')
    setPages(t, hidden.id, [{ title: 'Partner kettle', markdown: 'The kettle for partners.\n' }])
    const site = await createSite(t)
    await addSection(t, site.id, { spaceId: open.id, title: 'Docs' })
    const partners = await addSection(t, site.id, { spaceId: hidden.id, title: 'Partners' })
    await t.owner.api.patch(`${sitePath(t, site.id)}/sections/${partners.id}`, { condition: 'visitor.claims.partner == true' })
    await publish(t, site.id)
    const found = await preview(t, `/preview/sites/${site.id}/~search?q=kettle`)
    expect(found.status).toBe(200)
    expect(found.html).toContain('<title>Search · Docs</title>')
    expect(found.html).toContain(
      `<a href="/preview/sites/${site.id}/docs/docs/install/#requirements">Install</a> <small>Docs</small><p>A recent kettle.</p>`
    )
    expect(found.html).not.toContain('Partner kettle')
    expect(found.html).toContain('value="kettle"')
    const none = await preview(t, `/preview/sites/${site.id}/~search?q=teapot`)
    expect(none.html).toContain('Nothing matches “teapot”.')
    // The form keeps what the visitor's links carry (a draft token here).
    const draft = new URL((await t.owner.api.get(`${sitePath(t, site.id)}/draft-preview`)).body.url).searchParams.get('draft')!
    const drafted = await preview(t, `/preview/sites/${site.id}/~search?q=kettle&draft=${encodeURIComponent(draft)}`)
    expect(drafted.html).toContain(`<input type="hidden" name="draft" value="${draft}">`)
  })
})
