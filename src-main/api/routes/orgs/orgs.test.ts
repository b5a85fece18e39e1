import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

function expectOrganization(org: any) {
  expect(org).toMatchObject({
    object: 'organization',
    id: expect.any(String),
    title: expect.any(String),
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    emailDomains: expect.any(Array),
    type: 'business',
    inviteLinks: expect.any(Boolean),
    plan: expect.any(String),
    urls: { location: expect.stringContaining(`/v1/orgs/${org.id}`), app: expect.any(String) },
    permissions: expect.objectContaining({ view: true })
  })
}

describe('authentication', () => {
  it('answers 401 without a token, with a malformed header and with an unknown token', async () => {
    expect((await t.anonymous.get('/v1/orgs')).status).toBe(401)
    const bad = await t.client('nope').get('/v1/orgs')
    expect(bad.status).toBe(401)
    expect(bad.body).toEqual({ error: { code: 401, message: expect.any(String) } })
  })

  it('GET /v1/user answers the caller', async () => {
    const res = await t.owner.api.get('/v1/user')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      object: 'user',
      id: t.owner.user.id,
      displayName: expect.any(String),
      urls: { location: expect.any(String) }
    })
  })
})

describe('organizations', () => {
  it("lists the bootstrap organization for its owner, and only the caller's organizations", async () => {
    const res = await t.owner.api.get('/v1/orgs')
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(1)
    expect(res.body.next).toBeUndefined()
    expectOrganization(res.body.items[0])
    expect(res.body.items[0].permissions.admin).toBe(true)

    const outsider = await t.user({ role: 'none' })
    expect((await outsider.api.get('/v1/orgs')).body).toMatchObject({ count: 0, items: [] })
  })

  it('creates an organization with the caller as admin, and pages through many', async () => {
    const created = await t.owner.api.post('/v1/orgs', { title: 'Acme Docs', emailDomains: ['acme.test'] })
    expect(created.status).toBe(201)
    expectOrganization(created.body)
    expect(created.body).toMatchObject({ title: 'Acme Docs', emailDomains: ['acme.test'], plan: 'free', permissions: { admin: true } })
    expect((await t.owner.api.get(`/v1/orgs/${created.body.id}`)).body.title).toBe('Acme Docs')

    for (let i = 0; i < 4; i++) await t.owner.api.post('/v1/orgs', { title: `Org ${i}` })
    const { items, pages } = await walk(t.owner.api, '/v1/orgs', { limit: 2 })
    expect(new Set(items.map((o) => o.id)).size).toBe(6)
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 2])
    expect(pages.every((p) => p.count === 6)).toBe(true)
  })

  it('validates the create body', async () => {
    const cases: [unknown, string][] = [
      [{}, 'title: is required'],
      [{ title: 'x' }, 'title: must be at least 2 characters'],
      [{ title: 'x'.repeat(256) }, 'title: must be at most 255 characters'],
      [{ title: 'Fine', emailDomains: ['not a domain'] }, 'emailDomains.0: must be a domain name, like example.com'],
      [{ title: 42 }, 'title: must be string']
    ]
    for (const [body, message] of cases) {
      const res = await t.owner.api.post('/v1/orgs', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.code).toBe(400)
      expect(res.body.error.message).toContain(message)
    }
    const malformed = await t.owner.api.request('POST', '/v1/orgs', '{"title":')
    expect(malformed.status).toBe(400)
    expect(malformed.body.error.message).toMatch(/^body: /)
    expect((await t.owner.api.get('/v1/orgs')).body.count).toBe(1)
  })

  it('updates an organization (admins only) and keeps what was not sent', async () => {
    const res = await t.owner.api.patch(`/v1/orgs/${t.orgId}`, {
      title: 'Docs Inc',
      hostname: 'docs-inc',
      defaultRole: 'edit',
      emailDomains: ['docs.test'],
      inviteLinks: false,
      ai: true,
      defaultContent: { type: 'site', site: 'abc' },
      logo: 'https://example.com/logo.png'
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      title: 'Docs Inc',
      hostname: 'docs-inc',
      defaultRole: 'edit',
      emailDomains: ['docs.test'],
      inviteLinks: false,
      ai: true,
      sso: false,
      defaultContent: { type: 'site', site: 'abc' },
      urls: { logo: 'https://example.com/logo.png' }
    })
    const again = await t.owner.api.patch(`/v1/orgs/${t.orgId}`, { defaultRole: null })
    expect(again.body).toMatchObject({ title: 'Docs Inc', defaultRole: null, hostname: 'docs-inc' })
    const cleared = await t.owner.api.patch(`/v1/orgs/${t.orgId}`, { hostname: null })
    expect(cleared.status).toBe(200)
    expect(cleared.body.hostname).toBeUndefined()

    const reader = await t.user({ role: 'read' })
    const denied = await reader.api.patch(`/v1/orgs/${t.orgId}`, { title: 'Hijacked' })
    expect(denied.status).toBe(403)
    expect((await reader.api.get(`/v1/orgs/${t.orgId}`)).body).toMatchObject({
      title: 'Docs Inc',
      permissions: { admin: false, view: true, listMembers: true }
    })
  })

  it('clears the default content with null (then the member is absent)', async () => {
    await t.owner.api.patch(`/v1/orgs/${t.orgId}`, { defaultContent: { type: 'site', site: 'abc' } })
    const cleared = await t.owner.api.patch(`/v1/orgs/${t.orgId}`, { defaultContent: null })
    expect(cleared.status).toBe(200)
    expect(cleared.body).not.toHaveProperty('defaultContent')
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}`)).body).not.toHaveProperty('defaultContent')
  })

  it('says no trial applies, and gives each role the permissions its routes grant', async () => {
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}`)).body.trial).toEqual({ status: 'notapplicable', count: 0 })
    const expected = {
      admin: { view: true, access: true, admin: true, createContent: true, listInstallations: true, installIntegration: true },
      create: { view: true, access: true, admin: false, createContent: true, listInstallations: true, installIntegration: false },
      read: { view: true, access: true, admin: false, createContent: false, listInstallations: true, installIntegration: false },
      guest: { view: true, access: true, admin: false, createContent: false, listInstallations: false, installIntegration: false }
    }
    for (const [role, permissions] of Object.entries(expected)) {
      const member = role === 'admin' ? t.owner : await t.user({ role: role === 'guest' ? null : (role as any) })
      const org = (await member.api.get(`/v1/orgs/${t.orgId}`)).body
      expect(org.permissions, role).toMatchObject(permissions)
      // The flag and the route agree: listing the organization's installations.
      expect((await member.api.get(`/v1/orgs/${t.orgId}/installations`)).status, role).toBe(permissions.listInstallations ? 200 : 403)
    }
  })

  it('rejects invalid updates and a taken hostname', async () => {
    for (const body of [{ hostname: 'ab' }, { hostname: 'UPPER' }, { defaultRole: 'owner' }, { logo: 'not a uri' }, { sso: 'yes' }]) {
      expect((await t.owner.api.patch(`/v1/orgs/${t.orgId}`, body)).status, JSON.stringify(body)).toBe(400)
    }
    const other = await t.owner.api.post('/v1/orgs', { title: 'Other' })
    await t.owner.api.patch(`/v1/orgs/${other.body.id}`, { hostname: 'taken' })
    const clash = await t.owner.api.patch(`/v1/orgs/${t.orgId}`, { hostname: 'taken' })
    expect(clash.status).toBe(409)
  })

  it('hides organizations from non-members (404) and unknown ids (404)', async () => {
    const outsider = await t.user({ role: 'none' })
    expect((await outsider.api.get(`/v1/orgs/${t.orgId}`)).status).toBe(404)
    expect((await outsider.api.patch(`/v1/orgs/${t.orgId}`, { title: 'Mine' })).status).toBe(404)
    expect((await t.owner.api.get('/v1/orgs/doesnotexist')).status).toBe(404)
  })

  it('finds organizations by e-mail domain', async () => {
    await t.owner.api.patch(`/v1/orgs/${t.orgId}`, { emailDomains: ['docs.test'] })
    const res = await t.owner.api.get('/v1/email-domains/DOCS.test/orgs')
    expect(res.status).toBe(200)
    expect(res.body.organizations.map((o: any) => o.id)).toEqual([t.orgId])
    expect((await t.owner.api.get('/v1/email-domains/none.test/orgs')).body).toEqual({ organizations: [] })
  })

  it('rejects limit above 1000 and a forged page identifier', async () => {
    expect((await t.owner.api.get('/v1/orgs', { limit: 1001 })).body.error.message).toBe('limit: must be at most 1000')
    expect((await t.owner.api.get('/v1/orgs', { page: 'garbage' })).status).toBe(400)
  })
})
