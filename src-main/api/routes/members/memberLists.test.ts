import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { buildSpace, createOrg, createTeam, grant } from './testFactories'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const member = (userId: string) => `/v1/orgs/${t.orgId}/members/${userId}`

describe('GET /members/{userId}/spaces', () => {
  it('answers 401, 404 for non-members and unknown members, 403 for other members than admins and self', async () => {
    const guest = await t.user({ role: null })
    const reader = await t.user({ role: 'read' })
    const outsider = await t.user({ role: 'none' })
    expect((await t.anonymous.get(`${member(guest.user.id)}/spaces`)).status).toBe(401)
    expect((await outsider.api.get(`${member(guest.user.id)}/spaces`)).status).toBe(404)
    expect((await t.owner.api.get(`${member('unknown')}/spaces`)).status).toBe(404)
    expect((await t.owner.api.get(`${member(outsider.user.id)}/spaces`)).status).toBe(404)
    expect((await guest.api.get(`${member(reader.user.id)}/spaces`)).status).toBe(404)
    const denied = await reader.api.get(`${member(guest.user.id)}/spaces`)
    expect(denied.status).toBe(403)
    expect(denied.body.error.code).toBe(403)
    expect((await reader.api.get(`${member(reader.user.id)}/spaces`)).status).toBe(200)
    expect((await guest.api.get(`${member(guest.user.id)}/spaces`)).status).toBe(200)
  })

  it("lists a guest's spaces with their effective role: direct and team grants, live spaces only", async () => {
    const guest = await t.user({ role: null })
    const direct = buildSpace(t, { title: 'Direct' })
    const viaTeam = buildSpace(t, { title: 'Via team' })
    buildSpace(t, { title: 'Hidden', defaultLevel: 'edit' })
    const deleted = buildSpace(t, { title: 'Deleted', deleted: true })
    const both = buildSpace(t, { title: 'Both' })
    grant(t, direct.id, 'user', guest.user.id, 'edit')
    grant(t, deleted.id, 'user', guest.user.id, 'admin')
    const team = await createTeam(t, 'Readers', [guest])
    grant(t, viaTeam.id, 'team', team, 'comment')
    grant(t, both.id, 'team', team, 'read')
    grant(t, both.id, 'user', guest.user.id, 'review')

    const res = await t.owner.api.get(`${member(guest.user.id)}/spaces`)
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(3)
    expect(res.body.next).toBeUndefined()
    // Newest first by default.
    expect(res.body.items.map((i: any) => [i.space.title, i.permission])).toEqual([
      ['Both', 'review'],
      ['Via team', 'comment'],
      ['Direct', 'edit']
    ])
    expect(res.body.items[0].space).toMatchObject({ object: 'space', id: both.id, organization: t.orgId, permissions: { admin: true } })
    const asc = await t.owner.api.get(`${member(guest.user.id)}/spaces`, { order: 'asc' })
    expect(asc.body.items.map((i: any) => i.space.title)).toEqual(['Direct', 'Via team', 'Both'])
    // The guest sees the same list, with the Space permissions of their own role.
    const own = await guest.api.get(`${member(guest.user.id)}/spaces`)
    expect(own.body.items.map((i: any) => [i.space.id, i.space.permissions.edit])).toEqual([
      [both.id, true],
      [viaTeam.id, false],
      [direct.id, true]
    ])
  })

  it("gives a non-guest member every live space, at the highest of their role, the space's level and grants", async () => {
    const editor = await t.user({ role: 'edit' })
    const plain = buildSpace(t)
    const open = buildSpace(t, { defaultLevel: 'review' })
    const granted = buildSpace(t)
    grant(t, granted.id, 'user', editor.user.id, 'admin')
    buildSpace(t, { orgId: await createOrg(t) })
    const res = await t.owner.api.get(`${member(editor.user.id)}/spaces`, { order: 'asc' })
    expect(res.body.count).toBe(3)
    expect(res.body.items.map((i: any) => [i.space.id, i.permission])).toEqual([
      [plain.id, 'edit'],
      [open.id, 'review'],
      [granted.id, 'admin']
    ])
  })

  it('walks sparse grants among many spaces: each item once, true count, no next on the last page', async () => {
    const guest = await t.user({ role: null })
    const expected: string[] = []
    for (let i = 0; i < 23; i++) {
      const s = buildSpace(t, { title: `S${i}` })
      if (i % 4 === 1) {
        grant(t, s.id, 'user', guest.user.id, 'read')
        expected.push(s.id)
      }
    }
    for (const order of ['asc', 'desc']) {
      const { items, pages } = await walk(t.owner.api, `${member(guest.user.id)}/spaces`, { limit: 2, order })
      expect(items.map((i) => i.space.id)).toEqual(order === 'asc' ? expected : [...expected].reverse())
      expect(pages.every((p) => p.count === expected.length)).toBe(true)
      expect(pages).toHaveLength(Math.ceil(expected.length / 2))
      expect(pages.at(-1).next).toBeUndefined()
    }
    const admin = await walk(t.owner.api, `${member(t.owner.user.id)}/spaces`, { limit: 7 })
    expect(admin.items).toHaveLength(23)
    expect(admin.pages.map((p) => p.items.length)).toEqual([7, 7, 7, 2])
  })

  it('validates the query', async () => {
    for (const [query, message] of [
      [{ order: 'sideways' }, 'order: must be one of: asc, desc'],
      [{ limit: 1001 }, 'limit: must be at most 1000'],
      [{ limit: 0 }, 'limit: must be at least 1'],
      [{ page: 'x' }, 'page: ']
    ] as [Record<string, unknown>, string][]) {
      const res = await t.owner.api.get(`${member(t.owner.user.id)}/spaces`, query)
      expect(res.status).toBe(400)
      expect(res.body.error.message).toContain(message)
    }
  })
})

describe('GET /members/{userId}/teams', () => {
  it('lists the teams of a member with their team role, filtered by title', async () => {
    const m = await t.user({ role: 'read' })
    const alpha = await createTeam(t, 'Alpha Écrivains', [m])
    const beta = await createTeam(t, 'Beta', [])
    await createTeam(t, 'Gamma', [m])
    await t.owner.api.put(`/v1/orgs/${t.orgId}/teams/${beta}/members/${m.user.id}`, { role: 'owner' })
    await createTeam(t, 'Not theirs')
    await createTeam(t, 'Alpha elsewhere', [], await createOrg(t))

    const res = await t.owner.api.get(`${member(m.user.id)}/teams`)
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(3)
    expect(res.body.items.map((i: any) => [i.team.title, i.member.role])).toEqual([
      ['Alpha Écrivains', 'member'],
      ['Beta', 'owner'],
      ['Gamma', 'member']
    ])
    expect(res.body.items[0].team).toMatchObject({
      object: 'team',
      id: alpha,
      members: 1,
      spaces: 0,
      createdAt: expect.any(String),
      permissions: { admin: true, view: true }
    })

    const filtered = await m.api.get(`${member(m.user.id)}/teams`, { title: 'écRIV' })
    expect(filtered.body.items.map((i: any) => i.team.id)).toEqual([alpha])
    expect(filtered.body.items[0].team.permissions).toEqual({ admin: false, view: true })
    expect((await m.api.get(`${member(m.user.id)}/teams`, { title: 'zzz' })).body).toEqual({ count: 0, items: [] })

    const { items, pages } = await walk(m.api, `${member(m.user.id)}/teams`, { limit: 2 })
    expect(items).toHaveLength(3)
    expect(pages.map((p) => p.count)).toEqual([3, 3])
    expect(pages[1].next).toBeUndefined()
  })

  it('is visible to non-guest members and to the member themself; 404 otherwise', async () => {
    const guest = await t.user({ role: null })
    const reader = await t.user({ role: 'read' })
    const outsider = await t.user({ role: 'none' })
    expect((await t.anonymous.get(`${member(reader.user.id)}/teams`)).status).toBe(401)
    expect((await reader.api.get(`${member(guest.user.id)}/teams`)).status).toBe(200)
    expect((await guest.api.get(`${member(guest.user.id)}/teams`)).status).toBe(200)
    expect((await guest.api.get(`${member(reader.user.id)}/teams`)).status).toBe(404)
    expect((await outsider.api.get(`${member(reader.user.id)}/teams`)).status).toBe(404)
    expect((await t.owner.api.get(`${member('unknown')}/teams`)).status).toBe(404)
    const bad = await t.owner.api.get(`${member(reader.user.id)}/teams`, { title: 'x'.repeat(65) })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toBe('title: must be at most 64 characters')
    expect((await t.owner.api.get(`${member(reader.user.id)}/teams`, { limit: 1001 })).body.error.message).toBe(
      'limit: must be at most 1000'
    )
    expect((await t.owner.api.get(`${member(reader.user.id)}/teams`, { page: 'zz' })).status).toBe(400)
  })
})
