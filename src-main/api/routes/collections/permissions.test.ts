import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { createTeam } from '../members/testFactories'
import { createCollection, createSpace } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const perms = (id: string) => `/v1/collections/${id}/permissions`

describe('collection access', () => {
  it('invites users and teams, lists them page by page, and the role reaches the spaces inside', async () => {
    const c = await createCollection(t, { title: 'Handbooks' })
    const inside = await createSpace(t, { parent: c.id })
    const guest = await t.user({ role: null, name: 'Guest', email: 'guest@example.com' })
    const member = await t.user({ role: 'read', name: 'Member' })
    const team = await createTeam(t, 'Writers', [member])
    expect((await t.owner.api.post(perms(c.id), { role: 'edit', users: ['guest@example.com'], teams: [team] })).status).toBe(204)

    const users = await walk(t.owner.api, `${perms(c.id)}/users`, { limit: 1 })
    expect(users.pages).toHaveLength(2)
    expect(users.items.map((i) => [i.user.displayName, i.permission])).toEqual([
      ['Guest', 'edit'],
      [t.owner.user.display_name, 'admin']
    ])
    expect((await t.owner.api.get(`${perms(c.id)}/teams`)).body).toMatchObject({
      count: 1,
      items: [{ permission: 'edit', team: { id: team, title: 'Writers' } }]
    })
    expect((await guest.api.get(`/v1/spaces/${inside.id}`)).body.permissions.edit).toBe(true)
    expect((await member.api.get(`/v1/collections/${c.id}`)).body.permissions).toMatchObject({ view: true, admin: false })

    expect((await t.owner.api.patch(`${perms(c.id)}/users/${guest.user.id}`, { role: 'read' })).status).toBe(204)
    expect((await guest.api.get(`/v1/spaces/${inside.id}`)).body.permissions.edit).toBe(false)
    expect((await t.owner.api.delete(`${perms(c.id)}/users/${guest.user.id}`)).status).toBe(205)
    expect((await guest.api.get(`/v1/spaces/${inside.id}`)).status).toBe(404)
    // A team's role changes like a user's: the team's members get the new one on the spaces inside.
    expect((await member.api.get(`/v1/spaces/${inside.id}`)).body.permissions.edit).toBe(true)
    expect((await t.owner.api.patch(`${perms(c.id)}/teams/${team}`, { role: 'comment' })).status).toBe(204)
    expect((await t.owner.api.get(`${perms(c.id)}/teams`)).body.items).toMatchObject([{ permission: 'comment', team: { id: team } }])
    expect((await member.api.get(`/v1/spaces/${inside.id}`)).body.permissions).toMatchObject({ comment: true, edit: false })
    expect((await t.owner.api.delete(`${perms(c.id)}/teams/${team}`)).status).toBe(205)
    expect((await t.owner.api.delete(`${perms(c.id)}/teams/${team}`)).status).toBe(204)
    expect((await t.owner.api.get(`${perms(c.id)}/teams`)).body.count).toBe(0)
  })

  it("aggregates everyone's role on the collection with its reasons, including the collections above", async () => {
    const parent = await createCollection(t, { title: 'Parent' })
    const child = await createCollection(t, { title: 'Child', parent: parent.id })
    const guest = await t.user({ role: null, name: 'Guest' })
    const member = await t.user({ role: 'read', name: 'Member' })
    await t.owner.api.patch(`${perms(parent.id)}/users/${guest.user.id}`, { role: 'comment' })
    await t.owner.api.patch(`${perms(child.id)}/users/${member.user.id}`, { role: 'create' })
    const { items } = await walk(t.owner.api, `${perms(child.id)}/aggregate`, { limit: 1 })
    const byName = Object.fromEntries(items.map((i) => [i.user.displayName, i]))
    expect(byName.Guest).toMatchObject({
      permission: 'comment',
      sources: [{ type: 'collection', role: 'comment', collection: { id: parent.id, title: 'Parent' } }]
    })
    expect(byName.Member).toMatchObject({
      permission: 'create',
      sources: [
        { type: 'direct', role: 'create' },
        { type: 'organization', role: 'read' }
      ]
    })
    for (const item of items) expect(item.sources[0].role).toBe(item.permission)
    expect((await member.api.get(`/v1/collections/${child.id}`)).body.permissions.create).toBe(true)
  })

  it('keeps the last admin (409), validates (400), refuses non-admins (403) and answers 404 for unknown ids', async () => {
    const c = await createCollection(t)
    const reader = await t.user({ role: 'read' })
    const outsider = await t.user({ role: 'none' })
    const removed = await t.owner.api.delete(`${perms(c.id)}/users/${t.owner.user.id}`)
    expect(removed.status).toBe(409)
    expect(removed.body.error.message).toBe(
      'userId: removing the last admin of this collection is not allowed; give another member or team the admin role first'
    )
    expect((await t.owner.api.patch(`${perms(c.id)}/users/${reader.user.id}`, { role: 'boss' })).status).toBe(400)
    expect((await t.owner.api.post(perms(c.id), { role: 'edit', users: [outsider.user.id] })).body.error.message).toContain('users.0:')
    for (const res of await Promise.all([
      reader.api.patch(`${perms(c.id)}/users/${reader.user.id}`, { role: 'admin' }),
      reader.api.post(perms(c.id), { role: 'admin', users: [reader.user.id] }),
      reader.api.delete(`${perms(c.id)}/users/${t.owner.user.id}`)
    ]))
      expect(res.status).toBe(403)
    for (const res of await Promise.all([
      t.owner.api.get('/v1/collections/nope/permissions/users'),
      t.owner.api.get('/v1/collections/nope/permissions/aggregate'),
      t.owner.api.post('/v1/collections/nope/permissions', { role: 'read', users: [reader.user.id] }),
      t.owner.api.patch(`${perms(c.id)}/teams/nope`, { role: 'read' }),
      t.owner.api.patch(`${perms(c.id)}/users/${outsider.user.id}`, { role: 'read' }),
      outsider.api.get(`${perms(c.id)}/teams`)
    ]))
      expect(res.status).toBe(404)
    expect((await t.owner.api.get(`${perms(c.id)}/users`)).body.count).toBe(1)
  })
})
