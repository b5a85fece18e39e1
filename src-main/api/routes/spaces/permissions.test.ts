import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { createTeam } from '../members/testFactories'
import { createCollection, grantCollection } from '../collections/fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

async function space(body: Record<string, unknown> = {}) {
  const res = await t.owner.api.post(`/v1/orgs/${t.orgId}/spaces`, { title: 'Guides', ...body })
  expect(res.status).toBe(201)
  return res.body.id as string
}
const perms = (id: string) => `/v1/spaces/${id}/permissions`
const roleOn = async (api: TestServer['owner']['api'], id: string) => (await api.get(`/v1/spaces/${id}`)).body.permissions

describe('users and teams granted a role', () => {
  it('lists direct grants by name and title, page by page, and PATCH sets a role that takes effect', async () => {
    const id = await space()
    const ann = await t.user({ role: 'read', name: 'Ann' })
    const bob = await t.user({ role: 'read', name: 'Bob' })
    const cid = await t.user({ role: null, name: 'Cid' })
    for (const u of [bob, cid, ann]) expect((await t.owner.api.patch(`${perms(id)}/users/${u.user.id}`, { role: 'edit' })).status).toBe(204)
    expect((await roleOn(bob.api, id)).edit).toBe(true)
    expect((await roleOn(cid.api, id)).edit).toBe(true)

    const { items, pages } = await walk(t.owner.api, `${perms(id)}/users`, { limit: 2 })
    expect(pages).toHaveLength(2)
    expect(pages[0].count).toBe(4)
    expect(items.map((i) => [i.user.displayName, i.permission])).toEqual([
      ['Ann', 'edit'],
      ['Bob', 'edit'],
      ['Cid', 'edit'],
      [t.owner.user.display_name, 'admin']
    ])
    expect(items[0]).toEqual({ permission: 'edit', user: expect.objectContaining({ object: 'user', id: ann.user.id }) })

    const writers = await createTeam(t, 'Writers', [ann])
    const readers = await createTeam(t, 'Readers')
    expect((await t.owner.api.patch(`${perms(id)}/teams/${writers}`, { role: 'review' })).status).toBe(204)
    expect((await t.owner.api.patch(`${perms(id)}/teams/${readers}`, { role: 'read' })).status).toBe(204)
    expect((await t.owner.api.patch(`${perms(id)}/teams/${readers}`, { role: 'comment' })).status).toBe(204)
    const teams = await walk(t.owner.api, `${perms(id)}/teams`, { limit: 1 })
    expect(teams.pages).toHaveLength(2)
    expect(teams.items.map((i) => [i.team.title, i.permission, i.team.spaces])).toEqual([
      ['Readers', 'comment', 1],
      ['Writers', 'review', 1]
    ])
    expect((await roleOn(ann.api, id)).review).toBe(true)
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/teams/${writers}`)).body.spaces).toBe(1)
  })

  it('DELETE removes a grant (205), answers 204 when there was none, and the role goes', async () => {
    const id = await space()
    const bob = await t.user({ role: 'read' })
    const team = await createTeam(t, 'Writers', [bob])
    await t.owner.api.patch(`${perms(id)}/users/${bob.user.id}`, { role: 'edit' })
    await t.owner.api.patch(`${perms(id)}/teams/${team}`, { role: 'edit' })
    expect((await t.owner.api.delete(`${perms(id)}/users/${bob.user.id}`)).status).toBe(205)
    expect((await roleOn(bob.api, id)).edit).toBe(true) // still through the team
    expect((await t.owner.api.delete(`${perms(id)}/teams/${team}`)).status).toBe(205)
    expect((await roleOn(bob.api, id)).edit).toBe(false)
    expect((await t.owner.api.delete(`${perms(id)}/users/${bob.user.id}`)).status).toBe(204)
    expect((await t.owner.api.delete(`${perms(id)}/teams/${team}`)).status).toBe(204)
    expect((await t.owner.api.get(`${perms(id)}/teams`)).body).toEqual({ items: [], count: 0 })
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/teams/${team}`)).body.spaces).toBe(0)
  })
})

describe('the aggregate', () => {
  it("lists everyone's effective role with its reasons, highest first, matching the access checks", async () => {
    const collection = await createCollection(t, { title: 'Handbooks' })
    const id = await space({ parent: collection.id })
    const reader = await t.user({ role: 'read', name: 'Reader' })
    const teamed = await t.user({ role: 'comment', name: 'Teamed' })
    const guest = await t.user({ role: null, name: 'Guest' })
    const stranger = await t.user({ role: null, name: 'Stranger' })
    const viaCollection = await t.user({ role: null, name: 'Inherits' })
    const team = await createTeam(t, 'Writers', [teamed])
    await t.owner.api.patch(`${perms(id)}/teams/${team}`, { role: 'edit' })
    await t.owner.api.patch(`${perms(id)}/users/${guest.user.id}`, { role: 'comment' })
    grantCollection(t, collection.id, { user: viaCollection.user.id }, 'review')

    const { items } = await walk(t.owner.api, `${perms(id)}/aggregate`, { limit: 2 })
    const byName = Object.fromEntries(items.map((i) => [i.user.displayName, i]))
    expect(Object.keys(byName).sort()).toEqual([t.owner.user.display_name, 'Guest', 'Inherits', 'Reader', 'Teamed'].sort())
    expect(byName.Stranger).toBeUndefined()
    expect(byName[t.owner.user.display_name].sources).toEqual([
      { type: 'organization', role: 'admin' },
      { type: 'direct', role: 'admin' },
      { type: 'collection', role: 'admin', collection: { id: collection.id, title: 'Handbooks' } }
    ])
    expect(byName.Reader).toMatchObject({ permission: 'read', sources: [{ type: 'organization', role: 'read' }] })
    expect(byName.Teamed).toMatchObject({
      permission: 'edit',
      sources: [
        { type: 'team', role: 'edit', team: { id: team, title: 'Writers' } },
        { type: 'organization', role: 'comment' }
      ]
    })
    expect(byName.Guest).toMatchObject({ permission: 'comment', sources: [{ type: 'direct', role: 'comment' }] })
    expect(byName.Inherits).toMatchObject({
      permission: 'review',
      sources: [{ type: 'collection', role: 'review', collection: { id: collection.id, title: 'Handbooks' } }]
    })
    // The reasons' highest is the role, and the role is what the user gets.
    const clients = { Reader: reader, Teamed: teamed, Guest: guest, Inherits: viaCollection }
    for (const item of items) {
      expect(item.sources[0].role).toBe(item.permission)
      const client = clients[item.user.displayName as keyof typeof clients]
      if (client) expect((await client.api.get(`/v1/spaces/${id}`)).status).toBe(200)
    }
    expect((await roleOn(teamed.api, id)).edit).toBe(true)
    expect((await stranger.api.get(`/v1/spaces/${id}`)).status).toBe(404)

    const filtered = await t.owner.api.get(`${perms(id)}/aggregate`, { role: 'comment' })
    expect(filtered.body.count).toBe(1)
    expect(filtered.body.items.map((i: any) => i.user.displayName)).toEqual(['Guest'])
  })

  it('shows general access and the collection general access for members', async () => {
    const collection = await createCollection(t, { title: 'Open' })
    expect((await t.owner.api.patch(`/v1/collections/${collection.id}`, { defaultLevel: 'comment' })).status).toBe(200)
    const id = await space({ parent: collection.id })
    await t.owner.api.patch(`/v1/spaces/${id}`, { defaultLevel: 'edit' })
    const reader = await t.user({ role: 'read', name: 'Reader' })
    const { items } = await walk(t.owner.api, `${perms(id)}/aggregate`)
    const item = items.find((i) => i.user.id === reader.user.id)
    expect(item).toMatchObject({
      permission: 'edit',
      sources: [
        { type: 'general', role: 'edit' },
        { type: 'collection-general', role: 'comment', collection: { id: collection.id } },
        { type: 'organization', role: 'read' }
      ]
    })
    expect((await roleOn(reader.api, id)).edit).toBe(true)
  })
})

describe('rules', () => {
  it('keeps the last admin path: demoting or removing it answers 409 and changes nothing', async () => {
    const id = await space()
    const owner = t.owner.user.id
    const demote = await t.owner.api.patch(`${perms(id)}/users/${owner}`, { role: 'edit' })
    expect(demote.status).toBe(409)
    expect(demote.body.error.message).toBe(
      'role: demoting the last admin of this space is not allowed; give another member or team the admin role first'
    )
    const remove = await t.owner.api.delete(`${perms(id)}/users/${owner}`)
    expect(remove.status).toBe(409)
    expect(remove.body.error.message).toContain('userId: removing the last admin of this space')
    const invite = await t.owner.api.post(perms(id), { role: null, users: [owner] })
    expect(invite.status).toBe(409)
    expect(invite.body.error.message).toContain('users.0: removing the last admin')
    expect((await t.owner.api.get(`${perms(id)}/users`)).body.items).toEqual([
      { permission: 'admin', user: expect.objectContaining({ id: owner }) }
    ])

    // A team with a member holding admin is another path; an empty team is none.
    const empty = await createTeam(t, 'Empty')
    await t.owner.api.patch(`${perms(id)}/teams/${empty}`, { role: 'admin' })
    expect((await t.owner.api.delete(`${perms(id)}/users/${owner}`)).status).toBe(409)
    const admin = await t.user({ role: 'read' })
    const admins = await createTeam(t, 'Admins', [admin])
    await t.owner.api.patch(`${perms(id)}/teams/${admins}`, { role: 'admin' })
    expect((await t.owner.api.delete(`${perms(id)}/users/${owner}`)).status).toBe(205)
    expect((await roleOn(admin.api, id)).admin).toBe(true)
    expect((await t.owner.api.patch(`${perms(id)}/teams/${admins}`, { role: 'read' })).status).toBe(409)
  })

  it('a collection above that gives admin is a path too', async () => {
    const collection = await createCollection(t, { title: 'Team' })
    const id = await space({ parent: collection.id })
    // The collection's creator holds admin on it.
    expect((await t.owner.api.delete(`${perms(id)}/users/${t.owner.user.id}`)).status).toBe(205)
  })

  it('validates roles (400), refuses non-admins (403) and guests the lists (403), and answers 404 for unknown ids', async () => {
    const id = await space()
    const reader = await t.user({ role: 'read' })
    const guest = await t.user({ role: null })
    const outsider = await t.user({ role: 'none' })
    await t.owner.api.patch(`${perms(id)}/users/${guest.user.id}`, { role: 'read' })
    const team = await createTeam(t, 'Writers')

    for (const body of [{}, { role: 'owner' }, { role: null }]) {
      const res = await t.owner.api.patch(`${perms(id)}/users/${reader.user.id}`, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.message).toMatch(/^role: /)
    }
    expect((await t.owner.api.get(`${perms(id)}/aggregate`, { role: 'owner' })).status).toBe(400)
    expect((await t.owner.api.get(`${perms(id)}/users`, { page: 'nope' })).body.error.message).toBe('page: invalid cursor')

    const forbidden = [
      reader.api.patch(`${perms(id)}/users/${reader.user.id}`, { role: 'admin' }),
      reader.api.delete(`${perms(id)}/users/${t.owner.user.id}`),
      reader.api.patch(`${perms(id)}/teams/${team}`, { role: 'admin' }),
      reader.api.delete(`${perms(id)}/teams/${team}`),
      reader.api.post(perms(id), { role: 'admin', users: [reader.user.id] }),
      guest.api.get(`${perms(id)}/users`),
      guest.api.get(`${perms(id)}/teams`),
      guest.api.get(`${perms(id)}/aggregate`)
    ]
    for (const res of await Promise.all(forbidden)) expect(res.status).toBe(403)
    expect((await reader.api.get(`${perms(id)}/aggregate`)).status).toBe(200)

    const notFound = [
      t.owner.api.get('/v1/spaces/nope/permissions/users'),
      t.owner.api.get('/v1/spaces/nope/permissions/teams'),
      t.owner.api.get('/v1/spaces/nope/permissions/aggregate'),
      t.owner.api.patch('/v1/spaces/nope/permissions/users/x', { role: 'read' }),
      t.owner.api.patch(`${perms(id)}/users/nope`, { role: 'read' }),
      t.owner.api.patch(`${perms(id)}/users/${outsider.user.id}`, { role: 'read' }),
      t.owner.api.delete(`${perms(id)}/users/nope`),
      t.owner.api.patch(`${perms(id)}/teams/nope`, { role: 'read' }),
      t.owner.api.delete(`${perms(id)}/teams/nope`),
      outsider.api.get(`${perms(id)}/users`)
    ]
    for (const res of await Promise.all(notFound)) expect(res.status).toBe(404)
    expect((await t.owner.api.get(`${perms(id)}/users`)).body.count).toBe(2)
  })
})

describe("a team's spaces", () => {
  it('lists the live spaces granted to a team with its role, page by page; 404 for an unknown team', async () => {
    const a = await space({ title: 'Alpha' })
    const b = await space({ title: 'Beta' })
    const gone = await space({ title: 'Gone' })
    const member = await t.user({ role: null })
    const team = await createTeam(t, 'Writers', [member])
    for (const [id, role] of [
      [b, 'edit'],
      [a, 'read'],
      [gone, 'admin']
    ] as const)
      await t.owner.api.patch(`${perms(id)}/teams/${team}`, { role })
    expect((await t.owner.api.delete(`/v1/spaces/${gone}`)).status).toBeLessThan(300)
    const { items, pages } = await walk(member.api, `/v1/orgs/${t.orgId}/teams/${team}/spaces`, { limit: 1 })
    expect(pages).toHaveLength(2)
    expect(pages[0].count).toBe(2)
    expect(items).toEqual([
      { permission: 'read', space: { id: a, title: 'Alpha' } },
      { permission: 'edit', space: { id: b, title: 'Beta' } }
    ])
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/teams/nope/spaces`)).status).toBe(404)
    expect((await (await t.user({ role: null })).api.get(`/v1/orgs/${t.orgId}/teams/${team}/spaces`)).status).toBe(404)
  })
})
