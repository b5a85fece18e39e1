import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { repository } from '../../../storage/repositories/memo'
import { spaceRepository } from '../../../storage/repositories/spaceRepository'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { collectionGrants, createCollection, createSpace, expectCollection, grantCollection, siblingOrder } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const move = (id: string, body: unknown, api = t.owner.api) => api.post(`/v1/collections/${id}/move`, body)
const transfer = (id: string, organization: unknown, api = t.owner.api) => api.post(`/v1/collections/${id}/transfer`, { organization })
const anchor = (item: { id: string; object?: string }, kind: 'space' | 'collection') =>
  kind === 'space' ? { type: 'space', space: item.id } : { type: 'collection', collection: item.id }

describe('move', () => {
  it('moves under another collection, back to the root, and keeps the parent when none is sent', async () => {
    const a = await createCollection(t, { title: 'A' })
    const b = await createCollection(t, { title: 'B' })
    const child = await createCollection(t, { title: 'Child', parent: b.id })
    const res = await move(b.id, { parent: a.id })
    expect(res.status).toBe(200)
    expectCollection(res.body, t.orgId)
    expect(res.body).toMatchObject({ id: b.id, parent: a.id })
    expect((await t.owner.api.get(`/v1/collections/${b.id}`)).body.parent).toBe(a.id)
    expect((await t.owner.api.get(`/v1/collections/${child.id}`)).body.parent).toBe(b.id)
    expect(siblingOrder(t, t.orgId, null)).toEqual([`collection:${a.id}`])
    expect(siblingOrder(t, t.orgId, a.id)).toEqual([`collection:${b.id}`])

    expect((await move(b.id, {})).body.parent).toBe(a.id)
    const root = await move(b.id, { parent: null })
    expect(root.body).not.toHaveProperty('parent')
    expect(siblingOrder(t, t.orgId, null)).toEqual([`collection:${a.id}`, `collection:${b.id}`])
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/collections`, { nested: false })).body.count).toBe(2)
  })

  it('places before or after a space or a collection, and at the end without a position', async () => {
    const s1 = await createSpace(t, { title: 'S1' })
    const c1 = await createCollection(t, { title: 'C1' })
    const s2 = await createSpace(t, { title: 'S2' })
    const m = await createCollection(t, { title: 'Moving' })
    const order = () => siblingOrder(t, t.orgId, null)
    const S1 = `space:${s1.id}`,
      C1 = `collection:${c1.id}`,
      S2 = `space:${s2.id}`,
      M = `collection:${m.id}`

    expect((await move(m.id, { position: { before: anchor(s1, 'space') } })).status).toBe(200)
    expect(order()).toEqual([M, S1, C1, S2])
    await move(m.id, { position: { after: anchor(c1, 'collection') } })
    expect(order()).toEqual([S1, C1, M, S2])
    await move(m.id, { position: { before: anchor(c1, 'collection') } })
    expect(order()).toEqual([S1, M, C1, S2])
    await move(m.id, { position: { after: anchor(s2, 'space') } })
    expect(order()).toEqual([S1, C1, S2, M])
    await move(m.id, { position: { after: anchor(s1, 'space') } })
    expect(order()).toEqual([S1, M, C1, S2])
    await move(m.id, {})
    expect(order()).toEqual([S1, C1, S2, M])
    await move(m.id, { position: {} })
    expect(order()).toEqual([S1, C1, S2, M])
  })

  it('moves into a collection beside a sibling there', async () => {
    const target = await createCollection(t, { title: 'Target' })
    const inside = await createSpace(t, { parent: target.id })
    const insideC = await createCollection(t, { parent: target.id })
    const m = await createCollection(t, { title: 'Moving' })
    const res = await move(m.id, { parent: target.id, position: { before: anchor(insideC, 'collection') } })
    expect(res.body.parent).toBe(target.id)
    expect(siblingOrder(t, t.orgId, target.id)).toEqual([`space:${inside.id}`, `collection:${m.id}`, `collection:${insideC.id}`])
  })

  it('keeps the order right when the gap between two neighbours runs out (renumbering)', async () => {
    const first = await createCollection(t, { title: 'First' })
    const last = await createCollection(t, { title: 'Last' })
    const movers = []
    for (let i = 0; i < 45; i++) movers.push(await createCollection(t, { title: `M${i}` }))
    // Each mover goes right after `first`: the gap before the previous mover halves every time.
    for (const m of movers) expect((await move(m.id, { position: { after: anchor(first, 'collection') } })).status).toBe(200)
    const expected = [first, ...[...movers].reverse(), last].map((c) => `collection:${c.id}`)
    expect(siblingOrder(t, t.orgId, null)).toEqual(expected)
    const positions = repository(t.server.api.services.db, spaceRepository)
      .siblings(t.orgId, null)
      .map((s) => s.position)
    expect(new Set(positions).size).toBe(positions.length)
  })

  it('refuses cycles, other organizations, unknown parents and bad anchors (400), changing nothing', async () => {
    const other = await t.owner.api.post('/v1/orgs', { title: 'Other org' })
    const foreign = await createCollection(t, {}, { orgId: other.body.id })
    const a = await createCollection(t, { title: 'A' })
    const child = await createCollection(t, { title: 'Child', parent: a.id })
    const grandchild = await createCollection(t, { title: 'Grandchild', parent: child.id })
    const sibling = await createCollection(t, { title: 'Sibling' })
    const rootSpace = await createSpace(t)
    const nestedSpace = await createSpace(t, { parent: child.id })
    const before = siblingOrder(t, t.orgId, null)
    const cases: [unknown, string][] = [
      [{ parent: a.id }, 'parent: a collection cannot move into itself or one of its nested collections'],
      [{ parent: child.id }, 'parent: a collection cannot move into itself or one of its nested collections'],
      [{ parent: grandchild.id }, 'parent: a collection cannot move into itself or one of its nested collections'],
      [{ parent: foreign.id }, `parent: no collection ${foreign.id} in this organization`],
      [{ parent: 'nope' }, 'parent: no collection nope in this organization'],
      [{ parent: 5 }, 'parent: must be string or null'],
      [
        { position: { before: anchor(nestedSpace, 'space') } },
        `position.before: space ${nestedSpace.id} is not beside this item under its parent`
      ],
      [{ position: { after: { type: 'space', space: 'nope' } } }, 'position.after: space nope is not beside this item under its parent'],
      [{ position: { before: anchor(a, 'collection') } }, 'position.before: cannot be the collection itself'],
      [
        { position: { before: anchor(rootSpace, 'space'), after: anchor(sibling, 'collection') } },
        'position: give either before or after, not both'
      ],
      [
        { parent: sibling.id, position: { before: anchor(rootSpace, 'space') } },
        `position.before: space ${rootSpace.id} is not beside this item under its parent`
      ]
    ]
    for (const [body, message] of cases) {
      const res = await move(a.id, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message })
    }
    for (const body of [
      { position: { before: { type: 'page', page: 'x' } } },
      { position: { before: { type: 'space' } } },
      { position: 'first' }
    ]) {
      const res = await move(a.id, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.message).toMatch(/^position/)
    }
    expect(siblingOrder(t, t.orgId, null)).toEqual(before)
    expect((await t.owner.api.get(`/v1/collections/${a.id}`)).body).not.toHaveProperty('parent')
  })

  it('needs admin on the collection, and create where it goes', async () => {
    const a = await createCollection(t, { title: 'A' })
    const target = await createCollection(t, { title: 'Target' })
    const reader = await t.user({ role: 'read' })
    expect((await move(a.id, { parent: target.id }, reader.api)).status).toBe(403)
    const guest = await t.user({ role: null })
    expect((await move(a.id, { parent: null }, guest.api)).status).toBe(404)

    // Admin on the collection (not in the organization): may reorder it, not take it where they cannot create.
    grantCollection(t, a.id, { user: reader.user.id }, 'admin')
    const space = await createSpace(t)
    expect((await move(a.id, { position: { after: anchor(space, 'space') } }, reader.api)).status).toBe(200)
    const denied = await move(a.id, { parent: target.id }, reader.api)
    expect(denied.status).toBe(403)
    expect(denied.body.error.code).toBe(403)
    expect((await t.owner.api.get(`/v1/collections/${a.id}`)).body).not.toHaveProperty('parent')

    grantCollection(t, target.id, { user: reader.user.id }, 'create')
    expect((await move(a.id, { parent: target.id }, reader.api)).body.parent).toBe(target.id)
    // Back to the root needs the create role in the organization.
    expect((await move(a.id, { parent: null }, reader.api)).status).toBe(403)
    expect((await t.owner.api.get(`/v1/collections/${a.id}`)).body.parent).toBe(target.id)
  })
})

describe('transfer', () => {
  async function setup() {
    const other = (await t.owner.api.post('/v1/orgs', { title: 'Target org' })).body.id as string
    const top = await createCollection(t, { title: 'Top' })
    const nested = await createCollection(t, { title: 'Nested', parent: top.id })
    const direct = await createSpace(t, { title: 'Direct', parent: top.id })
    const deep = await createSpace(t, { title: 'Deep', parent: nested.id })
    const stays = await createSpace(t, { title: 'Stays' })
    return { other, top, nested, direct, deep, stays }
  }

  it('moves the collection, its nested collections and their spaces to the root of the target', async () => {
    const { other, top, nested, direct, deep, stays } = await setup()
    const existing = await createCollection(t, { title: 'Already there' }, { orgId: other })
    const res = await transfer(top.id, other)
    expect(res.status).toBe(200)
    expectCollection(res.body, other)
    expect(res.body).toMatchObject({ id: top.id, organization: other, permissions: { admin: true } })
    expect(res.body).not.toHaveProperty('parent')

    expect((await t.owner.api.get(`/v1/collections/${nested.id}`)).body).toMatchObject({ organization: other, parent: top.id })
    for (const s of [direct, deep]) expect((await t.owner.api.get(`/v1/spaces/${s.id}`)).body.organization).toBe(other)
    expect((await t.owner.api.get(`/v1/spaces/${stays.id}`)).body.organization).toBe(t.orgId)
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/collections`)).body.count).toBe(0)
    const target = await t.owner.api.get(`/v1/orgs/${other}/collections`)
    expect(target.body.items.map((c: any) => c.id)).toEqual([top.id, nested.id, existing.id])
    expect(siblingOrder(t, other, null)).toEqual([`collection:${existing.id}`, `collection:${top.id}`])
    expect((await t.owner.api.get(`/v1/collections/${top.id}/spaces`)).body.items.map((s: any) => s.id)).toEqual([direct.id])
  })

  it('drops grants held by users and teams outside the target organization', async () => {
    const { other, top, nested, direct } = await setup()
    const both = await t.user({ role: 'read' })
    const db = t.server.api.services.db
    db.prepare('INSERT INTO members (organization_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)').run(
      other,
      both.user.id,
      null,
      t.clock.now().toISOString()
    )
    const sourceOnly = await t.user({ role: 'read' })
    db.prepare("INSERT INTO teams (id, organization_id, title, created_at) VALUES ('team-src', ?, 'Source team', ?)").run(
      t.orgId,
      t.clock.now().toISOString()
    )
    db.prepare("INSERT INTO teams (id, organization_id, title, created_at) VALUES ('team-dst', ?, 'Target team', ?)").run(
      other,
      t.clock.now().toISOString()
    )
    grantCollection(t, top.id, { user: both.user.id }, 'edit')
    grantCollection(t, top.id, { user: sourceOnly.user.id }, 'edit')
    grantCollection(t, nested.id, { user: sourceOnly.user.id }, 'admin')
    grantCollection(t, nested.id, { team: 'team-src' }, 'read')
    grantCollection(t, nested.id, { team: 'team-dst' }, 'read')
    repository(db, spaceRepository).setGrant(direct.id, 'user', sourceOnly.user.id, 'edit', t.clock.now().toISOString())
    repository(db, spaceRepository).setGrant(direct.id, 'user', both.user.id, 'comment', t.clock.now().toISOString())

    expect((await transfer(top.id, other)).status).toBe(200)
    const principals = (id: string) =>
      collectionGrants(t, id)
        .map((g) => `${g.principal_type}:${g.principal_id}:${g.role}`)
        .sort()
    expect(principals(top.id)).toEqual([`user:${both.user.id}:edit`, `user:${t.owner.user.id}:admin`].sort())
    expect(principals(nested.id)).toEqual(['team:team-dst:read', `user:${t.owner.user.id}:admin`].sort())
    const spaceGrants = repository(db, spaceRepository)
      .grants(direct.id)
      .map((g) => g.principal_id)
    expect(spaceGrants).toContain(both.user.id)
    expect(spaceGrants).not.toContain(sourceOnly.user.id)
    // The guest of the target sees the collection through the grant that survived.
    expect((await both.api.get(`/v1/orgs/${other}/collections`)).body.items.map((c: any) => c.id)).toEqual([top.id, nested.id])
  })

  it("drops values of the old organization's custom fields on the moved spaces", async () => {
    const { other, top, direct, stays } = await setup()
    await t.owner.api.post(`/v1/orgs/${t.orgId}/custom-fields`, { name: 'owner', type: 'text' })
    for (const s of [direct, stays]) {
      expect((await t.owner.api.patch(`/v1/spaces/${s.id}/custom-fields`, { values: { owner: { value: 'docs team' } } })).status).toBe(204)
    }
    await transfer(top.id, other)
    expect((await t.owner.api.get(`/v1/spaces/${direct.id}/custom-fields`)).body).toEqual([])
    expect((await t.owner.api.get(`/v1/spaces/${stays.id}/custom-fields`)).body).toHaveLength(1)
  })

  it('gives the transferring admin admin on the collection whatever their role in the target', async () => {
    const { other, top } = await setup()
    const mover = await t.user({ role: 'create' })
    t.server.api.services.db
      .prepare('INSERT INTO members (organization_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)')
      .run(other, mover.user.id, 'create', t.clock.now().toISOString())
    grantCollection(t, top.id, { user: mover.user.id }, 'admin')
    const res = await transfer(top.id, other, mover.api)
    expect(res.status).toBe(200)
    expect(res.body.permissions.admin).toBe(true)
  })

  it('checks the caller and the target, and changes nothing when refused', async () => {
    const { other, top, direct } = await setup()
    const cases: [unknown, number, string | RegExp][] = [
      [undefined, 400, 'organization: is required'],
      ['', 400, 'organization: must be at least 1 characters'],
      [42, 400, 'organization: must be string'],
      [t.orgId, 400, 'organization: the collection is already in this organization'],
      ['nope', 404, 'Organization not found']
    ]
    for (const [organization, status, message] of cases) {
      const res = await t.owner.api.post(`/v1/collections/${top.id}/transfer`, organization === undefined ? {} : { organization })
      expect(res.status, String(organization)).toBe(status)
      expect(res.body.error.message).toMatch(message)
    }
    // Admin on the collection but not a member of the target: 404; below create there: 403.
    const admin = await t.user({ role: 'admin' })
    expect((await transfer(top.id, other, admin.api)).status).toBe(404)
    for (const role of ['review', null] as const) {
      t.server.api.services.db
        .prepare('INSERT OR REPLACE INTO members (organization_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)')
        .run(other, admin.user.id, role, t.clock.now().toISOString())
      t.server.api.services.writes++
      expect((await transfer(top.id, other, admin.api)).status, String(role)).toBe(403)
    }
    // Create in the target but not admin on the collection: 403.
    const creator = await t.user({ role: 'create' })
    t.server.api.services.db
      .prepare('INSERT INTO members (organization_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)')
      .run(other, creator.user.id, 'admin', t.clock.now().toISOString())
    expect((await transfer(top.id, other, creator.api)).status).toBe(403)

    expect((await t.owner.api.get(`/v1/collections/${top.id}`)).body.organization).toBe(t.orgId)
    expect((await t.owner.api.get(`/v1/spaces/${direct.id}`)).body.organization).toBe(t.orgId)
    expect((await t.owner.api.get(`/v1/orgs/${other}/collections`)).body.count).toBe(0)
  })
})
