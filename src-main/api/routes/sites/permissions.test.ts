import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { createTeam } from '../members/testFactories'
import { createSite, sitePath } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

describe('site access', () => {
  it('grants users and teams a role on one site, which raises their role there only', async () => {
    const site = await createSite(t)
    const other = await createSite(t)
    const perms = `${sitePath(t, site.id)}/permissions`
    const reader = await t.user({ role: 'read', name: 'Reader', email: 'reader@example.com' })
    const guest = await t.user({ role: null, name: 'Guest' })
    const team = await createTeam(t, 'Site team', [guest])
    // Before: a reader may not change the site, a guest does not see it.
    expect((await reader.api.patch(sitePath(t, site.id), { title: 'Mine' })).status).toBe(403)
    expect((await guest.api.get(sitePath(t, site.id))).status).toBe(403)

    expect((await t.owner.api.post(perms, { role: 'create', users: ['reader@example.com'] })).status).toBe(204)
    expect((await t.owner.api.patch(`${perms}/teams/${team}`, { role: 'read' })).status).toBe(204)
    expect((await reader.api.patch(sitePath(t, site.id), { title: 'Renamed' })).status).toBe(200)
    expect((await reader.api.patch(sitePath(t, other.id), { title: 'Mine' })).status).toBe(403)
    expect((await guest.api.get(sitePath(t, site.id))).status).toBe(200)
    expect((await guest.api.get(sitePath(t, other.id))).status).toBe(403)

    const users = await walk(t.owner.api, `${perms}/users`, { limit: 1 })
    expect(users.items).toEqual([{ permission: 'create', user: expect.objectContaining({ id: reader.user.id }) }])
    expect((await guest.api.get(`${perms}/teams`)).body).toMatchObject({ count: 1, items: [{ permission: 'read', team: { id: team } }] })

    expect((await t.owner.api.delete(`${perms}/users/${reader.user.id}`)).status).toBe(205)
    expect((await t.owner.api.delete(`${perms}/users/${reader.user.id}`)).status).toBe(204)
    expect((await reader.api.patch(sitePath(t, site.id), { title: 'Again' })).status).toBe(403)
    // Deleting the team takes its grants.
    expect((await t.owner.api.delete(`/v1/orgs/${t.orgId}/teams/${team}`)).status).toBe(204)
    expect((await guest.api.get(sitePath(t, site.id))).status).toBe(403)
  })

  it('removes a team grant (205, then 204): its members lose the role it gave them on that site', async () => {
    const site = await createSite(t)
    const perms = `${sitePath(t, site.id)}/permissions`
    const guest = await t.user({ role: null, name: 'Guest' })
    const team = await createTeam(t, 'Readers', [guest])
    expect((await t.owner.api.patch(`${perms}/teams/${team}`, { role: 'read' })).status).toBe(204)
    expect((await guest.api.get(sitePath(t, site.id))).status).toBe(200)
    expect((await t.owner.api.delete(`${perms}/teams/${team}`)).status).toBe(205)
    expect((await t.owner.api.delete(`${perms}/teams/${team}`)).status).toBe(204)
    expect((await t.owner.api.get(`${perms}/teams`)).body.count).toBe(0)
    expect((await guest.api.get(sitePath(t, site.id))).status).toBe(403)
  })

  it('lets site admins manage access, refuses others (403), validates (400), answers 404 and keeps the last admin grant (409)', async () => {
    const site = await createSite(t)
    const perms = `${sitePath(t, site.id)}/permissions`
    const creator = await t.user({ role: 'create' })
    const admin = await t.user({ role: 'read' })
    const outsider = await t.user({ role: 'none' })
    expect((await creator.api.patch(`${perms}/users/${creator.user.id}`, { role: 'admin' })).status).toBe(403)
    expect((await t.owner.api.patch(`${perms}/users/${admin.user.id}`, { role: 'admin' })).status).toBe(204)
    expect((await admin.api.patch(`${perms}/users/${creator.user.id}`, { role: 'edit' })).status).toBe(204)
    expect((await t.owner.api.patch(`${perms}/users/${creator.user.id}`, { role: 'owner' })).status).toBe(400)
    expect((await t.owner.api.patch(`${perms}/users/${outsider.user.id}`, { role: 'read' })).status).toBe(404)
    expect((await t.owner.api.patch(`${perms}/teams/nope`, { role: 'read' })).status).toBe(404)
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/sites/nope/permissions/users`)).status).toBe(404)
    expect((await outsider.api.get(`${perms}/users`)).status).toBe(404)
    const last = await admin.api.delete(`${perms}/users/${admin.user.id}`)
    expect(last.status).toBe(409)
    expect(last.body.error.message).toContain('userId: removing the last admin of this site')
    expect((await t.owner.api.get(`${perms}/users`)).body.count).toBe(2)
  })
})
