import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { AUDIT_ROUTES, UNRECORDED_ROUTES } from '../../../workspace/auditActions'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(async () => {
  await t.close()
})

const events = (query: Record<string, unknown> = {}) => t.owner.api.get(`/v1/orgs/${t.orgId}/audit-events`, query)
/** The owner's events: the organization also holds what the workspace's setup recorded (below). */
const ownerEvents = (query: Record<string, unknown> = {}) => events({ actor: t.owner.user.id, ...query })

describe('recording', () => {
  it('records each write with who, when, what and the small fields it changed; reads record nothing', async () => {
    const spaceId = await t.emptySpace('Guides')
    t.clock.advance(1000)
    expect((await t.owner.api.patch(`/v1/spaces/${spaceId}`, { title: 'Handbook', emoji: '1f4d8' })).status).toBe(200)
    await t.owner.api.get(`/v1/spaces/${spaceId}`)

    const list = await ownerEvents()
    expect(list.status).toBe(200)
    expect(list.body.count).toBe(2)
    const [updated, created] = list.body.items
    expect(created).toMatchObject({
      object: 'audit-event',
      occurredAt: '2026-03-01T10:00:00.000Z',
      action: 'space.created',
      actor: { type: 'user', id: t.owner.user.id, label: t.owner.user.display_name },
      source: 'api',
      target: { type: 'space', id: spaceId, label: 'Guides' }
    })
    expect(updated).toMatchObject({
      action: 'space.updated',
      occurredAt: '2026-03-01T10:00:01.000Z',
      target: { type: 'space', id: spaceId, label: 'Handbook' }
    })
    expect(updated.urls.location).toBe(`${t.url}/v1/orgs/${t.orgId}/audit-events/${updated.id}`)

    const detail = await t.owner.api.get(`/v1/orgs/${t.orgId}/audit-events/${updated.id}`)
    expect(detail.status).toBe(200)
    expect(detail.body).toMatchObject({
      ...updated,
      schemaVersion: 1,
      payload: { before: { title: 'Guides', emoji: '' }, after: { title: 'Handbook', emoji: '1f4d8' } }
    })
  })

  it('records a role change with its before and after, in the member’s organization', async () => {
    const editor = await t.user({ role: 'edit' })
    expect((await t.owner.api.patch(`/v1/orgs/${t.orgId}/members/${editor.user.id}`, { role: 'review' })).status).toBe(200)
    const [event] = (await events({ action: 'member.updated' })).body.items
    expect(event.target).toEqual({ type: 'member', id: editor.user.id, label: editor.user.display_name })
    const detail = await t.owner.api.get(`/v1/orgs/${t.orgId}/audit-events/${event.id}`)
    expect(detail.body.payload).toEqual({ before: { role: 'edit' }, after: { role: 'review' } })
  })

  it('finds the organization and label of a target the write removes', async () => {
    const created = await t.owner.api.post(`/v1/orgs/${t.orgId}/collections`, { title: 'Archive' })
    expect(created.status).toBe(201)
    expect((await t.owner.api.delete(`/v1/collections/${created.body.id}`)).status).toBe(205)
    const [deleted] = (await events({ action: 'collection.deleted' })).body.items
    expect(deleted.target).toEqual({ type: 'collection', id: created.body.id, label: 'Archive' })
  })

  it('records nothing when the write fails, even after its event was written', async () => {
    const spaceId = await t.emptySpace('Guides')
    const services = t.server.api.services
    // The journal runs after the event is inserted, in the same transaction; throwing there undoes both.
    services.journal = () => {
      throw new Error('fails after the event')
    }
    const failed = await t.owner.api.patch(`/v1/spaces/${spaceId}`, { title: 'Never' })
    expect(failed.status).toBe(500)
    services.journal = undefined
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.title).toBe('Guides')
    const list = await ownerEvents()
    expect(list.body.items.map((e: any) => e.action)).toEqual(['space.created'])
  })

  it('records nothing for a refused write', async () => {
    const reader = await t.user({ role: 'read' })
    const spaceId = await t.emptySpace()
    expect((await reader.api.patch(`/v1/spaces/${spaceId}`, { title: 'No' })).status).toBe(403)
    expect((await events({ actor: reader.user.id })).body.count).toBe(0)
    expect((await ownerEvents()).body.count).toBe(1)
  })

  it('records nothing where audit is off (a connected workspace’s copy)', async () => {
    t.server.api.services.audit = false
    await t.emptySpace()
    t.server.api.services.audit = undefined
    expect((await ownerEvents()).body.count).toBe(0)
  })
})

describe('the action table', () => {
  it('names every write route of the API, or says it records nothing; and names no route that does not exist', () => {
    const unrecorded = new Set(UNRECORDED_ROUTES)
    const writes = t.server.api.routeTable
      .routes()
      .filter((r) => r.pattern.startsWith('/v1/') && !['GET', 'HEAD', 'OPTIONS'].includes(r.method))
      .map((r) => `${r.method} ${r.pattern}`)
    expect(writes.filter((w) => !AUDIT_ROUTES.has(w) && !unrecorded.has(w))).toEqual([])
    expect([...AUDIT_ROUTES.keys()].filter((k) => !writes.includes(k))).toEqual([])
  })
})

describe('the list', () => {
  it('filters by actor, action, target and time range', async () => {
    const admin = await t.user({ role: 'admin' })
    const a = await t.emptySpace('A')
    t.clock.advance(60_000)
    const b = (await admin.api.post(`/v1/orgs/${t.orgId}/spaces`, { title: 'B', empty: true })).body.id
    t.clock.advance(60_000)
    await t.owner.api.patch(`/v1/spaces/${a}`, { title: 'A2' })

    const ids = async (query: Record<string, unknown>) =>
      (await events(query)).body.items.filter((e: any) => e.actor.type === 'user').map((e: any) => `${e.action} ${e.target.id}`)
    expect(await ids({ actor: admin.user.id })).toEqual([`space.created ${b}`])
    expect(await ids({ action: 'space.created' })).toEqual([`space.created ${b}`, `space.created ${a}`])
    expect(await ids({ target: a })).toEqual([`space.updated ${a}`, `space.created ${a}`])
    expect(await ids({ from: '2026-03-01T10:01:00.000Z' })).toEqual([`space.updated ${a}`, `space.created ${b}`])
    expect(await ids({ to: '2026-03-01T11:01:00+01:00' })).toEqual([`space.created ${b}`, `space.created ${a}`])
    expect(
      await ids({ from: '2026-03-01T10:00:30Z', to: '2026-03-01T10:01:30Z', action: 'space.created', actor: admin.user.id, target: b })
    ).toEqual([`space.created ${b}`])
    expect((await events({ target: a })).body.count).toBe(2)
    expect((await events({ from: 'yesterday' })).status).toBe(400)
  })

  it('pages newest first with a keyset cursor, events of one instant included', async () => {
    for (let i = 0; i < 5; i++) await t.emptySpace(`S${i}`)
    t.clock.advance(1000)
    for (let i = 5; i < 7; i++) await t.emptySpace(`S${i}`)
    const { items, pages } = await walk(t.owner.api, `/v1/orgs/${t.orgId}/audit-events`, { limit: 2, actor: t.owner.user.id })
    expect(pages).toHaveLength(4)
    expect(items.map((e) => e.target.label)).toEqual(['S6', 'S5', 'S4', 'S3', 'S2', 'S1', 'S0'])
    expect(pages[0].count).toBe(7)
    expect((await ownerEvents()).body.items).toHaveLength(7)
    expect((await events({ page: 'nonsense' })).status).toBe(400)
    expect((await events({ limit: 101 })).status).toBe(400)
  })

  it('lists the recorded actions with their labels', async () => {
    const res = await t.owner.api.get(`/v1/orgs/${t.orgId}/audit-event-actions`)
    expect(res.status).toBe(200)
    expect(res.body.items).toContainEqual({ object: 'audit-event-action', id: 'space.updated', label: 'Space updated' })
    const ids = res.body.items.map((a: any) => a.id)
    expect(new Set(ids).size).toBe(ids.length)
  })
})

describe('access', () => {
  it('is for organization admins only', async () => {
    await t.emptySpace()
    const event = (await events()).body.items[0]
    for (const role of ['create', 'read', null] as const) {
      const other = await t.user({ role })
      expect((await other.api.get(`/v1/orgs/${t.orgId}/audit-events`)).status).toBe(403)
      expect((await other.api.get(`/v1/orgs/${t.orgId}/audit-events/${event.id}`)).status).toBe(403)
      expect((await other.api.get(`/v1/orgs/${t.orgId}/audit-event-actions`)).status).toBe(403)
    }
    const outsider = await t.user({ role: 'none' })
    expect((await outsider.api.get(`/v1/orgs/${t.orgId}/audit-events`)).status).toBe(404)
    expect((await t.anonymous.get(`/v1/orgs/${t.orgId}/audit-events`)).status).toBe(401)
  })

  it('answers 404 for an unknown event or one of another organization', async () => {
    const res = await t.owner.api.get(`/v1/orgs/${t.orgId}/audit-events/00000000-0000-4000-8000-000000000000`)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: { code: 404, message: 'Audit event not found' } })
    const other = await t.owner.api.post('/v1/orgs', { title: 'Other' })
    expect(other.status).toBe(201)
    const [created] = (await t.owner.api.get(`/v1/orgs/${other.body.id}/audit-events`)).body.items
    expect(created).toMatchObject({ action: 'organization.created', target: { type: 'organization', id: other.body.id, label: 'Other' } })
    expect((await events({ target: other.body.id })).body.count).toBe(0)
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/audit-events/${created.id}`)).status).toBe(404)
  })
})
