import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer, type TestUser } from '../../../testing/harness'
import { createOrg, createTeam } from '../members/testFactories'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const team = (id: string) => `/v1/orgs/${t.orgId}/teams/${id}`

/** The team's members as [userId, team role], in list order. */
async function roster(id: string): Promise<[string, string][]> {
  const { items } = await walk(t.owner.api, `${team(id)}/members`)
  return items.map((i) => [i.organization.id, i.team.role])
}

async function withOwner(title: string, others: TestUser[] = []) {
  const owner = await t.user({ role: 'read' })
  const id = await createTeam(t, title, [owner, ...others])
  await t.owner.api.put(`${team(id)}/members/${owner.user.id}`, { role: 'owner' })
  return { id, owner }
}

describe('GET /teams/{teamId}/members', () => {
  it('lists members with their Member, team role and view permission; walks pages', async () => {
    const guest = await t.user({ role: null })
    const others = [await t.user({ role: 'edit' }), await t.user({ role: 'comment' }), guest]
    const { id, owner } = await withOwner('Crew', others)
    const res = await owner.api.get(`${team(id)}/members`)
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(4)
    expect(res.body.items[0]).toEqual({
      organization: expect.objectContaining({
        object: 'member',
        id: owner.user.id,
        role: 'read',
        teams: 1,
        spaces: 0,
        user: expect.objectContaining({ id: owner.user.id })
      }),
      team: { role: 'owner' },
      permissions: { view: true }
    })
    expect(res.body.items.map((i: any) => i.organization.id)).toEqual([owner.user.id, ...others.map((o) => o.user.id)])

    const { items, pages } = await walk(owner.api, `${team(id)}/members`, { limit: 3 })
    expect(items).toHaveLength(4)
    expect(pages.map((p) => [p.items.length, p.count])).toEqual([
      [3, 4],
      [1, 4]
    ])
    expect(pages[1].next).toBeUndefined()

    // A guest in the team sees it, and only themselves as viewable.
    const asGuest = await guest.api.get(`${team(id)}/members`)
    expect(asGuest.status).toBe(200)
    expect(asGuest.body.items.map((i: any) => i.permissions.view)).toEqual([false, false, false, true])
  })

  it('answers 401, 404 for non-members, guests outside the team and unknown teams; validates the query', async () => {
    const id = await createTeam(t, 'Crew')
    const guest = await t.user({ role: null })
    const outsider = await t.user({ role: 'none' })
    expect((await t.anonymous.get(`${team(id)}/members`)).status).toBe(401)
    expect((await outsider.api.get(`${team(id)}/members`)).status).toBe(404)
    expect((await guest.api.get(`${team(id)}/members`)).status).toBe(404)
    expect((await t.owner.api.get(`${team('unknown')}/members`)).status).toBe(404)
    expect((await t.owner.api.get(`${team(id)}/members`, { limit: 1001 })).body.error.message).toBe('limit: must be at most 1000')
    expect((await t.owner.api.get(`${team(id)}/members`, { page: '!!' })).status).toBe(400)
  })
})

describe('PUT /teams/{teamId}/members (bulk)', () => {
  it('adds by user id or e-mail, removes, and sets roles through memberships', async () => {
    const [a, b, c, d] = [
      await t.user({ email: 'a@example.com' }),
      await t.user({ email: 'b@example.com' }),
      await t.user(),
      await t.user()
    ]
    const id = await createTeam(t, 'Crew', [d!])
    const res = await t.owner.api.put(`${team(id)}/members`, {
      add: [a!.user.id, 'B@Example.com', c!.user.id],
      remove: [d!.user.id],
      memberships: { [c!.user.id]: { role: 'owner' } }
    })
    expect(res.status).toBe(204)
    expect(res.body).toBeUndefined()
    expect(await roster(id)).toEqual([
      [a!.user.id, 'member'],
      [b!.user.id, 'member'],
      [c!.user.id, 'owner']
    ])
    // Promoting an existing member, and adding one listed only in memberships.
    await t.owner.api.put(`${team(id)}/members`, { memberships: { 'a@example.com': { role: 'owner' }, [d!.user.id]: { role: 'member' } } })
    expect(await roster(id)).toEqual([
      [a!.user.id, 'owner'],
      [b!.user.id, 'member'],
      [c!.user.id, 'owner'],
      [d!.user.id, 'member']
    ])
    // Adding an existing member keeps their role; someone in both lists is removed.
    await t.owner.api.put(`${team(id)}/members`, { add: [a!.user.id, b!.user.id], remove: ['b@example.com'] })
    expect(await roster(id)).toEqual([
      [a!.user.id, 'owner'],
      [c!.user.id, 'owner'],
      [d!.user.id, 'member']
    ])
    expect((await t.owner.api.get(team(id))).body.members).toBe(3)
  })

  it('refuses unknown users (400 naming them) and invalid bodies, changing nothing', async () => {
    const a = await t.user()
    const outsider = await t.user({ role: 'none', email: 'out@example.com' })
    const id = await createTeam(t, 'Crew')
    const cases: [unknown, string][] = [
      [{ add: [a.user.id, 'ghost'] }, 'add: ghost is not a member of the organization'],
      [{ add: [a.user.id], remove: ['out@example.com'] }, 'remove: out@example.com is not a member of the organization'],
      [
        { add: [a.user.id], memberships: { [outsider.user.id]: { role: 'owner' } } },
        `memberships: ${outsider.user.id} is not a member of the organization`
      ],
      [{ add: [a.user.id], memberships: { [a.user.id]: { role: 'boss' } } }, 'must be one of: owner, member'],
      [{ add: [a.user.id], memberships: { [a.user.id]: {} } }, 'role: is required'],
      [{ add: 'everyone' }, 'add: must be array'],
      [{ remove: [3] }, 'remove.0: must be string'],
      [{ memberships: [] }, 'memberships: must be object'],
      [{ add: [''] }, 'add.0: must be at least 1 characters'],
      [{ add: Array.from({ length: 1001 }, (_, i) => `u${i}`) }, 'add: must have at most 1000 items']
    ]
    for (const [body, message] of cases) {
      const res = await t.owner.api.put(`${team(id)}/members`, body)
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(res.body.error.message).toContain(message)
    }
    expect(await roster(id)).toEqual([])
  })

  it('lets team owners manage members; refuses plain team members and other members (403), hides from guests (404)', async () => {
    const plain = await t.user({ role: 'edit' })
    const newcomer = await t.user()
    const { id, owner } = await withOwner('Crew', [plain])
    expect((await owner.api.put(`${team(id)}/members`, { add: [newcomer.user.id] })).status).toBe(204)
    expect((await plain.api.put(`${team(id)}/members`, { remove: [newcomer.user.id] })).status).toBe(403)
    expect((await (await t.user({ role: 'create' })).api.put(`${team(id)}/members`, { remove: [newcomer.user.id] })).status).toBe(403)
    expect((await (await t.user({ role: null })).api.put(`${team(id)}/members`, { remove: [newcomer.user.id] })).status).toBe(404)
    expect((await t.anonymous.put(`${team(id)}/members`, { add: [] })).status).toBe(401)
    expect((await t.owner.api.put(`${team('unknown')}/members`, { add: [] })).status).toBe(404)
    expect((await roster(id)).map(([uid]) => uid)).toContain(newcomer.user.id)
  })
})

describe('PUT and DELETE /teams/{teamId}/members/{userId}', () => {
  it('adds a member (default role member), sets a role, and keeps the role when none is sent', async () => {
    const m = await t.user({ role: null })
    const id = await createTeam(t, 'Crew')
    const add = await t.owner.api.put(`${team(id)}/members/${m.user.id}`)
    expect(add.status).toBe(204)
    expect(add.body).toBeUndefined()
    expect(await roster(id)).toEqual([[m.user.id, 'member']])
    await t.owner.api.put(`${team(id)}/members/${m.user.id}`, { role: 'owner' })
    expect(await roster(id)).toEqual([[m.user.id, 'owner']])
    await t.owner.api.put(`${team(id)}/members/${m.user.id}`, {})
    expect(await roster(id)).toEqual([[m.user.id, 'owner']])
    await t.owner.api.put(`${team(id)}/members/${m.user.id}`, { role: 'member' })
    expect(await roster(id)).toEqual([[m.user.id, 'member']])
    // The guest, now in the team, sees it.
    expect((await m.api.get(team(id))).status).toBe(200)
  })

  it('accepts a request without any body (every field is optional)', async () => {
    const m = await t.user()
    const id = await createTeam(t, 'Crew')
    const headers = { authorization: `Bearer ${t.owner.token}` }
    expect((await fetch(`${t.url}${team(id)}/members/${m.user.id}`, { method: 'PUT', headers })).status).toBe(204)
    expect((await fetch(`${t.url}${team(id)}/members`, { method: 'PUT', headers })).status).toBe(204)
    expect(await roster(id)).toEqual([[m.user.id, 'member']])
  })

  it('validates, and answers 404 for users outside the organization, 403 for non-managers', async () => {
    const m = await t.user()
    const outsider = await t.user({ role: 'none' })
    const { id, owner } = await withOwner('Crew')
    const bad = await t.owner.api.put(`${team(id)}/members/${m.user.id}`, { role: 'admin' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toBe('role: must be one of: owner, member')
    expect((await t.owner.api.put(`${team(id)}/members/${outsider.user.id}`, {})).status).toBe(404)
    expect((await t.owner.api.put(`${team(id)}/members/unknown`, {})).status).toBe(404)
    expect((await m.api.put(`${team(id)}/members/${m.user.id}`, {})).status).toBe(403)
    expect((await t.anonymous.put(`${team(id)}/members/${m.user.id}`, {})).status).toBe(401)
    expect((await owner.api.put(`${team(id)}/members/${m.user.id}`, { role: 'owner' })).status).toBe(204)
    expect(await roster(id)).toEqual([
      [owner.user.id, 'owner'],
      [m.user.id, 'owner']
    ])
  })

  it('removes a member: managers for anyone, members for themselves', async () => {
    const a = await t.user()
    const b = await t.user()
    const { id, owner } = await withOwner('Crew', [a, b])
    expect((await a.api.delete(`${team(id)}/members/${b.user.id}`)).status).toBe(403)
    expect((await t.anonymous.delete(`${team(id)}/members/${b.user.id}`)).status).toBe(401)
    expect(await roster(id)).toHaveLength(3)
    const res = await a.api.delete(`${team(id)}/members/${a.user.id}`)
    expect(res.status).toBe(204)
    expect(res.body).toBeUndefined()
    expect((await owner.api.delete(`${team(id)}/members/${b.user.id}`)).status).toBe(204)
    expect(await roster(id)).toEqual([[owner.user.id, 'owner']])
    expect((await owner.api.delete(`${team(id)}/members/${b.user.id}`)).status).toBe(404)
    expect((await t.owner.api.delete(`${team('unknown')}/members/${b.user.id}`)).status).toBe(404)
    const other = await createOrg(t)
    expect((await t.owner.api.delete(`/v1/orgs/${other}/teams/${id}/members/${owner.user.id}`)).status).toBe(404)
    expect(await roster(id)).toHaveLength(1)
  })
})
