import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DAY_MS } from '../../../base/clock'
import { loadPages } from '../../../content/revisions'
import { purgeExpiredSpaces } from '../../../workspace/workspace'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const create = (body: Record<string, unknown> = {}, api = t.owner.api) =>
  api.post(`/v1/orgs/${t.orgId}/spaces`, { title: 'Guides', ...body })

function expectSpace(space: any) {
  expect(space).toMatchObject({
    object: 'space',
    id: expect.any(String),
    title: expect.any(String),
    emoji: expect.any(String),
    visibility: expect.stringMatching(/^(public|unlisted|share-link|visitor-auth|in-collection|private)$/),
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
    organization: t.orgId,
    revision: expect.any(String),
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    urls: { location: expect.stringContaining(`/v1/spaces/${space.id}`), app: expect.any(String) },
    permissions: expect.objectContaining({ view: true })
  })
  expect(space).toHaveProperty('defaultLevel')
}

describe('create and list', () => {
  it('creates a space with its first revision and one page, and an empty one', async () => {
    const res = await create({ emoji: '📘', editMode: 'live' })
    expect(res.status).toBe(201)
    expectSpace(res.body)
    expect(res.body).toMatchObject({ title: 'Guides', emoji: '📘', editMode: 'live', visibility: 'private', defaultLevel: null })
    expect(res.body.permissions).toMatchObject({ admin: true, edit: true, merge: true })
    expect(loadPages(t.server.api.services.db, res.body.revision)).toHaveLength(1)

    const empty = await create({ empty: true })
    expect(loadPages(t.server.api.services.db, empty.body.revision)).toHaveLength(0)
  })

  it('validates the create body and changes nothing on failure', async () => {
    const cases: [unknown, string][] = [
      [{ title: 'x'.repeat(51) }, 'title: must be at most 50 characters'],
      [{ emoji: 'x'.repeat(51) }, 'emoji: must be at most 50 characters'],
      [{ editMode: 'frozen' }, 'editMode: must be one of: live, locked'],
      [{ empty: 'yes' }, 'empty: must be boolean'],
      [{ parent: 'nope' }, 'parent: no collection nope in this organization']
    ]
    for (const [body, message] of cases) {
      const res = await create(body as Record<string, unknown>)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message })
    }
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/spaces`)).body.count).toBe(0)
  })

  it('needs the create role in the organization', async () => {
    const reader = await t.user({ role: 'read' })
    expect((await create({}, reader.api)).status).toBe(403)
    const creator = await t.user({ role: 'create' })
    const res = await create({}, creator.api)
    expect(res.status).toBe(201)
    expect(res.body.permissions.admin).toBe(true)
    const outsider = await t.user({ role: 'none' })
    expect((await create({}, outsider.api)).status).toBe(404)
    expect((await create({}, t.anonymous)).status).toBe(401)
  })

  it('walks 250 spaces with limit=100 as 250 distinct spaces, and refuses limit=1001', async () => {
    const db = t.server.api.services.db
    for (let i = 0; i < 250; i++) await create({ title: `Space ${i}` })
    const { items, pages } = await walk(t.owner.api, `/v1/orgs/${t.orgId}/spaces`, { limit: 100 })
    expect(items).toHaveLength(250)
    expect(new Set(items.map((s) => s.id)).size).toBe(250)
    expect(pages.map((p) => p.items.length)).toEqual([100, 100, 50])
    expect(pages.map((p) => p.count)).toEqual([250, 250, 250])
    expect(pages[2].next).toBeUndefined()
    expect(items[0].title).toBe('Space 0')
    expect(db.prepare('SELECT count(*) FROM spaces').pluck().get()).toBe(250)

    const tooMany = await t.owner.api.get(`/v1/orgs/${t.orgId}/spaces`, { limit: 1001 })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.error.message).toBe('limit: must be at most 1000')
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/spaces`, { limit: 0 })).status).toBe(400)
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/spaces`, { limit: 'ten' })).status).toBe(400)
  })

  it('lists for guests only the spaces granted to them', async () => {
    const a = await create({ title: 'A' })
    await create({ title: 'B' })
    const guest = await t.user({ role: null })
    expect((await guest.api.get(`/v1/orgs/${t.orgId}/spaces`)).body).toMatchObject({ count: 0, items: [] })
    expect((await guest.api.get(`/v1/spaces/${a.body.id}`)).status).toBe(404)
    await t.owner.api.post(`/v1/spaces/${a.body.id}/permissions`, { role: 'comment', users: [guest.user.id] })
    const list = await guest.api.get(`/v1/orgs/${t.orgId}/spaces`)
    expect(list.body.count).toBe(1)
    expect(list.body.items[0]).toMatchObject({ id: a.body.id, permissions: { view: true, comment: true, edit: false, admin: false } })
  })
})

describe('get, update, delete, restore', () => {
  it('lets only space admins install integrations (installIntegration), as installing on a space requires', async () => {
    const { body: space } = await create()
    const editor = await t.user({ role: 'edit', email: 'editor@example.com' })
    expect((await t.owner.api.get(`/v1/spaces/${space.id}`)).body.permissions.installIntegration).toBe(true)
    expect((await editor.api.get(`/v1/spaces/${space.id}`)).body.permissions).toMatchObject({ edit: true, installIntegration: false })
    await t.owner.api.post(`/v1/spaces/${space.id}/permissions`, { role: 'admin', users: ['editor@example.com'] })
    expect((await editor.api.get(`/v1/spaces/${space.id}`)).body.permissions).toMatchObject({ admin: true, installIntegration: true })
  })

  it('gets a space with permissions for the caller', async () => {
    const { body: space } = await create()
    const res = await t.owner.api.get(`/v1/spaces/${space.id}`)
    expect(res.status).toBe(200)
    expectSpace(res.body)
    const reader = await t.user({ role: 'read' })
    expect((await reader.api.get(`/v1/spaces/${space.id}`)).body.permissions).toMatchObject({
      view: true,
      comment: false,
      edit: false,
      admin: false
    })
    expect((await t.owner.api.get('/v1/spaces/unknown')).status).toBe(404)
    const outsider = await t.user({ role: 'none' })
    expect((await outsider.api.get(`/v1/spaces/${space.id}`)).status).toBe(404)
  })

  it('updates title, emoji, editMode and defaultLevel; readers get 403', async () => {
    const { body: space } = await create()
    const res = await t.owner.api.patch(`/v1/spaces/${space.id}`, {
      title: 'Handbook',
      emoji: '📗',
      editMode: 'locked',
      defaultLevel: 'edit'
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      title: 'Handbook',
      emoji: '📗',
      editMode: 'locked',
      defaultLevel: 'edit',
      permissions: { edit: false, admin: true }
    })

    const reader = await t.user({ role: 'read' })
    // defaultLevel raises every member's role on this space.
    expect((await reader.api.get(`/v1/spaces/${space.id}`)).body.permissions.comment).toBe(true)
    expect((await reader.api.patch(`/v1/spaces/${space.id}`, { title: 'Mine' })).status).toBe(403)
    for (const body of [{ title: 'x'.repeat(51) }, { editMode: 'open' }, { defaultLevel: 'owner' }, { emoji: 5 }]) {
      expect((await t.owner.api.patch(`/v1/spaces/${space.id}`, body)).status, JSON.stringify(body)).toBe(400)
    }
    expect((await t.owner.api.get(`/v1/spaces/${space.id}`)).body.title).toBe('Handbook')
  })

  it("sets visibility (Quire's addition to PATCH); in-collection only inside a collection; admins only", async () => {
    const { body: space } = await create()
    const res = await t.owner.api.patch(`/v1/spaces/${space.id}`, { visibility: 'unlisted' })
    expect(res.status).toBe(200)
    expect(res.body.visibility).toBe('unlisted')
    expect((await t.owner.api.get(`/v1/spaces/${space.id}`)).body.visibility).toBe('unlisted')

    const atRoot = await t.owner.api.patch(`/v1/spaces/${space.id}`, { visibility: 'in-collection', title: 'Renamed' })
    expect(atRoot.status).toBe(400)
    expect(atRoot.body.error.message).toBe('visibility: in-collection is only for a space in a collection')
    expect((await t.owner.api.patch(`/v1/spaces/${space.id}`, { visibility: 'everyone' })).status).toBe(400)
    const editor = await t.user({ role: 'edit' })
    expect((await editor.api.patch(`/v1/spaces/${space.id}`, { visibility: 'public' })).status).toBe(403)
    expect((await t.owner.api.patch('/v1/spaces/unknown-space', { visibility: 'public' })).status).toBe(404)
    // A failed request changed nothing.
    expect((await t.owner.api.get(`/v1/spaces/${space.id}`)).body).toMatchObject({ visibility: 'unlisted', title: 'Guides' })

    const { body: collection } = await t.owner.api.post(`/v1/orgs/${t.orgId}/collections`, { title: 'Team' })
    const { body: inside } = await create({ parent: collection.id })
    await t.owner.api.patch(`/v1/spaces/${inside.id}`, { visibility: 'private' })
    const back = await t.owner.api.patch(`/v1/spaces/${inside.id}`, { visibility: 'in-collection' })
    expect(back.status).toBe(200)
    expect(back.body.visibility).toBe('in-collection')
  })

  it('deletes with 205, hides from the list, restores within 7 days only', async () => {
    const { body: space } = await create()
    const del = await t.owner.api.delete(`/v1/spaces/${space.id}`)
    expect(del.status).toBe(205)
    expect(del.body).toBeUndefined()
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/spaces`)).body.count).toBe(0)
    const trashed = await t.owner.api.get(`/v1/spaces/${space.id}`)
    expect(trashed.body.deletedAt).toBe(t.clock.now().toISOString())
    expect((await t.owner.api.patch(`/v1/spaces/${space.id}`, { title: 'Ghost' })).status).toBe(404)

    t.clock.advance(6 * DAY_MS)
    const restored = await t.owner.api.post(`/v1/spaces/${space.id}/restore`)
    expect(restored.status).toBe(200)
    expect(restored.body.deletedAt).toBeUndefined()
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/spaces`)).body.count).toBe(1)
    expect((await t.owner.api.post(`/v1/spaces/${space.id}/restore`)).status).toBe(409)

    await t.owner.api.delete(`/v1/spaces/${space.id}`)
    t.clock.advance(7 * DAY_MS + 1000)
    expect((await t.owner.api.post(`/v1/spaces/${space.id}/restore`)).status).toBe(404)
    expect((await t.owner.api.get(`/v1/spaces/${space.id}`)).status).toBe(404)
    expect(purgeExpiredSpaces(t.server.api.services)).toBe(1)
    expect(t.server.api.services.db.prepare('SELECT count(*) FROM spaces WHERE id = ?').pluck().get(space.id)).toBe(0)
  })

  it('lists the trash (deleted=true) for admins, without spaces past the restore window', async () => {
    const { body: old } = await create({ title: 'Old' })
    const { body: recent } = await create({ title: 'Recent' })
    await create({ title: 'Live' })
    await t.owner.api.delete(`/v1/spaces/${old.id}`)
    t.clock.advance(3 * DAY_MS)
    await t.owner.api.delete(`/v1/spaces/${recent.id}`)
    t.clock.advance(5 * DAY_MS)
    const trash = await t.owner.api.get(`/v1/orgs/${t.orgId}/spaces`, { deleted: true })
    expect(trash.status).toBe(200)
    expect(trash.body.count).toBe(1)
    expect(trash.body.items.map((s: any) => [s.title, typeof s.deletedAt])).toEqual([['Recent', 'string']])
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/spaces`, { deleted: 'maybe' })).status).toBe(400)
    const editor = await t.user({ role: 'edit' })
    expect((await editor.api.get(`/v1/orgs/${t.orgId}/spaces`, { deleted: true })).status).toBe(403)
  })

  it('answers 400 naming the path parameter when an id is too long', async () => {
    const res = await t.owner.api.get(`/v1/spaces/${'x'.repeat(150)}`)
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe('spaceId: must be at most 100 characters')
  })

  it('lets only admins delete', async () => {
    const { body: space } = await create()
    const editor = await t.user({ role: 'edit' })
    expect((await editor.api.delete(`/v1/spaces/${space.id}`)).status).toBe(403)
    expect((await t.owner.api.get(`/v1/spaces/${space.id}`)).body.deletedAt).toBeUndefined()
  })
})

describe('duplicate, move, transfer', () => {
  it('duplicates a space with its content', async () => {
    const { body: space } = await create({ emoji: '📘' })
    const res = await t.owner.api.post(`/v1/spaces/${space.id}/duplicate`)
    expect(res.status).toBe(201)
    expectSpace(res.body)
    expect(res.body).toMatchObject({ title: 'Guides (copy)', emoji: '📘' })
    expect(res.body.id).not.toBe(space.id)
    expect(res.body.revision).not.toBe(space.revision)
    const titles = (rev: string) =>
      [...loadPages(t.server.api.services.db, rev)].sort((a, b) => a.position - b.position).map((p) => p.title)
    expect(titles(res.body.revision)).toEqual(titles(space.revision))
    const reader = await t.user({ role: 'read' })
    expect((await reader.api.post(`/v1/spaces/${space.id}/duplicate`)).status).toBe(403)
  })

  it('moves a space before and after its siblings', async () => {
    const ids: string[] = []
    for (const title of ['A', 'B', 'C']) ids.push((await create({ title })).body.id)
    const order = () => t.server.api.services.db.prepare('SELECT title FROM spaces WHERE parent_id IS NULL ORDER BY position').pluck().all()
    const moved = await t.owner.api.post(`/v1/spaces/${ids[2]}/move`, { position: { before: { type: 'space', space: ids[0] } } })
    expect(moved.status).toBe(200)
    expectSpace(moved.body)
    expect(order()).toEqual(['C', 'A', 'B'])
    await t.owner.api.post(`/v1/spaces/${ids[2]}/move`, { position: { after: { type: 'space', space: ids[0] } } })
    expect(order()).toEqual(['A', 'C', 'B'])
    await t.owner.api.post(`/v1/spaces/${ids[0]}/move`, {})
    expect(order()).toEqual(['C', 'B', 'A'])
    const bad = await t.owner.api.post(`/v1/spaces/${ids[0]}/move`, { position: { before: { type: 'space', space: 'nope' } } })
    expect(bad.status).toBe(400)
    expect((await t.owner.api.post(`/v1/spaces/${ids[0]}/move`, { position: { before: { type: 'folder', id: 'x' } } })).status).toBe(400)
    expect((await t.owner.api.post(`/v1/spaces/${ids[0]}/move`, { parent: 'nope' })).status).toBe(400)
    const reader = await t.user({ role: 'read' })
    expect((await reader.api.post(`/v1/spaces/${ids[0]}/move`, {})).status).toBe(403)
  })

  it('transfers a space to another organization', async () => {
    const { body: space } = await create()
    const other = await t.owner.api.post('/v1/orgs', { title: 'Other org' })
    const res = await t.owner.api.post(`/v1/spaces/${space.id}/transfer`, { organization: other.body.id })
    expect(res.status).toBe(200)
    expect(res.body.organization).toBe(other.body.id)
    expect((await t.owner.api.get(`/v1/orgs/${other.body.id}/spaces`)).body.items.map((s: any) => s.id)).toEqual([space.id])
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/spaces`)).body.count).toBe(0)

    expect((await t.owner.api.post(`/v1/spaces/${space.id}/transfer`, {})).status).toBe(400)
    const stranger = await t.owner.api.post(`/v1/spaces/${space.id}/transfer`, { organization: 'unknown-org' })
    expect(stranger.status).toBe(404)
  })

  it('refuses a transfer into an organization where the caller cannot create', async () => {
    const { body: space } = await create()
    const admin = await t.user({ role: 'admin' })
    const theirs = await admin.api.post('/v1/orgs', { title: 'Theirs' })
    // The owner is not a member of "Theirs".
    expect((await t.owner.api.post(`/v1/spaces/${space.id}/transfer`, { organization: theirs.body.id })).status).toBe(404)
    expect((await t.owner.api.get(`/v1/spaces/${space.id}`)).body.organization).toBe(t.orgId)
  })
})

describe('permissions', () => {
  it('grants a role to users (by id or e-mail) and teams, and removes it with null', async () => {
    const { body: space } = await create()
    const reader = await t.user({ role: 'read', email: 'reader@example.com' })
    const res = await t.owner.api.post(`/v1/spaces/${space.id}/permissions`, { role: 'edit', users: ['reader@example.com'] })
    expect(res.status).toBe(204)
    expect((await reader.api.get(`/v1/spaces/${space.id}`)).body.permissions).toMatchObject({ edit: true, admin: false })
    await t.owner.api.post(`/v1/spaces/${space.id}/permissions`, { role: null, users: [reader.user.id] })
    expect((await reader.api.get(`/v1/spaces/${space.id}`)).body.permissions.edit).toBe(false)
  })

  it('validates the body and the people named; a failure grants nothing', async () => {
    const { body: space } = await create()
    const reader = await t.user({ role: 'read' })
    const outsider = await t.user({ role: 'none' })
    const cases: [unknown, string][] = [
      [{ users: [reader.user.id] }, 'role: is required'],
      [{ role: 'owner', users: [reader.user.id] }, 'role: must be one of'],
      [{ role: 'edit' }, 'users: give at least one user or team'],
      [{ role: 'edit', users: [reader.user.id, outsider.user.id] }, `users.1: ${outsider.user.id} is not a member`],
      [{ role: 'edit', teams: ['nope'] }, 'teams.0: no team nope']
    ]
    for (const [body, message] of cases) {
      const r = await t.owner.api.post(`/v1/spaces/${space.id}/permissions`, body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body.error.message).toContain(message)
    }
    expect((await reader.api.get(`/v1/spaces/${space.id}`)).body.permissions.edit).toBe(false)
    expect((await reader.api.post(`/v1/spaces/${space.id}/permissions`, { role: 'admin', users: [reader.user.id] })).status).toBe(403)
  })
})
