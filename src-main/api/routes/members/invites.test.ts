import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { countRows, createOrg } from './testFactories'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const invites = () => `/v1/orgs/${t.orgId}/invites`
const links = () => `/v1/orgs/${t.orgId}/link-invites`
const memberCount = async () => (await t.owner.api.get(`/v1/orgs/${t.orgId}/members`)).body.count as number

async function memberByEmail(email: string, orgId = t.orgId) {
  const res = await t.owner.api.get(`/v1/orgs/${orgId}/members`, { search: email })
  return res.body.items.find((m: any) => m.user.email.toLowerCase() === email.toLowerCase())
}

describe('POST /invites', () => {
  it('makes each address a member, creating users for unknown addresses, with the default role', async () => {
    const known = await t.user({ role: 'none', email: 'known@example.com' })
    const res = await t.owner.api.post(invites(), { emails: ['new.person@example.com', 'known@example.com'] })
    expect(res.status).toBe(204)
    expect(res.body).toBeUndefined()
    expect(await memberCount()).toBe(3)
    const created = await memberByEmail('new.person@example.com')
    expect(created).toMatchObject({ role: 'read', user: { displayName: 'new.person', email: 'new.person@example.com' } })
    expect(await memberByEmail('known@example.com')).toMatchObject({ id: known.user.id, role: 'read' })
    expect((await known.api.get(`/v1/orgs/${t.orgId}`)).status).toBe(200)
  })

  it("uses `role`, per-address roles, the organization's defaultRole (null: guests), and keeps existing members' roles", async () => {
    const editor = await t.user({ role: 'edit', email: 'editor@example.com' })
    await t.owner.api.post(invites(), {
      role: 'review',
      emails: [
        { email: 'a@example.com' },
        { email: 'b@example.com', role: 'admin' },
        { email: 'c@example.com', role: null },
        { email: 'EDITOR@example.com', role: 'read' }
      ]
    })
    expect((await memberByEmail('a@example.com')).role).toBe('review')
    expect((await memberByEmail('b@example.com')).role).toBe('admin')
    expect((await memberByEmail('c@example.com')).role).toBe(null)
    expect(await memberByEmail('editor@example.com')).toMatchObject({ id: editor.user.id, role: 'edit' })

    await t.owner.api.patch(`/v1/orgs/${t.orgId}`, { defaultRole: 'comment' })
    await t.owner.api.post(invites(), { emails: ['d@example.com'] })
    expect((await memberByEmail('d@example.com')).role).toBe('comment')
    await t.owner.api.patch(`/v1/orgs/${t.orgId}`, { defaultRole: null })
    await t.owner.api.post(invites(), { emails: ['e@example.com', 'e@example.com'] })
    expect((await memberByEmail('e@example.com')).role).toBe(null)
    expect(countRows(t, "SELECT count(*) FROM users WHERE email = 'e@example.com'")).toBe(1)
  })

  it('validates the body and changes nothing on failure', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `p${i}@example.com`)
    const cases: [unknown, string][] = [
      [{}, 'emails: is required'],
      [{ emails: [] }, 'emails: must have at least 1 items'],
      [{ emails: many }, 'emails: must have at most 100 items'],
      [{ emails: ['ok@example.com', 'not-an-email'] }, 'emails.1: must be a valid email'],
      [{ emails: [{ email: 'nope' }] }, 'emails.0.email: must be a valid email'],
      [{ emails: [{ role: 'read' }] }, 'emails.0.email: is required'],
      [{ emails: [{ email: 'x@example.com', role: 'boss' }] }, 'emails.0.role: must be one of'],
      [{ emails: [42] }, 'emails.0: must be object'],
      [{ emails: [`${'a'.repeat(310)}@example.com`] }, 'emails.0: must'],
      [{ emails: ['x@example.com'], role: 'boss' }, 'role: must be one of: admin, create, review, edit, comment, read, null']
    ]
    for (const [body, message] of cases) {
      const res = await t.owner.api.post(invites(), body)
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message: expect.stringContaining(message) })
    }
    expect(await memberCount()).toBe(1)
    expect(countRows(t, 'SELECT count(*) FROM users')).toBe(1)
    // 100 addresses is the limit, and fine.
    expect((await t.owner.api.post(invites(), { emails: many.slice(0, 100) })).status).toBe(204)
    expect(await memberCount()).toBe(101)
  })

  it('is for admins only (403), hidden from non-members (404), needs a token (401)', async () => {
    const creator = await t.user({ role: 'create' })
    const outsider = await t.user({ role: 'none' })
    expect((await creator.api.post(invites(), { emails: ['z@example.com'] })).status).toBe(403)
    expect((await outsider.api.post(invites(), { emails: ['z@example.com'] })).status).toBe(404)
    expect((await t.anonymous.post(invites(), { emails: ['z@example.com'] })).status).toBe(401)
    expect((await t.owner.api.post('/v1/orgs/unknown/invites', { emails: ['z@example.com'] })).status).toBe(404)
    expect(await memberCount()).toBe(2)
    expect(countRows(t, "SELECT count(*) FROM users WHERE email = 'z@example.com'")).toBe(0)
  })
})

describe('link invites', () => {
  it('creates, reads, lists, updates and deletes invite links; `redundant` follows the defaultRole', async () => {
    const created = await t.owner.api.post(links(), { role: 'edit' })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({ object: 'invite', id: expect.any(String), role: 'edit', redundant: false })
    const id = created.body.id
    expect((await t.owner.api.get(`${links()}/${id}`)).body).toEqual(created.body)
    expect((await t.owner.api.post(links(), { role: 'read' })).body).toMatchObject({ role: 'read', redundant: true })
    expect((await t.owner.api.post(links(), { role: null })).body).toMatchObject({ role: null, redundant: false })

    const patched = await t.owner.api.patch(`${links()}/${id}`, { role: 'read' })
    expect(patched.status).toBe(200)
    expect(patched.body).toEqual({ object: 'invite', id, role: 'read', redundant: true })
    expect((await t.owner.api.get(`${links()}/${id}`)).body.role).toBe('read')
    await t.owner.api.patch(`/v1/orgs/${t.orgId}`, { defaultRole: 'edit' })
    expect((await t.owner.api.get(`${links()}/${id}`)).body.redundant).toBe(false)

    for (let i = 0; i < 4; i++) await t.owner.api.post(links(), { role: 'comment' })
    const { items, pages } = await walk(t.owner.api, links(), { limit: 3 })
    expect(items).toHaveLength(7)
    expect(new Set(items.map((i) => i.id)).size).toBe(7)
    expect(items[0].id).toBe(id)
    expect(pages.map((p) => p.count)).toEqual([7, 7, 7])
    expect(pages[2].next).toBeUndefined()

    const gone = await t.owner.api.delete(`${links()}/${id}`)
    expect(gone.status).toBe(205)
    expect(gone.body).toBeUndefined()
    expect((await t.owner.api.get(`${links()}/${id}`)).status).toBe(404)
    expect((await t.owner.api.get(links())).body.count).toBe(6)
    expect((await t.owner.api.delete(`${links()}/${id}`)).status).toBe(404)
  })

  it('validates the role', async () => {
    const id = (await t.owner.api.post(links(), { role: 'read' })).body.id
    for (const [method, path] of [
      ['POST', links()],
      ['PATCH', `${links()}/${id}`]
    ]) {
      const missing = await t.owner.api.request(method!, path!, {})
      expect(missing.status).toBe(400)
      expect(missing.body.error.message).toBe('role: is required')
      const bad = await t.owner.api.request(method!, path!, { role: 'owner' })
      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toMatch(/^role: must be one of/)
    }
    expect((await t.owner.api.get(links())).body.count).toBe(1)
    expect((await t.owner.api.get(`${links()}/${id}`)).body.role).toBe('read')
    expect((await t.owner.api.get(links(), { limit: 1001 })).body.error.message).toBe('limit: must be at most 1000')
    expect((await t.owner.api.get(links(), { limit: 0 })).body.error.message).toBe('limit: must be at least 1')
  })

  it('refuses non-admins (403), non-members and other organizations (404), no token (401)', async () => {
    const id = (await t.owner.api.post(links(), { role: 'read' })).body.id
    const creator = await t.user({ role: 'create' })
    const outsider = await t.user({ role: 'none' })
    const other = await createOrg(t)
    for (const [method, path, body] of [
      ['GET', links(), undefined],
      ['POST', links(), { role: 'read' }],
      ['GET', `${links()}/${id}`, undefined],
      ['PATCH', `${links()}/${id}`, { role: 'admin' }],
      ['DELETE', `${links()}/${id}`, undefined]
    ] as [string, string, unknown][]) {
      expect((await creator.api.request(method, path, body)).status, `${method} ${path}`).toBe(403)
      expect((await outsider.api.request(method, path, body)).status, `${method} ${path}`).toBe(404)
      expect((await t.anonymous.request(method, path, body)).status, `${method} ${path}`).toBe(401)
    }
    expect((await t.owner.api.get(`/v1/orgs/${other}/link-invites/${id}`)).status).toBe(404)
    expect((await t.owner.api.get(`${links()}/unknown`)).status).toBe(404)
    expect((await t.owner.api.get(`${links()}/${id}`)).body).toMatchObject({ role: 'read' })
    expect((await t.owner.api.get(links())).body.count).toBe(1)
  })

  it('refuses creating links (403) while the organization has inviteLinks off', async () => {
    await t.owner.api.patch(`/v1/orgs/${t.orgId}`, { inviteLinks: false })
    const res = await t.owner.api.post(links(), { role: 'read' })
    expect(res.status).toBe(403)
    expect(res.body.error.message).toMatch(/^inviteLinks: /)
    expect((await t.owner.api.get(links())).body.count).toBe(0)
  })
})

describe('POST /invites/{inviteId} (join)', () => {
  it('lets any authenticated user join with the link role', async () => {
    const id = (await t.owner.api.post(links(), { role: 'comment' })).body.id
    const outsider = await t.user({ role: 'none' })
    expect((await outsider.api.get(`/v1/orgs/${t.orgId}`)).status).toBe(404)
    const res = await outsider.api.post(`${invites()}/${id}`)
    expect(res.status).toBe(204)
    expect(res.body).toBeUndefined()
    expect((await outsider.api.get(`/v1/orgs/${t.orgId}`)).status).toBe(200)
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/members/${outsider.user.id}`)).body.role).toBe('comment')
    // Joining again changes nothing.
    expect((await outsider.api.post(`${invites()}/${id}`)).status).toBe(204)
    expect(await memberCount()).toBe(2)
  })

  it('never downgrades an existing member, and raises a lower role to the link role', async () => {
    const id = (await t.owner.api.post(links(), { role: 'edit' })).body.id
    const creator = await t.user({ role: 'create' })
    const guest = await t.user({ role: null })
    const reader = await t.user({ role: 'read' })
    for (const u of [creator, guest, reader]) expect((await u.api.post(`${invites()}/${id}`)).status).toBe(204)
    const role = async (userId: string) => (await t.owner.api.get(`/v1/orgs/${t.orgId}/members/${userId}`)).body.role
    expect(await role(creator.user.id)).toBe('create')
    expect(await role(guest.user.id)).toBe('edit')
    expect(await role(reader.user.id)).toBe('edit')
    expect((await t.owner.api.post(`${invites()}/${id}`)).status).toBe(204)
    expect(await role(t.owner.user.id)).toBe('admin')
  })

  it('answers 404 for unknown invites or another organization, 403 while links are off, 401 without a token', async () => {
    const id = (await t.owner.api.post(links(), { role: 'read' })).body.id
    const other = await createOrg(t)
    const outsider = await t.user({ role: 'none' })
    expect((await t.anonymous.post(`${invites()}/${id}`)).status).toBe(401)
    expect((await outsider.api.post(`${invites()}/unknown`)).status).toBe(404)
    expect((await outsider.api.post(`/v1/orgs/${other}/invites/${id}`)).status).toBe(404)
    await t.owner.api.patch(`/v1/orgs/${t.orgId}`, { inviteLinks: false })
    expect((await outsider.api.post(`${invites()}/${id}`)).status).toBe(403)
    expect((await outsider.api.get(`/v1/orgs/${t.orgId}`)).status).toBe(404)
    expect((await outsider.api.get(`/v1/orgs/${other}`)).status).toBe(404)
  })
})
