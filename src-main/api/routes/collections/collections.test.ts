import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { collectionGrants, createCollection, createSpace, expectCollection, grantCollection, siblingOrder } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const list = (query: Record<string, unknown> = {}, api = t.owner.api) => api.get(`/v1/orgs/${t.orgId}/collections`, query)

describe('authentication and visibility', () => {
  it('answers 401 on every operation without a token', async () => {
    const c = await createCollection(t)
    const calls = [
      t.anonymous.get(`/v1/orgs/${t.orgId}/collections`),
      t.anonymous.post(`/v1/orgs/${t.orgId}/collections`, {}),
      t.anonymous.get(`/v1/collections/${c.id}`),
      t.anonymous.patch(`/v1/collections/${c.id}`, { title: 'X' }),
      t.anonymous.delete(`/v1/collections/${c.id}`),
      t.anonymous.get(`/v1/collections/${c.id}/spaces`),
      t.anonymous.post(`/v1/collections/${c.id}/move`, {}),
      t.anonymous.post(`/v1/collections/${c.id}/transfer`, { organization: t.orgId })
    ]
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: { code: 401, message: expect.any(String) } })
    }
    expect((await t.owner.api.get(`/v1/collections/${c.id}`)).body.title).toBe('Untitled collection')
  })

  it('answers 404 to non-members and for unknown ids, and changes nothing', async () => {
    const c = await createCollection(t, { title: 'Private' })
    const outsider = await t.user({ role: 'none' })
    const calls = [
      outsider.api.get(`/v1/orgs/${t.orgId}/collections`),
      outsider.api.post(`/v1/orgs/${t.orgId}/collections`, { title: 'Mine' }),
      outsider.api.get(`/v1/collections/${c.id}`),
      outsider.api.patch(`/v1/collections/${c.id}`, { title: 'Mine' }),
      outsider.api.delete(`/v1/collections/${c.id}`),
      outsider.api.get(`/v1/collections/${c.id}/spaces`),
      outsider.api.post(`/v1/collections/${c.id}/move`, { parent: null }),
      outsider.api.post(`/v1/collections/${c.id}/transfer`, { organization: t.orgId }),
      t.owner.api.get('/v1/orgs/nope/collections'),
      t.owner.api.post('/v1/orgs/nope/collections', {}),
      t.owner.api.get('/v1/collections/nope'),
      t.owner.api.patch('/v1/collections/nope', { title: 'X' }),
      t.owner.api.delete('/v1/collections/nope'),
      t.owner.api.get('/v1/collections/nope/spaces'),
      t.owner.api.post('/v1/collections/nope/move', {}),
      t.owner.api.post('/v1/collections/nope/transfer', { organization: t.orgId })
    ]
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404)
      expect(res.body.error).toEqual({ code: 404, message: expect.any(String) })
    }
    const after = await list()
    expect(after.body.count).toBe(1)
    expect(after.body.items[0]).toMatchObject({ id: c.id, title: 'Private' })
  })

  it('shows guests only the collections granted to them (and those nested in them)', async () => {
    const granted = await createCollection(t, { title: 'Granted' })
    const inside = await createCollection(t, { title: 'Inside', parent: granted.id })
    await createCollection(t, { title: 'Hidden' })
    const hiddenNested = await createCollection(t, { title: 'Deep', parent: inside.id })
    const guest = await t.user({ role: null })

    expect((await list({}, guest.api)).body).toEqual({ count: 0, items: [] })
    expect((await guest.api.get(`/v1/collections/${granted.id}`)).status).toBe(404)

    grantCollection(t, granted.id, { user: guest.user.id }, 'read')
    const res = await list({}, guest.api)
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(3)
    expect(res.body.items.map((c: any) => c.title)).toEqual(['Granted', 'Inside', 'Deep'])
    expect(res.body.items[0].permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false })
    expect((await list({ nested: false }, guest.api)).body).toMatchObject({ count: 1, items: [{ id: granted.id }] })
    expect((await guest.api.get(`/v1/collections/${hiddenNested.id}`)).status).toBe(200)

    const paged = await walk(guest.api, `/v1/orgs/${t.orgId}/collections`, { limit: 2 })
    expect(paged.items.map((c) => c.id)).toEqual(res.body.items.map((c: any) => c.id))
    expect(paged.pages.map((p) => p.count)).toEqual([3, 3])
  })

  it("computes permissions from the caller's role (org role, defaultLevel, grants)", async () => {
    const c = await createCollection(t)
    expect(c).toMatchObject({ permissions: { view: true, admin: true, viewInviteLinks: true, create: true } })
    const reader = await t.user({ role: 'read' })
    expect((await reader.api.get(`/v1/collections/${c.id}`)).body.permissions).toEqual({
      view: true,
      admin: false,
      viewInviteLinks: false,
      create: false
    })

    await t.owner.api.patch(`/v1/collections/${c.id}`, { defaultLevel: 'create' })
    expect((await reader.api.get(`/v1/collections/${c.id}`)).body.permissions).toEqual({
      view: true,
      admin: false,
      viewInviteLinks: false,
      create: true
    })

    grantCollection(t, c.id, { user: reader.user.id }, 'admin')
    expect((await reader.api.get(`/v1/collections/${c.id}`)).body.permissions).toEqual({
      view: true,
      admin: true,
      viewInviteLinks: true,
      create: true
    })
  })
})

describe('list', () => {
  it('lists nested collections by default, only the roots with nested=false, and pages through them', async () => {
    const roots = []
    for (let i = 0; i < 3; i++) roots.push(await createCollection(t, { title: `Root ${i}` }))
    const child = await createCollection(t, { title: 'Child', parent: roots[0]!.id })
    await createCollection(t, { title: 'Grandchild', parent: child.id })

    const all = await list()
    expect(all.status).toBe(200)
    expect(all.body.count).toBe(5)
    expect(all.body.next).toBeUndefined()
    for (const c of all.body.items) expectCollection(c, t.orgId)
    expect(all.body.items.map((c: any) => c.title)).toEqual(['Root 0', 'Root 1', 'Root 2', 'Child', 'Grandchild'])
    expect(all.body.items[3].parent).toBe(roots[0]!.id)
    expect(all.body.items[0]).not.toHaveProperty('parent')
    expect((await list({ nested: true })).body.count).toBe(5)

    const rootsOnly = await list({ nested: false })
    expect(rootsOnly.body.count).toBe(3)
    expect(rootsOnly.body.items.map((c: any) => c.id)).toEqual(roots.map((r) => r.id))

    const { items, pages } = await walk(t.owner.api, `/v1/orgs/${t.orgId}/collections`, { limit: 2 })
    expect(items.map((c) => c.id)).toEqual(all.body.items.map((c: any) => c.id))
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1])
    expect(pages.every((p) => p.count === 5)).toBe(true)
    expect(pages.at(-1).next).toBeUndefined()

    const rootPages = await walk(t.owner.api, `/v1/orgs/${t.orgId}/collections`, { limit: 1, nested: false })
    expect(rootPages.items.map((c) => c.id)).toEqual(roots.map((r) => r.id))
    expect(rootPages.pages).toHaveLength(3)
  })

  it('updates the count after a create and a delete', async () => {
    expect((await list()).body.count).toBe(0)
    const c = await createCollection(t)
    expect((await list()).body.count).toBe(1)
    await t.owner.api.delete(`/v1/collections/${c.id}`)
    expect((await list()).body).toEqual({ count: 0, items: [] })
  })

  it('validates the query', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ limit: 1001 }, 'limit: must be at most 1000'],
      [{ limit: 0 }, 'limit: must be at least 1'],
      [{ limit: 'many' }, 'limit: must be integer'],
      [{ nested: 'maybe' }, 'nested: must be boolean']
    ]
    for (const [query, message] of cases) {
      const res = await list(query)
      expect(res.status, JSON.stringify(query)).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message })
    }
    expect((await list({ page: 'garbage' })).status).toBe(400)
  })
})

describe('create', () => {
  it('creates a root collection with defaults and gives the creator an admin grant', async () => {
    const res = await t.owner.api.post(`/v1/orgs/${t.orgId}/collections`, {})
    expect(res.status).toBe(201)
    expectCollection(res.body, t.orgId)
    expect(res.body).toMatchObject({ title: 'Untitled collection', defaultLevel: null })
    expect(res.body).not.toHaveProperty('parent')
    expect(res.body).not.toHaveProperty('description')
    expect(collectionGrants(t, res.body.id)).toEqual([{ principal_type: 'user', principal_id: t.owner.user.id, role: 'admin' }])
    expect((await t.owner.api.get(`/v1/collections/${res.body.id}`)).body).toEqual(res.body)
  })

  it('creates nested collections and places each after the spaces and collections of its parent', async () => {
    const space = await createSpace(t, { title: 'First' })
    const a = await createCollection(t, { title: 'A'.repeat(50) })
    expect(a.title).toHaveLength(50)
    const b = await createCollection(t, { title: 'B', parent: a.id })
    expect(b.parent).toBe(a.id)
    expect((await t.owner.api.get(`/v1/collections/${b.id}`)).body.parent).toBe(a.id)
    expect(siblingOrder(t, t.orgId, null)).toEqual([`space:${space.id}`, `collection:${a.id}`])
    const inner = await createSpace(t, { parent: a.id })
    const c = await createCollection(t, { title: 'C', parent: a.id })
    expect(siblingOrder(t, t.orgId, a.id)).toEqual([`collection:${b.id}`, `space:${inner.id}`, `collection:${c.id}`])
  })

  it('lets a create member manage what they made, but not the collections of others', async () => {
    const creator = await t.user({ role: 'create' })
    const mine = await createCollection(t, { title: 'Mine' }, { api: creator.api })
    expect(mine).toMatchObject({ permissions: { admin: true } })
    expect((await creator.api.patch(`/v1/collections/${mine.id}`, { title: 'Still mine' })).status).toBe(200)

    const theirs = await createCollection(t, { title: 'Theirs' })
    expect((await creator.api.get(`/v1/collections/${theirs.id}`)).body.permissions).toEqual({
      view: true,
      admin: false,
      viewInviteLinks: false,
      create: true
    })
    const denied = await creator.api.patch(`/v1/collections/${theirs.id}`, { title: 'Taken' })
    expect(denied.status).toBe(403)
    expect(denied.body.error.code).toBe(403)
    expect((await t.owner.api.get(`/v1/collections/${theirs.id}`)).body.title).toBe('Theirs')
  })

  it('refuses roles below create (403) unless the parent grants create', async () => {
    const parent = await createCollection(t, { title: 'Parent' })
    for (const role of ['read', 'comment', 'edit', 'review', null] as const) {
      const user = await t.user({ role })
      const res = await user.api.post(`/v1/orgs/${t.orgId}/collections`, { title: 'Nope' })
      expect(res.status, String(role)).toBe(403)
      expect(res.body.error).toEqual({ code: 403, message: expect.any(String) })
    }
    const reader = await t.user({ role: 'read' })
    expect((await reader.api.post(`/v1/orgs/${t.orgId}/collections`, { parent: parent.id })).status).toBe(403)
    expect((await list()).body.count).toBe(1)

    grantCollection(t, parent.id, { user: reader.user.id }, 'create')
    const nested = await reader.api.post(`/v1/orgs/${t.orgId}/collections`, { title: 'Nested', parent: parent.id })
    expect(nested.status).toBe(201)
    expect(nested.body).toMatchObject({ parent: parent.id, permissions: { admin: true } })
    expect((await reader.api.post(`/v1/orgs/${t.orgId}/collections`, { title: 'Root' })).status).toBe(403)

    // A guest granted create on a collection creates inside it too.
    const guest = await t.user({ role: null })
    grantCollection(t, parent.id, { user: guest.user.id }, 'create')
    expect((await guest.api.post(`/v1/orgs/${t.orgId}/collections`, { parent: parent.id })).status).toBe(201)
  })

  it('validates the body and changes nothing on failure', async () => {
    const other = await t.owner.api.post('/v1/orgs', { title: 'Other org' })
    const foreign = await createCollection(t, {}, { orgId: other.body.id })
    const cases: [unknown, string][] = [
      [{ title: 'x'.repeat(51) }, 'title: must be at most 50 characters'],
      [{ title: 42 }, 'title: must be string'],
      [{ parent: 7 }, 'parent: must be string'],
      [{ parent: 'nope' }, 'parent: no collection nope in this organization'],
      [{ parent: foreign.id }, `parent: no collection ${foreign.id} in this organization`],
      [{ parent: 'x'.repeat(101) }, 'parent: must be at most 100 characters']
    ]
    for (const [body, message] of cases) {
      const res = await t.owner.api.post(`/v1/orgs/${t.orgId}/collections`, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message })
    }
    // A parent the guest cannot see answers like an unknown one.
    const hidden = await createCollection(t)
    const guest = await t.user({ role: null })
    const res = await guest.api.post(`/v1/orgs/${t.orgId}/collections`, { parent: hidden.id })
    expect(res.body.error).toEqual({ code: 400, message: `parent: no collection ${hidden.id} in this organization` })
    expect((await list()).body.count).toBe(1)
    expect((await t.owner.api.post(`/v1/orgs/${t.orgId}/collections`, { title: 'Ok', ignored: true })).status).toBe(201)
  })
})

describe('update', () => {
  it('updates title, description and defaultLevel, keeps what was not sent, clears with null', async () => {
    const c = await createCollection(t, { title: 'Before' })
    const res = await t.owner.api.patch(`/v1/collections/${c.id}`, {
      title: 'T'.repeat(50),
      description: 'D'.repeat(100),
      defaultLevel: 'comment'
    })
    expect(res.status).toBe(200)
    expectCollection(res.body, t.orgId)
    expect(res.body).toMatchObject({ title: 'T'.repeat(50), description: 'D'.repeat(100), defaultLevel: 'comment' })

    const partial = await t.owner.api.patch(`/v1/collections/${c.id}`, { title: 'After' })
    expect(partial.body).toMatchObject({ title: 'After', description: 'D'.repeat(100), defaultLevel: 'comment' })

    const cleared = await t.owner.api.patch(`/v1/collections/${c.id}`, { description: null, defaultLevel: null })
    expect(cleared.body).toMatchObject({ title: 'After', defaultLevel: null })
    expect(cleared.body).not.toHaveProperty('description')
    expect((await t.owner.api.get(`/v1/collections/${c.id}`)).body).toEqual(cleared.body)
    for (const role of ['admin', 'create', 'review', 'edit', 'comment', 'read']) {
      expect((await t.owner.api.patch(`/v1/collections/${c.id}`, { defaultLevel: role })).body.defaultLevel).toBe(role)
    }
  })

  it('validates the body and changes nothing on failure', async () => {
    const c = await createCollection(t, { title: 'Kept' })
    await t.owner.api.patch(`/v1/collections/${c.id}`, { description: 'Kept too', defaultLevel: 'edit' })
    const cases: [unknown, string][] = [
      [{ title: 'x'.repeat(51) }, 'title: must be at most 50 characters'],
      [{ description: 'x'.repeat(101) }, 'description: must be at most 100 characters'],
      [{ defaultLevel: 'owner' }, 'defaultLevel: must be one of: admin, create, review, edit, comment, read, null'],
      [{ title: null }, 'title: must be string'],
      [{ description: 5 }, 'description: must be string or null']
    ]
    for (const [body, message] of cases) {
      const res = await t.owner.api.patch(`/v1/collections/${c.id}`, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message })
    }
    expect((await t.owner.api.get(`/v1/collections/${c.id}`)).body).toMatchObject({
      title: 'Kept',
      description: 'Kept too',
      defaultLevel: 'edit'
    })
  })

  it('needs admin on the collection (403), and hides it from guests without a grant (404)', async () => {
    const c = await createCollection(t, { title: 'Kept' })
    for (const role of ['create', 'review', 'edit', 'comment', 'read'] as const) {
      const user = await t.user({ role })
      expect((await user.api.patch(`/v1/collections/${c.id}`, { title: 'No' })).status, role).toBe(403)
    }
    const guest = await t.user({ role: null })
    expect((await guest.api.patch(`/v1/collections/${c.id}`, { title: 'No' })).status).toBe(404)
    grantCollection(t, c.id, { user: guest.user.id }, 'edit')
    expect((await guest.api.patch(`/v1/collections/${c.id}`, { title: 'No' })).status).toBe(403)
    expect((await t.owner.api.get(`/v1/collections/${c.id}`)).body.title).toBe('Kept')
    grantCollection(t, c.id, { user: guest.user.id }, 'admin')
    expect((await guest.api.patch(`/v1/collections/${c.id}`, { title: 'Guest admin' })).body.title).toBe('Guest admin')
  })
})

describe('delete', () => {
  it('deletes nested collections and soft-deletes every space inside, restorable to the root', async () => {
    const top = await createCollection(t, { title: 'Top' })
    const nested = await createCollection(t, { title: 'Nested', parent: top.id })
    const keep = await createCollection(t, { title: 'Keep' })
    const direct = await createSpace(t, { title: 'Direct', parent: top.id })
    const deep = await createSpace(t, { title: 'Deep', parent: nested.id })
    const outside = await createSpace(t, { title: 'Outside', parent: keep.id })
    t.clock.advance(60_000)

    const res = await t.owner.api.delete(`/v1/collections/${top.id}`)
    expect(res.status).toBe(205)
    expect(res.body).toBeUndefined()

    expect((await t.owner.api.get(`/v1/collections/${top.id}`)).status).toBe(404)
    expect((await t.owner.api.get(`/v1/collections/${nested.id}`)).status).toBe(404)
    expect((await list()).body.items.map((c: any) => c.id)).toEqual([keep.id])
    for (const s of [direct, deep]) {
      const space = (await t.owner.api.get(`/v1/spaces/${s.id}`)).body
      expect(space.deletedAt).toBe(t.clock.now().toISOString())
      expect(space).not.toHaveProperty('parent')
      expect(space.visibility).not.toBe('in-collection')
    }
    const live = (await t.owner.api.get(`/v1/orgs/${t.orgId}/spaces`)).body.items.map((s: any) => s.id)
    expect(live).toEqual([outside.id])
    expect((await t.owner.api.get(`/v1/spaces/${outside.id}`)).body).toMatchObject({ parent: keep.id })
    expect(collectionGrants(t, top.id)).toEqual([])

    const restored = await t.owner.api.post(`/v1/spaces/${deep.id}/restore`)
    expect(restored.status).toBe(200)
    expect(restored.body).not.toHaveProperty('parent')
    expect(restored.body).not.toHaveProperty('deletedAt')
  })

  it('needs admin on the collection and changes nothing when refused', async () => {
    const c = await createCollection(t)
    const space = await createSpace(t, { parent: c.id })
    const editor = await t.user({ role: 'create' })
    const res = await editor.api.delete(`/v1/collections/${c.id}`)
    expect(res.status).toBe(403)
    expect(res.body.error.code).toBe(403)
    const guest = await t.user({ role: null })
    expect((await guest.api.delete(`/v1/collections/${c.id}`)).status).toBe(404)
    expect((await t.owner.api.get(`/v1/collections/${c.id}`)).status).toBe(200)
    expect((await t.owner.api.get(`/v1/spaces/${space.id}`)).body).toMatchObject({ parent: c.id })
    expect((await t.owner.api.get(`/v1/spaces/${space.id}`)).body).not.toHaveProperty('deletedAt')

    // Admin through a grant on an ancestor is enough.
    const parentAdmin = await t.user({ role: 'read' })
    const child = await createCollection(t, { parent: c.id })
    grantCollection(t, c.id, { user: parentAdmin.user.id }, 'admin')
    expect((await parentAdmin.api.delete(`/v1/collections/${child.id}`)).status).toBe(205)
  })
})

describe('spaces of a collection', () => {
  it('lists the live spaces directly in the collection, paged', async () => {
    const c = await createCollection(t)
    const nested = await createCollection(t, { parent: c.id })
    const ids = []
    for (let i = 0; i < 5; i++) ids.push((await createSpace(t, { title: `S${i}`, parent: c.id })).id)
    await createSpace(t, { title: 'Nested space', parent: nested.id })
    await createSpace(t, { title: 'Root space' })
    expect((await t.owner.api.delete(`/v1/spaces/${ids[2]}`)).status).toBe(205)
    const live = ids.filter((_, i) => i !== 2)

    const res = await t.owner.api.get(`/v1/collections/${c.id}/spaces`)
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(4)
    expect(res.body.items.map((s: any) => s.id)).toEqual(live)
    expect(res.body.items[0]).toMatchObject({
      object: 'space',
      parent: c.id,
      organization: t.orgId,
      permissions: { view: true, admin: true }
    })

    const { items, pages } = await walk(t.owner.api, `/v1/collections/${c.id}/spaces`, { limit: 3 })
    expect(items.map((s) => s.id)).toEqual(live)
    expect(pages.map((p) => p.items.length)).toEqual([3, 1])
    expect(pages.every((p) => p.count === 4)).toBe(true)
    expect((await t.owner.api.get(`/v1/collections/${nested.id}/spaces`)).body.count).toBe(1)
    expect((await t.owner.api.get(`/v1/collections/${c.id}/spaces`, { limit: 1001 })).status).toBe(400)
  })

  it('shows a guest the spaces of a granted collection with the inherited role', async () => {
    const c = await createCollection(t)
    await createSpace(t, { parent: c.id })
    const guest = await t.user({ role: null })
    expect((await guest.api.get(`/v1/collections/${c.id}/spaces`)).status).toBe(404)
    grantCollection(t, c.id, { user: guest.user.id }, 'comment')
    const res = await guest.api.get(`/v1/collections/${c.id}/spaces`)
    expect(res.body.count).toBe(1)
    expect(res.body.items[0].permissions).toMatchObject({ view: true, comment: true, edit: false, admin: false })
  })
})
