import { createHmac } from 'node:crypto'
import { jwtVerify, decodeJwt } from 'jose'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ROLES } from '../../../../src-shared/schemas/common'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { createSite, sitePath } from '../sites/fixtures'
import { buildSpace, countRows, createOrg, createTeam, grant, grantCollection, setDisabled } from './testFactories'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const members = () => `/v1/orgs/${t.orgId}/members`
const HOUR = 60 * 60 * 1000

function expectMember(m: any) {
  expect(m).toMatchObject({
    object: 'member',
    id: expect.any(String),
    user: { object: 'user', id: m.id, displayName: expect.any(String), email: expect.any(String), urls: { location: expect.any(String) } },
    disabled: expect.any(Boolean),
    joinedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    sso: expect.any(Boolean),
    spaces: expect.any(Number),
    teams: expect.any(Number),
    sites: expect.any(Number)
  })
  expect(m.role === null || (ROLES as readonly string[]).includes(m.role)).toBe(true)
}

/** `n` members joined one hour apart (after the owner), with their given names. */
async function joinMembers(names: string[], role: any = 'read') {
  const made = []
  for (const name of names) {
    t.clock.advance(HOUR)
    made.push(await t.user({ role, name, email: `${name.toLowerCase().replace(/\W/g, '')}@example.com` }))
  }
  return made
}

describe('authentication and visibility', () => {
  it('answers 401 without a token on every member operation', async () => {
    const id = t.owner.user.id
    const calls = [
      t.anonymous.get(members()),
      t.anonymous.get(`${members()}/${id}`),
      t.anonymous.patch(`${members()}/${id}`, { role: 'read' }),
      t.anonymous.delete(`${members()}/${id}`),
      t.anonymous.post(`/v1/orgs/${t.orgId}/ping`),
      t.anonymous.post(`${members()}/${id}/sso`)
    ]
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: { code: 401, message: expect.any(String) } })
    }
  })

  it('hides members from non-members and unknown organizations (404), and the list from guests (403)', async () => {
    const outsider = await t.user({ role: 'none' })
    const guest = await t.user({ role: null })
    expect((await outsider.api.get(members())).status).toBe(404)
    expect((await outsider.api.get(`${members()}/${t.owner.user.id}`)).status).toBe(404)
    expect((await outsider.api.post(`/v1/orgs/${t.orgId}/ping`)).status).toBe(404)
    expect((await t.owner.api.get('/v1/orgs/nope/members')).status).toBe(404)
    const denied = await guest.api.get(members())
    expect(denied.status).toBe(403)
    expect(denied.body.error).toEqual({ code: 403, message: expect.any(String) })
    // Guests see themselves, nobody else.
    expect((await guest.api.get(`${members()}/${guest.user.id}`)).status).toBe(200)
    expect((await guest.api.get(`${members()}/${t.owner.user.id}`)).status).toBe(404)
    expect((await t.owner.api.get(`${members()}/unknown-user`)).status).toBe(404)
    expect((await t.owner.api.get(`${members()}/${outsider.user.id}`)).status).toBe(404)
  })

  it('treats a disabled member as a non-member, and shows them as disabled', async () => {
    const reader = await t.user({ role: 'read' })
    setDisabled(t, t.orgId, reader.user.id, true)
    expect((await reader.api.get(members())).status).toBe(404)
    const seen = await t.owner.api.get(`${members()}/${reader.user.id}`)
    expect(seen.body).toMatchObject({ id: reader.user.id, disabled: true })
  })
})

describe('GET /members', () => {
  it('lists members with every field, newest first by default', async () => {
    const [a, b] = await joinMembers(['Ann', 'Bob'])
    const reader = a!
    const res = await reader.api.get(members())
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(3)
    expect(res.body.next).toBeUndefined()
    res.body.items.forEach(expectMember)
    expect(res.body.items.map((m: any) => m.id)).toEqual([b!.user.id, a!.user.id, t.owner.user.id])
    expect(res.body.items[2]).toMatchObject({ role: 'admin', disabled: false, sso: false, spaces: 0, teams: 0 })
    expect(res.body.items[2].lastSeenAt).toBeUndefined()
    const asc = await reader.api.get(members(), { order: 'asc' })
    expect(asc.body.items.map((m: any) => m.id)).toEqual([t.owner.user.id, a!.user.id, b!.user.id])
  })

  it('walks every page once, in both orders, with a true count', async () => {
    const made = await joinMembers(['M1', 'M2', 'M3', 'M4', 'M5', 'M6'])
    // Two members joined at the same instant: the keyset tiebreaker keeps them apart.
    made.push(await t.user({ role: 'edit', name: 'Same1' }), await t.user({ role: 'edit', name: 'Same2' }))
    for (const order of ['asc', 'desc']) {
      const { items, pages } = await walk(t.owner.api, members(), { limit: 3, order })
      expect(items).toHaveLength(9)
      expect(new Set(items.map((m) => m.id)).size).toBe(9)
      expect(pages.map((p) => p.items.length)).toEqual([3, 3, 3])
      expect(pages.every((p) => p.count === 9)).toBe(true)
      expect(pages.at(-1).next).toBeUndefined()
      const times = items.map((m) => m.joinedAt)
      const sorted = [...times].sort()
      expect(times).toEqual(order === 'asc' ? sorted : sorted.reverse())
    }
  })

  it('filters by each role, and pages through a filtered list', async () => {
    for (const role of ROLES) await t.user({ role })
    await t.user({ role: 'edit' })
    await t.user({ role: 'edit' })
    await t.user({ role: null })
    for (const role of ROLES) {
      const res = await t.owner.api.get(members(), { role })
      const expected = role === 'admin' ? 2 : role === 'edit' ? 3 : 1
      expect(res.body.count, role).toBe(expected)
      expect(res.body.items.every((m: any) => m.role === role)).toBe(true)
    }
    const { items, pages } = await walk(t.owner.api, members(), { role: 'edit', limit: 2 })
    expect(items).toHaveLength(3)
    expect(pages).toHaveLength(2)
    expect((await t.owner.api.get(members(), { role: 'owner' })).body.error.message).toMatch(/^role: must be one of: admin, create/)
  })

  it('searches display names and e-mails, case-insensitively, Unicode included', async () => {
    await t.user({ name: 'Zoë Ölund', email: 'zoe@north.example' })
    await t.user({ name: 'Marc', email: 'MARC.Smith@South.example' })
    await t.user({ name: 'Other', email: 'other@else.example' })
    const find = async (search: string) => (await t.owner.api.get(members(), { search })).body
    expect((await find('ZOË')).items.map((m: any) => m.user.displayName)).toEqual(['Zoë Ölund'])
    expect((await find('ölu')).count).toBe(1)
    expect((await find('smith@south')).items.map((m: any) => m.user.displayName)).toEqual(['Marc'])
    expect((await find('.example')).count).toBe(3)
    expect((await find('%')).count).toBe(0)
    expect((await find('nobody')).count).toBe(0)
    const { items } = await walk(t.owner.api, members(), { search: 'EXAMPLE', limit: 1 })
    expect(items).toHaveLength(3)
  })

  it('sorts by last-seen time, listing only members seen at least once', async () => {
    const [a, b, c] = await joinMembers(['A', 'B', 'C'])
    await b!.api.post(`/v1/orgs/${t.orgId}/ping`)
    t.clock.advance(HOUR)
    await a!.api.post(`/v1/orgs/${t.orgId}/ping`)
    t.clock.advance(HOUR)
    await c!.api.post(`/v1/orgs/${t.orgId}/ping`)
    const res = await t.owner.api.get(members(), { sort: 'lastSeenAt' })
    expect(res.body.count).toBe(3)
    expect(res.body.items.map((m: any) => m.id)).toEqual([c!.user.id, a!.user.id, b!.user.id])
    expect(res.body.items.every((m: any) => typeof m.lastSeenAt === 'string')).toBe(true)
    const { items } = await walk(t.owner.api, members(), { sort: 'lastSeenAt', order: 'asc', limit: 2 })
    expect(items.map((m) => m.id)).toEqual([b!.user.id, a!.user.id, c!.user.id])
    const byRole = await t.owner.api.get(members(), { sort: 'lastSeenAt', role: 'admin' })
    expect(byRole.body.count).toBe(0)
  })

  it('counts direct space grants (live spaces of this organization) and teams per member', async () => {
    const [m] = await joinMembers(['Counted'], null)
    const s1 = buildSpace(t)
    const s2 = buildSpace(t)
    const gone = buildSpace(t, { deleted: true })
    const elsewhere = buildSpace(t, { orgId: await createOrg(t) })
    for (const s of [s1, s2, gone, elsewhere]) grant(t, s.id, 'user', m!.user.id, 'edit')
    const team = await createTeam(t, 'T1', [m!])
    await createTeam(t, 'T2', [m!])
    grant(t, buildSpace(t).id, 'team', team, 'read')
    const res = await t.owner.api.get(`${members()}/${m!.user.id}`)
    expect(res.body).toMatchObject({ spaces: 2, teams: 2 })
    const listed = (await t.owner.api.get(members())).body.items.find((x: any) => x.id === m!.user.id)
    expect(listed).toMatchObject({ spaces: 2, teams: 2 })
  })

  it('counts direct site grants (sites of this organization) per member, not those through a team', async () => {
    const [m] = await joinMembers(['Sited'], null)
    const [s1, s2, s3] = [await createSite(t), await createSite(t), await createSite(t)]
    const team = await createTeam(t, 'Site team', [m!])
    for (const s of [s1, s2])
      expect((await t.owner.api.patch(`${sitePath(t, s.id)}/permissions/users/${m!.user.id}`, { role: 'read' })).status).toBe(204)
    expect((await t.owner.api.patch(`${sitePath(t, s3.id)}/permissions/teams/${team}`, { role: 'read' })).status).toBe(204)
    expect((await t.owner.api.get(`${members()}/${m!.user.id}`)).body).toMatchObject({ sites: 2, teams: 1 })
    const listed = (await t.owner.api.get(members())).body.items
    expect(listed.find((x: any) => x.id === m!.user.id)).toMatchObject({ sites: 2 })
    expect(listed.find((x: any) => x.id === t.owner.user.id)).toMatchObject({ sites: 0 })
  })

  it('validates the query', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ sort: 'name' }, 'sort: must be one of: joinedAt, lastSeenAt'],
      [{ order: 'up' }, 'order: must be one of: asc, desc'],
      [{ limit: 0 }, 'limit: must be at least 1'],
      [{ limit: 1001 }, 'limit: must be at most 1000'],
      [{ search: 'x'.repeat(321) }, 'search: must be at most 320 characters'],
      [{ page: 'garbage' }, 'page: ']
    ]
    for (const [query, message] of cases) {
      const res = await t.owner.api.get(members(), query)
      expect(res.status, JSON.stringify(query)).toBe(400)
      expect(res.body.error.message).toContain(message)
    }
  })
})

describe('PATCH /members/{userId}', () => {
  it('changes a role (admins only), null makes a guest, and reads back', async () => {
    const m = await t.user({ role: 'read' })
    for (const role of [...ROLES, null]) {
      const res = await t.owner.api.patch(`${members()}/${m.user.id}`, { role })
      expect(res.status, String(role)).toBe(200)
      expectMember(res.body)
      expect(res.body.role).toBe(role)
      expect((await t.owner.api.get(`${members()}/${m.user.id}`)).body.role).toBe(role)
    }
  })

  it('refuses non-admins (403) and leaves the role unchanged', async () => {
    const m = await t.user({ role: 'read' })
    const creator = await t.user({ role: 'create' })
    const res = await creator.api.patch(`${members()}/${m.user.id}`, { role: 'admin' })
    expect(res.status).toBe(403)
    expect((await creator.api.patch(`${members()}/${creator.user.id}`, { role: 'admin' })).status).toBe(403)
    expect((await t.owner.api.get(`${members()}/${m.user.id}`)).body.role).toBe('read')
    expect((await t.owner.api.get(`${members()}/${creator.user.id}`)).body.role).toBe('create')
    const guest = await t.user({ role: null })
    expect((await guest.api.patch(`${members()}/${m.user.id}`, { role: 'admin' })).status).toBe(404)
    expect((await t.owner.api.patch(`${members()}/unknown`, { role: 'read' })).status).toBe(404)
  })

  it('validates the body', async () => {
    const m = await t.user({ role: 'read' })
    for (const [body, message] of [
      [{}, 'role: is required'],
      [{ role: 'owner' }, 'role: must be one of: admin, create, review, edit, comment, read, null'],
      [{ role: 3 }, 'role: ']
    ] as [unknown, string][]) {
      const res = await t.owner.api.patch(`${members()}/${m.user.id}`, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.message).toContain(message)
    }
    expect((await t.owner.api.get(`${members()}/${m.user.id}`)).body.role).toBe('read')
  })

  it('refuses demoting the last active admin (409), allows it once another admin exists', async () => {
    const res = await t.owner.api.patch(`${members()}/${t.owner.user.id}`, { role: 'edit' })
    expect(res.status).toBe(409)
    expect(res.body.error.message).toMatch(/last admin/)
    expect((await t.owner.api.get(`${members()}/${t.owner.user.id}`)).body.role).toBe('admin')
    // A disabled admin does not count.
    const dormant = await t.user({ role: 'admin' })
    setDisabled(t, t.orgId, dormant.user.id, true)
    expect((await t.owner.api.patch(`${members()}/${t.owner.user.id}`, { role: null })).status).toBe(409)
    const second = await t.user({ role: 'admin' })
    expect((await t.owner.api.patch(`${members()}/${t.owner.user.id}`, { role: 'admin' })).status).toBe(200)
    expect((await second.api.patch(`${members()}/${t.owner.user.id}`, { role: 'edit' })).status).toBe(200)
    expect((await second.api.patch(`${members()}/${second.user.id}`, { role: 'edit' })).status).toBe(409)
  })
})

describe('DELETE /members/{userId}', () => {
  it('removes a member with their team memberships and direct grants in that organization only', async () => {
    const m = await t.user({ role: 'edit' })
    const other = await createOrg(t)
    await t.owner.api.post(`/v1/orgs/${other}/invites`, { emails: [m.user.email] })
    const team = await createTeam(t, 'Team', [m])
    const otherTeam = await createTeam(t, 'Theirs', [m], other)
    const here = buildSpace(t)
    const there = buildSpace(t, { orgId: other })
    grant(t, here.id, 'user', m.user.id, 'admin')
    grant(t, there.id, 'user', m.user.id, 'admin')
    const collection = grantCollection(t, t.orgId, 'user', m.user.id)
    const site = await createSite(t)
    expect((await t.owner.api.patch(`${sitePath(t, site.id)}/permissions/users/${m.user.id}`, { role: 'read' })).status).toBe(204)

    const res = await t.owner.api.delete(`${members()}/${m.user.id}`)
    expect(res.status).toBe(204)
    expect(res.body).toBeUndefined()
    expect((await t.owner.api.get(`${members()}/${m.user.id}`)).status).toBe(404)
    expect((await m.api.get(`/v1/orgs/${t.orgId}`)).status).toBe(404)
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/teams/${team}`)).body.members).toBe(0)
    expect(countRows(t, 'SELECT count(*) FROM space_grants WHERE principal_id = ? AND space_id = ?', m.user.id, here.id)).toBe(0)
    expect(countRows(t, 'SELECT count(*) FROM collection_grants WHERE principal_id = ? AND collection_id = ?', m.user.id, collection)).toBe(
      0
    )
    // The other organization keeps them, their team there and their grant there.
    expect((await t.owner.api.get(`/v1/orgs/${other}/members/${m.user.id}`)).body).toMatchObject({ spaces: 1, teams: 1 })
    expect((await t.owner.api.get(`/v1/orgs/${other}/teams/${otherTeam}`)).body.members).toBe(1)
    // Invited back, they start over: no team, no grant, no access to the space through an old grant.
    await t.owner.api.post(`/v1/orgs/${t.orgId}/invites`, { emails: [m.user.email], role: null })
    expect((await t.owner.api.get(`${members()}/${m.user.id}`)).body).toMatchObject({ role: null, spaces: 0, teams: 0, sites: 0 })
    expect((await m.api.get(sitePath(t, site.id))).status).toBe(403)
    expect((await t.owner.api.get(`${members()}/${m.user.id}/teams`)).body.count).toBe(0)
    expect((await t.owner.api.get(`${members()}/${m.user.id}/spaces`)).body.count).toBe(0)
  })

  it('lets a member leave, refuses removing others to non-admins (403) and unknown ids (404)', async () => {
    const a = await t.user({ role: 'create' })
    const b = await t.user({ role: null })
    expect((await a.api.delete(`${members()}/${t.owner.user.id}`)).status).toBe(403)
    expect((await b.api.delete(`${members()}/${a.user.id}`)).status).toBe(404)
    expect((await t.owner.api.get(members())).body.count).toBe(3)
    expect((await b.api.delete(`${members()}/${b.user.id}`)).status).toBe(204)
    expect((await a.api.delete(`${members()}/${a.user.id}`)).status).toBe(204)
    expect((await t.owner.api.get(members())).body.count).toBe(1)
    expect((await t.owner.api.delete(`${members()}/${a.user.id}`)).status).toBe(404)
  })

  it('refuses removing the last admin (409)', async () => {
    const res = await t.owner.api.delete(`${members()}/${t.owner.user.id}`)
    expect(res.status).toBe(409)
    expect(res.body.error.message).toMatch(/last admin/)
    expect((await t.owner.api.get(members())).body.count).toBe(1)
    const second = await t.user({ role: 'admin' })
    expect((await second.api.delete(`${members()}/${t.owner.user.id}`)).status).toBe(204)
  })
})

describe('POST /ping', () => {
  it("records the last-seen time and answers visitor claims signed with the organization's key", async () => {
    const m = await t.user({ role: 'comment' })
    t.clock.advance(HOUR)
    const res = await m.api.post(`/v1/orgs/${t.orgId}/ping`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ serviceVisitorClaims: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) })
    const now = t.clock.now()
    expect((await t.owner.api.get(`${members()}/${m.user.id}`)).body.lastSeenAt).toBe(now.toISOString())

    // The key is derived from the workspace's secret and the organization's id.
    const secret = t.server.api.services.db.prepare("SELECT value FROM settings WHERE key = 'visitorClaimsSecret'").pluck().get() as string
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32)
    const orgKey = (orgId: string) =>
      createHmac('sha256', Buffer.from(secret, 'base64url')).update(`quire-visitor-claims:${orgId}`).digest()
    const { payload, protectedHeader } = await jwtVerify(res.body.serviceVisitorClaims, orgKey(t.orgId), { currentDate: now })
    expect(protectedHeader.alg).toBe('HS256')
    const iat = Math.floor(now.getTime() / 1000)
    expect(payload).toEqual({ sub: m.user.id, org: t.orgId, role: 'comment', iat, exp: iat + 3600 })
    // Expired an hour later; never valid with the workspace secret itself or another organization's key.
    await expect(
      jwtVerify(res.body.serviceVisitorClaims, orgKey(t.orgId), { currentDate: new Date(now.getTime() + HOUR + 1000) })
    ).rejects.toThrow()
    await expect(jwtVerify(res.body.serviceVisitorClaims, Buffer.from(secret, 'base64url'), { currentDate: now })).rejects.toThrow()
    const other = await createOrg(t, 'Other')
    await expect(jwtVerify(res.body.serviceVisitorClaims, orgKey(other), { currentDate: now })).rejects.toThrow()

    // The secret is made once per workspace; a guest's claims carry role null.
    const guest = await t.user({ role: null })
    const again = await guest.api.post(`/v1/orgs/${t.orgId}/ping`)
    expect(countRows(t, "SELECT count(*) FROM settings WHERE key = 'visitorClaimsSecret'")).toBe(1)
    await jwtVerify(again.body.serviceVisitorClaims, orgKey(t.orgId), { currentDate: now })
    expect(decodeJwt(again.body.serviceVisitorClaims)).toMatchObject({ sub: guest.user.id, role: null })
  })
})

describe('POST /members/{userId}/sso', () => {
  it('marks a member as SSO (admins only)', async () => {
    const m = await t.user({ role: 'read' })
    const creator = await t.user({ role: 'create' })
    expect((await creator.api.post(`${members()}/${m.user.id}/sso`)).status).toBe(403)
    expect((await t.owner.api.get(`${members()}/${m.user.id}`)).body.sso).toBe(false)
    const res = await t.owner.api.post(`${members()}/${m.user.id}/sso`)
    expect(res.status).toBe(200)
    expectMember(res.body)
    expect(res.body).toMatchObject({ id: m.user.id, sso: true })
    expect((await creator.api.get(`${members()}/${m.user.id}`)).body.sso).toBe(true)
    expect((await t.owner.api.post(`${members()}/unknown/sso`)).status).toBe(404)
  })
})
