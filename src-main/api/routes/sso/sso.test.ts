import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'

// A real self-signed certificate (openssl req -x509 -newkey rsa:2048 -days 36500), made once and kept here.
const CERT = readFileSync(new URL('./fixtures/idp-cert.pem', import.meta.url), 'utf8')

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const samlPath = (orgId = t.orgId) => `/v1/orgs/${orgId}/saml`

/** A team of `orgId` (created by the owner) with `members` new members and edit grants on `spaces` new spaces. */
async function makeTeam(orgId: string, title: string, { members = 0, spaces = 0 } = {}): Promise<string> {
  const memberIds: string[] = []
  for (let i = 0; i < members; i++) memberIds.push((await t.user({ role: 'read', orgId })).user.id)
  const team = await t.owner.api.put(`/v1/orgs/${orgId}/teams`, { title, members: memberIds })
  expect(team.status, JSON.stringify(team.body)).toBe(201)
  for (let i = 0; i < spaces; i++) {
    const space = await t.owner.api.post(`/v1/orgs/${orgId}/spaces`, { title: `S${i}`, empty: true })
    const grant = await t.owner.api.post(`/v1/spaces/${space.body.id}/permissions`, { role: 'edit', teams: [team.body.id] })
    expect(grant.status).toBe(204)
  }
  return team.body.id
}

function expectProvider(p: any, orgId = t.orgId) {
  expect(p).toMatchObject({
    object: 'saml-provider',
    id: expect.any(String),
    label: expect.any(String),
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    service: {
      acsURL: `${t.url}/v1/orgs/${orgId}/saml/${p.id}/acs`,
      startURL: `${t.url}/v1/orgs/${orgId}/saml/${p.id}/start`,
      entityID: `${t.url}/v1/orgs/${orgId}/saml/${p.id}`
    },
    urls: { location: `${t.url}/v1/orgs/${orgId}/saml/${p.id}` }
  })
  expect('defaultRole' in p).toBe(true)
}

async function createProvider(body: Record<string, unknown> = {}) {
  const res = await t.owner.api.post(samlPath(), { label: 'Okta', ...body })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}

describe('access', () => {
  it('answers 401 without a token on every operation', async () => {
    const id = (await createProvider()).id
    const calls = [
      t.anonymous.get(samlPath()),
      t.anonymous.post(samlPath(), { label: 'X' }),
      t.anonymous.get(`${samlPath()}/${id}`),
      t.anonymous.patch(`${samlPath()}/${id}`, { label: 'X' }),
      t.anonymous.delete(`${samlPath()}/${id}`),
      t.anonymous.get(`/v1/orgs/${t.orgId}/sso`)
    ]
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: { code: 401, message: expect.any(String) } })
    }
    expect((await t.owner.api.get(`${samlPath()}/${id}`)).body.label).toBe('Okta')
  })

  it('answers 403 to members below admin and to guests, and changes nothing', async () => {
    const id = (await createProvider()).id
    for (const role of ['create', 'read', null] as const) {
      const u = await t.user({ role })
      const results = [
        await u.api.get(samlPath()),
        await u.api.post(samlPath(), { label: 'Mine' }),
        await u.api.get(`${samlPath()}/${id}`),
        await u.api.patch(`${samlPath()}/${id}`, { label: 'Mine' }),
        await u.api.delete(`${samlPath()}/${id}`)
      ]
      for (const res of results) {
        expect(res.status, `role ${role}`).toBe(403)
        expect(res.body.error).toEqual({ code: 403, message: expect.any(String) })
      }
    }
    const list = await t.owner.api.get(samlPath())
    expect(list.body.count).toBe(1)
    expect(list.body.items[0].label).toBe('Okta')
  })

  it('answers 404 to non-members, for unknown organizations and unknown providers', async () => {
    const id = (await createProvider()).id
    const outsider = await t.user({ role: 'none' })
    for (const res of [
      await outsider.api.get(samlPath()),
      await outsider.api.post(samlPath(), { label: 'X' }),
      await outsider.api.get(`${samlPath()}/${id}`),
      await outsider.api.patch(`${samlPath()}/${id}`, { label: 'X' }),
      await outsider.api.delete(`${samlPath()}/${id}`),
      await outsider.api.get(`/v1/orgs/${t.orgId}/sso`),
      await t.owner.api.get(samlPath('unknown-org')),
      await t.owner.api.get('/v1/orgs/unknown-org/sso'),
      await t.owner.api.get(`${samlPath()}/unknown`),
      await t.owner.api.patch(`${samlPath()}/unknown`, { label: 'X' }),
      await t.owner.api.delete(`${samlPath()}/unknown`)
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error.code).toBe(404)
    }
  })

  it('does not reach a provider through another organization', async () => {
    const id = (await createProvider()).id
    const other = (await t.owner.api.post('/v1/orgs', { title: 'Other org' })).body.id
    expect((await t.owner.api.get(`${samlPath(other)}/${id}`)).status).toBe(404)
    expect((await t.owner.api.patch(`${samlPath(other)}/${id}`, { label: 'Moved' })).status).toBe(404)
    expect((await t.owner.api.delete(`${samlPath(other)}/${id}`)).status).toBe(404)
    expect((await t.owner.api.get(samlPath(other))).body).toEqual({ count: 0, items: [] })
    expect((await t.owner.api.get(`${samlPath()}/${id}`)).body.label).toBe('Okta')
  })
})

describe('SAML providers', () => {
  it('creates a provider with every field, normalising the certificate to PEM', async () => {
    const teamId = await makeTeam(t.orgId, 'Engineering', { members: 2, spaces: 3 })
    const res = await t.owner.api.post(samlPath(), {
      label: 'Okta',
      entityID: 'http://www.okta.com/exk123',
      certificate: `\n  ${CERT.trim().replace(/\n/g, '\r\n')}  \n`,
      ssoURL: 'https://acme.okta.com/app/sso/saml',
      defaultTeam: teamId,
      defaultRole: 'edit',
      unknownField: 'ignored'
    })
    expect(res.status).toBe(201)
    expectProvider(res.body)
    expect(res.body).toMatchObject({
      label: 'Okta',
      entityID: 'http://www.okta.com/exk123',
      certificate: CERT,
      ssoURL: 'https://acme.okta.com/app/sso/saml',
      defaultRole: 'edit',
      createdAt: '2026-03-01T10:00:00.000Z',
      defaultTeam: {
        object: 'team',
        id: teamId,
        title: 'Engineering',
        members: 2,
        spaces: 3,
        createdAt: expect.stringMatching(/^\d{4}-/),
        permissions: { admin: true, view: true }
      }
    })
    expect(res.body).not.toHaveProperty('unknownField')
    const read = await t.owner.api.get(`${samlPath()}/${res.body.id}`)
    expect(read.status).toBe(200)
    expect(read.body).toEqual(res.body)
  })

  it('accepts the certificate as the bare base64 body identity providers show, on one line or wrapped, and stores it as PEM', async () => {
    const body = CERT.split('\n').filter((line) => line && !line.startsWith('-----'))
    for (const certificate of [body.join(''), ` ${body.join('\r\n')}\n`]) {
      const res = await t.owner.api.post(samlPath(), { label: 'Bare', certificate })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      expect(res.body.certificate).toBe(CERT)
      const patched = await t.owner.api.patch(`${samlPath()}/${res.body.id}`, { certificate })
      expect(patched.body.certificate).toBe(CERT)
    }
  })

  it('is pending until the sign-in address, entity ID and certificate are all set, then active', async () => {
    const p = await createProvider({ label: 'A', ssoURL: 'https://a.test/sso', entityID: 'urn:a' })
    expect(p.status).toBe('pending')
    const done = await t.owner.api.patch(`${samlPath()}/${p.id}`, { certificate: CERT })
    expect(done.body.status).toBe('active')
    expect((await t.owner.api.get(samlPath())).body.items.map((x: any) => x.status)).toEqual(['active'])
  })

  it('creates a provider from a label alone', async () => {
    const p = await createProvider({ label: 'A' })
    expectProvider(p)
    expect(p.status).toBe('pending')
    expect(p.defaultRole).toBeNull()
    for (const field of ['ssoURL', 'entityID', 'certificate', 'defaultTeam']) expect(p).not.toHaveProperty(field)
  })

  it('validates every input of the create body, and a failed create stores nothing', async () => {
    const otherOrg = (await t.owner.api.post('/v1/orgs', { title: 'Other org' })).body.id
    const foreignTeam = await makeTeam(otherOrg, 'Theirs')
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'label: is required'],
      [{ label: '' }, 'label: must be at least 1 characters'],
      [{ label: 'x'.repeat(31) }, 'label: must be at most 30 characters'],
      [{ label: 7 }, 'label: must be string'],
      [{ label: 'L', entityID: 'e'.repeat(1025) }, 'entityID: must be at most 1024 characters'],
      [{ label: 'L', certificate: 'c'.repeat(10001) }, 'certificate: must be at most 10000 characters'],
      [{ label: 'L', certificate: 'not a certificate' }, 'certificate: must be an X.509 certificate, PEM or base64'],
      [{ label: 'L', certificate: CERT.replace('MIID', 'MIIX') }, 'certificate: must be an X.509 certificate, PEM or base64'],
      [
        { label: 'L', certificate: CERT.split('\n').slice(1, -2).join('').slice(0, 400) },
        'certificate: must be an X.509 certificate, PEM or base64'
      ],
      [{ label: 'L', ssoURL: 'not a url' }, 'ssoURL: must be a valid uri'],
      [{ label: 'L', ssoURL: `https://idp.test/${'a'.repeat(2040)}` }, 'ssoURL: must be at most 2048 characters'],
      [{ label: 'L', ssoURL: 'javascript:alert(1)' }, 'ssoURL: must be an http or https URL'],
      [{ label: 'L', ssoURL: 'ftp://idp.test/sso' }, 'ssoURL: must be an http or https URL'],
      [{ label: 'L', defaultRole: 'owner' }, 'defaultRole: must be one of: admin, create, review, edit, comment, read, null'],
      [{ label: 'L', defaultTeam: 'no-such-team' }, 'defaultTeam: no team no-such-team in this organization'],
      [{ label: 'L', defaultTeam: foreignTeam }, `defaultTeam: no team ${foreignTeam} in this organization`],
      [{ label: 'L', defaultTeam: 5 }, 'defaultTeam: must be string']
    ]
    for (const [body, message] of cases) {
      const res = await t.owner.api.post(samlPath(), body)
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(message) } })
    }
    expect((await t.owner.api.get(samlPath())).body).toEqual({ count: 0, items: [] })
  })

  it('accepts the limits themselves', async () => {
    const p = await createProvider({
      label: 'x'.repeat(30),
      entityID: 'e'.repeat(1024),
      ssoURL: `http://idp.test/${'a'.repeat(2048 - 'http://idp.test/'.length)}`,
      defaultRole: null,
      defaultTeam: null
    })
    expect(p.label).toHaveLength(30)
    expect(p.entityID).toHaveLength(1024)
    expect(p.ssoURL).toHaveLength(2048)
  })

  it('updates the fields sent and keeps the others', async () => {
    const teamA = await makeTeam(t.orgId, 'A', { members: 1 })
    const teamB = await makeTeam(t.orgId, 'B')
    const p = await createProvider({
      entityID: 'urn:a',
      ssoURL: 'https://a.test/sso',
      certificate: CERT,
      defaultTeam: teamA,
      defaultRole: 'read'
    })
    t.clock.advance(60_000)

    const res = await t.owner.api.patch(`${samlPath()}/${p.id}`, { label: 'Azure AD', defaultRole: 'comment', defaultTeam: teamB })
    expect(res.status).toBe(200)
    expectProvider(res.body)
    expect(res.body).toMatchObject({
      id: p.id,
      label: 'Azure AD',
      entityID: 'urn:a',
      ssoURL: 'https://a.test/sso',
      certificate: CERT,
      defaultRole: 'comment',
      createdAt: p.createdAt,
      defaultTeam: { id: teamB, title: 'B', members: 0 }
    })

    const cleared = await t.owner.api.patch(`${samlPath()}/${p.id}`, {
      defaultTeam: null,
      defaultRole: null,
      entityID: 'urn:b',
      ssoURL: 'http://b.test'
    })
    expect(cleared.body).toMatchObject({ label: 'Azure AD', entityID: 'urn:b', ssoURL: 'http://b.test', defaultRole: null })
    expect(cleared.body).not.toHaveProperty('defaultTeam')

    const unchanged = await t.owner.api.patch(`${samlPath()}/${p.id}`, {})
    expect(unchanged.status).toBe(200)
    expect(unchanged.body).toEqual(cleared.body)
    expect((await t.owner.api.get(`${samlPath()}/${p.id}`)).body).toEqual(cleared.body)
  })

  it('validates the update body, and a failed update changes nothing', async () => {
    const p = await createProvider({ certificate: CERT, ssoURL: 'https://a.test/sso' })
    const cases: [Record<string, unknown>, string][] = [
      [{ label: '' }, 'label: must be at least 1 characters'],
      [{ label: 'x'.repeat(31) }, 'label: must be at most 30 characters'],
      [{ entityID: 'e'.repeat(1025) }, 'entityID: must be at most 1024 characters'],
      [{ certificate: 'c'.repeat(10001) }, 'certificate: must be at most 10000 characters'],
      [
        { label: 'New', certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' },
        'certificate: must be an X.509 certificate, PEM or base64'
      ],
      [{ ssoURL: `https://idp.test/${'a'.repeat(2040)}` }, 'ssoURL: must be at most 2048 characters'],
      [{ label: 'New', ssoURL: 'mailto:a@b.test' }, 'ssoURL: must be an http or https URL'],
      [{ defaultRole: 'owner' }, 'defaultRole: must be one of'],
      [{ label: 'New', defaultTeam: 'nope' }, 'defaultTeam: no team nope in this organization']
    ]
    for (const [body, message] of cases) {
      const res = await t.owner.api.patch(`${samlPath()}/${p.id}`, body)
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(res.body.error.message).toContain(message)
    }
    expect((await t.owner.api.get(`${samlPath()}/${p.id}`)).body).toEqual(p)
  })

  it('deletes a provider (204, no body)', async () => {
    const keep = await createProvider({ label: 'Keep' })
    const gone = await createProvider({ label: 'Gone' })
    const res = await t.owner.api.delete(`${samlPath()}/${gone.id}`)
    expect(res.status).toBe(204)
    expect(res.body).toBeUndefined()
    expect((await t.owner.api.get(`${samlPath()}/${gone.id}`)).status).toBe(404)
    expect((await t.owner.api.delete(`${samlPath()}/${gone.id}`)).status).toBe(404)
    const list = await t.owner.api.get(samlPath())
    expect(list.body.count).toBe(1)
    expect(list.body.items.map((i: any) => i.id)).toEqual([keep.id])
  })

  it('lists the providers in pages, each once, with the count', async () => {
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await createProvider({ label: `P${i}` })).id)
    const { items, pages } = await walk(t.owner.api, samlPath(), { limit: 2 })
    expect(items.map((i) => i.id)).toEqual(ids)
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1])
    expect(pages.every((p) => p.count === 5)).toBe(true)
    expect(pages.at(-1).next).toBeUndefined()
    items.forEach((i) => expectProvider(i))

    const all = await t.owner.api.get(samlPath())
    expect(all.body.items).toHaveLength(5)
    expect(all.body.next).toBeUndefined()
    expect((await t.owner.api.get(samlPath(), { limit: 1001 })).body.error.message).toBe('limit: must be at most 1000')
    expect((await t.owner.api.get(samlPath(), { limit: 0 })).status).toBe(400)
    expect((await t.owner.api.get(samlPath(), { page: 'garbage' })).status).toBe(400)
  })
})

describe('SSO login info', () => {
  it('lists id, label and startURL for any member, guests included', async () => {
    const guest = await t.user({ role: null })
    expect((await guest.api.get(`/v1/orgs/${t.orgId}/sso`)).body).toEqual({ items: [] })

    const a = await createProvider({ label: 'Okta', certificate: CERT })
    const b = await createProvider({ label: 'Google' })
    for (const caller of [t.owner, guest, await t.user({ role: 'read' })]) {
      const res = await caller.api.get(`/v1/orgs/${t.orgId}/sso`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        items: [
          { id: a.id, label: 'Okta', startURL: a.service.startURL },
          { id: b.id, label: 'Google', startURL: b.service.startURL }
        ]
      })
    }
    await t.owner.api.delete(`${samlPath()}/${a.id}`)
    expect((await guest.api.get(`/v1/orgs/${t.orgId}/sso`)).body.items.map((i: any) => i.id)).toEqual([b.id])
  })
})

describe('OpenAPI', () => {
  it('documents every SSO operation', async () => {
    const doc = (await t.anonymous.get('/v1/openapi.json')).body
    expect(Object.keys(doc.paths['/v1/orgs/{organizationId}/saml'])).toEqual(expect.arrayContaining(['get', 'post']))
    expect(Object.keys(doc.paths['/v1/orgs/{organizationId}/saml/{samlProviderId}'])).toEqual(
      expect.arrayContaining(['get', 'patch', 'delete'])
    )
    expect(doc.paths['/v1/orgs/{organizationId}/sso'].get.tags).toEqual(['SSO'])
  })
})
