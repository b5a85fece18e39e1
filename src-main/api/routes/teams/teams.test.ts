import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { buildSpace, countRows, createOrg, createTeam, grant } from '../members/testFactories'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const teams = () => `/v1/orgs/${t.orgId}/teams`

function expectTeam(team: any) {
  expect(team).toEqual({
    object: 'team',
    id: expect.any(String),
    title: expect.any(String),
    members: expect.any(Number),
    spaces: expect.any(Number),
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    permissions: { admin: expect.any(Boolean), view: expect.any(Boolean) }
  })
}

describe('authentication and visibility', () => {
  it('answers 401 without a token on every team operation', async () => {
    const id = await createTeam(t, 'Team')
    for (const [method, path, body] of [
      ['GET', teams(), undefined],
      ['PUT', teams(), { title: 'X' }],
      ['GET', `${teams()}/${id}`, undefined],
      ['PATCH', `${teams()}/${id}`, { title: 'X' }],
      ['DELETE', `${teams()}/${id}`, undefined]
    ] as [string, string, unknown][]) {
      const res = await t.anonymous.request(method, path, body)
      expect(res.status, `${method} ${path}`).toBe(401)
      expect(res.body.error.code).toBe(401)
    }
  })

  it('hides teams from non-members (404), the list from guests (403), and other teams from guests (404)', async () => {
    const outsider = await t.user({ role: 'none' })
    const guest = await t.user({ role: null })
    const id = await createTeam(t, 'Team')
    const mine = await createTeam(t, 'Guests too', [guest])
    expect((await outsider.api.get(teams())).status).toBe(404)
    expect((await outsider.api.get(`${teams()}/${id}`)).status).toBe(404)
    expect((await guest.api.get(teams())).status).toBe(403)
    expect((await guest.api.get(`${teams()}/${id}`)).status).toBe(404)
    const seen = await guest.api.get(`${teams()}/${mine}`)
    expect(seen.status).toBe(200)
    expect(seen.body.permissions).toEqual({ admin: false, view: true })
    expect((await t.owner.api.get(`${teams()}/unknown`)).status).toBe(404)
    const other = await createOrg(t)
    expect((await t.owner.api.get(`/v1/orgs/${other}/teams/${id}`)).status).toBe(404)
    expect((await t.owner.api.patch(`/v1/orgs/${other}/teams/${id}`, { title: 'Moved?' })).status).toBe(404)
  })
})

describe('PUT /teams (create)', () => {
  it('creates a team with members (admins only) and answers 201 Team', async () => {
    const a = await t.user({ role: 'read' })
    const b = await t.user({ role: null })
    const res = await t.owner.api.put(teams(), { title: 'Writers', members: [a.user.id, b.user.id, a.user.id] })
    expect(res.status).toBe(201)
    expectTeam(res.body)
    expect(res.body).toMatchObject({
      title: 'Writers',
      members: 2,
      spaces: 0,
      createdAt: t.clock.now().toISOString(),
      permissions: { admin: true, view: true }
    })
    const read = await a.api.get(`${teams()}/${res.body.id}`)
    expect(read.body).toMatchObject({ id: res.body.id, title: 'Writers', members: 2, permissions: { admin: false, view: true } })
    const listed = await t.owner.api.get(`${teams()}/${res.body.id}/members`)
    expect(listed.body.items.map((i: any) => [i.organization.id, i.team.role])).toEqual([
      [a.user.id, 'member'],
      [b.user.id, 'member']
    ])
  })

  it('validates the body and refuses non-members, changing nothing', async () => {
    const outsider = await t.user({ role: 'none' })
    const cases: [unknown, string][] = [
      [{}, 'title: is required'],
      [{ title: '' }, 'title: must be at least 1 characters'],
      [{ title: 'x'.repeat(65) }, 'title: must be at most 64 characters'],
      [{ title: 5 }, 'title: must be string'],
      [{ title: 'T', members: 'someone' }, 'members: must be array'],
      [{ title: 'T', members: [''] }, 'members.0: must be at least 1 characters'],
      [{ title: 'T', members: Array.from({ length: 1001 }, (_, i) => `u${i}`) }, 'members: must have at most 1000 items'],
      [{ title: 'T', members: [outsider.user.id] }, `members: ${outsider.user.id} is not a member of the organization`],
      [{ title: 'T', members: ['nobody'] }, 'members: nobody is not a member of the organization']
    ]
    for (const [body, message] of cases) {
      const res = await t.owner.api.put(teams(), body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message })
    }
    expect((await t.owner.api.get(teams())).body.count).toBe(0)
    expect((await t.owner.api.put(teams(), { title: 'x'.repeat(64) })).status).toBe(201)
    expect((await t.owner.api.put(teams(), { title: 'y' })).status).toBe(201)
  })

  it('refuses non-admins (403)', async () => {
    for (const role of ['create', 'read', null] as const) {
      const u = await t.user({ role })
      expect((await u.api.put(teams(), { title: 'Mine' })).status, String(role)).toBe(403)
    }
    expect((await t.owner.api.get(teams())).body.count).toBe(0)
  })
})

describe('GET /teams', () => {
  it('lists teams in creation order with counts and the caller permissions, and walks pages', async () => {
    const m = await t.user({ role: 'edit' })
    const ids = []
    for (let i = 0; i < 5; i++) ids.push(await createTeam(t, `Team ${i}`, i % 2 ? [m] : []))
    const s1 = buildSpace(t)
    const s2 = buildSpace(t)
    const gone = buildSpace(t, { deleted: true })
    for (const s of [s1, s2, gone]) grant(t, s.id, 'team', ids[0]!, 'read')

    const res = await m.api.get(teams())
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(5)
    res.body.items.forEach(expectTeam)
    expect(res.body.items.map((x: any) => x.id)).toEqual(ids)
    expect(res.body.items.map((x: any) => x.members)).toEqual([0, 1, 0, 1, 0])
    expect(res.body.items[0]).toMatchObject({ spaces: 2, permissions: { admin: false, view: true } })

    const { items, pages } = await walk(m.api, teams(), { limit: 2 })
    expect(items.map((x) => x.id)).toEqual(ids)
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1])
    expect(pages.every((p) => p.count === 5)).toBe(true)
    expect(pages[2].next).toBeUndefined()
  })

  it('filters by owner and by title (case-insensitive substring)', async () => {
    const m = await t.user({ role: 'read' })
    const docs = await createTeam(t, 'Docs Writers', [m])
    const design = await createTeam(t, 'Design', [m])
    const ops = await createTeam(t, 'Ops')
    await t.owner.api.put(`${teams()}/${docs}/members/${m.user.id}`, { role: 'owner' })
    await t.owner.api.put(`${teams()}/${ops}/members/${m.user.id}`, { role: 'owner' })

    const owned = await m.api.get(teams(), { owner: m.user.id })
    expect(owned.body.items.map((x: any) => x.id)).toEqual([docs, ops])
    expect(owned.body.count).toBe(2)
    expect(owned.body.items.every((x: any) => x.permissions.admin)).toBe(true)
    expect((await m.api.get(teams(), { owner: t.owner.user.id })).body.count).toBe(0)
    expect((await m.api.get(teams(), { title: 'DE' })).body.items.map((x: any) => x.id)).toEqual([design])
    expect((await m.api.get(teams(), { title: 'writers' })).body.items.map((x: any) => x.id)).toEqual([docs])
    expect((await m.api.get(teams(), { title: 's', owner: m.user.id })).body.items.map((x: any) => x.id)).toEqual([docs, ops])
    expect((await m.api.get(teams(), { title: '%' })).body.count).toBe(0)
    const { items } = await walk(m.api, teams(), { title: 'S', limit: 1 })
    expect(items.map((x) => x.id)).toEqual([docs, design, ops])
  })

  it('validates the query', async () => {
    for (const [query, message] of [
      [{ title: 'x'.repeat(65) }, 'title: must be at most 64 characters'],
      [{ owner: 'x'.repeat(101) }, 'owner: must be at most 100 characters'],
      [{ limit: 1001 }, 'limit: must be at most 1000'],
      [{ limit: 0 }, 'limit: must be at least 1'],
      [{ page: 'bogus' }, 'page: ']
    ] as [Record<string, unknown>, string][]) {
      const res = await t.owner.api.get(teams(), query)
      expect(res.status, JSON.stringify(query)).toBe(400)
      expect(res.body.error.message).toContain(message)
    }
  })
})

describe('PATCH and DELETE /teams/{teamId}', () => {
  it('renames a team: admins and team owners yes, members and others no', async () => {
    const owner = await t.user({ role: 'read' })
    const plain = await t.user({ role: 'create' })
    const outside = await t.user({ role: 'admin' })
    const id = await createTeam(t, 'Old', [owner, plain])
    await t.owner.api.put(`${teams()}/${id}/members/${owner.user.id}`, { role: 'owner' })

    const res = await owner.api.patch(`${teams()}/${id}`, { title: 'By owner' })
    expect(res.status).toBe(200)
    expectTeam(res.body)
    expect(res.body).toMatchObject({ id, title: 'By owner', members: 2, permissions: { admin: true, view: true } })
    expect((await outside.api.patch(`${teams()}/${id}`, { title: 'By admin' })).body.title).toBe('By admin')
    const denied = await plain.api.patch(`${teams()}/${id}`, { title: 'By member' })
    expect(denied.status).toBe(403)
    const editor = await t.user({ role: 'edit' })
    expect((await editor.api.patch(`${teams()}/${id}`, { title: 'Nope' })).status).toBe(403)
    expect((await plain.api.get(`${teams()}/${id}`)).body.title).toBe('By admin')
  })

  it('validates the title', async () => {
    const id = await createTeam(t, 'Keep')
    for (const [body, message] of [
      [{}, 'title: is required'],
      [{ title: '' }, 'title: must be at least 1 characters'],
      [{ title: 'x'.repeat(65) }, 'title: must be at most 64 characters'],
      [{ title: null }, 'title: must be string']
    ] as [unknown, string][]) {
      const res = await t.owner.api.patch(`${teams()}/${id}`, body)
      expect(res.status).toBe(400)
      expect(res.body.error.message).toBe(message)
    }
    expect((await t.owner.api.get(`${teams()}/${id}`)).body.title).toBe('Keep')
  })

  it('deletes a team (org admins only) with its memberships and grants', async () => {
    const guest = await t.user({ role: null })
    const owner = await t.user({ role: 'edit' })
    const id = await createTeam(t, 'Doomed', [guest, owner])
    await t.owner.api.put(`${teams()}/${id}/members/${owner.user.id}`, { role: 'owner' })
    const space = buildSpace(t)
    grant(t, space.id, 'team', id, 'edit')
    const before = await t.owner.api.get(`/v1/orgs/${t.orgId}/members/${guest.user.id}/spaces`)
    expect(before.body.items.map((i: any) => [i.space.id, i.permission])).toEqual([[space.id, 'edit']])

    expect((await owner.api.delete(`${teams()}/${id}`)).status).toBe(403)
    expect((await guest.api.delete(`${teams()}/${id}`)).status).toBe(403)
    expect((await t.owner.api.get(`${teams()}/${id}`)).status).toBe(200)

    const res = await t.owner.api.delete(`${teams()}/${id}`)
    expect(res.status).toBe(204)
    expect(res.body).toBeUndefined()
    expect((await t.owner.api.get(`${teams()}/${id}`)).status).toBe(404)
    expect((await t.owner.api.get(teams())).body.count).toBe(0)
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/members/${guest.user.id}`)).body.teams).toBe(0)
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/members/${guest.user.id}/spaces`)).body.count).toBe(0)
    expect(countRows(t, 'SELECT count(*) FROM space_grants WHERE principal_id = ?', id)).toBe(0)
    expect((await t.owner.api.delete(`${teams()}/${id}`)).status).toBe(404)
  })
})
