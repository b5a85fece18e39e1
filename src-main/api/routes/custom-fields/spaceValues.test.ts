import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { createCollection, createSpace, grantCollection } from '../collections/fixtures'

let t: TestServer
let spaceId: string
beforeEach(async () => {
  t = await startTestServer()
  const fields = [
    { name: 'owner', type: 'text', title: 'Owner' },
    { name: 'score', type: 'number' },
    { name: 'public', type: 'boolean' },
    { name: 'tier', type: 'select', options: ['gold', 'silver'] },
    { name: 'audience', type: 'multi-select', options: ['devs', 'ops', 'sales'] }
  ]
  for (const f of fields) expect((await t.owner.api.post(`/v1/orgs/${t.orgId}/custom-fields`, f)).status).toBe(201)
  spaceId = (await createSpace(t, { title: 'Handbook' })).id
})
afterEach(() => t.close())

const path = (id = spaceId) => `/v1/spaces/${id}/custom-fields`
const body = (values: Record<string, unknown>) => ({
  values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }]))
})
const patch = (values: Record<string, unknown>, api = t.owner.api, id = spaceId) => api.patch(path(id), body(values))
const current = async (id = spaceId) => {
  const res = await t.owner.api.get(path(id))
  expect(res.status).toBe(200)
  return Object.fromEntries(res.body.map((v: any) => [v.customField.name, v.value]))
}

describe('authorization', () => {
  it('answers 404 for unknown and deleted spaces, non-members and guests without access', async () => {
    const outsider = await t.user({ role: 'none' })
    const guest = await t.user({ role: null })
    for (const res of [
      await t.owner.api.get(path('nope')),
      await patch({ owner: 'x' }, t.owner.api, 'nope'),
      await outsider.api.get(path()),
      await patch({ owner: 'x' }, outsider.api),
      await guest.api.get(path()),
      await patch({ owner: 'x' }, guest.api)
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toEqual({ code: 404, message: 'Space not found' })
    }
    const gone = await createSpace(t)
    await patch({ owner: 'before' }, t.owner.api, gone.id)
    expect((await t.owner.api.delete(`/v1/spaces/${gone.id}`)).status).toBe(205)
    expect((await t.owner.api.get(path(gone.id))).status).toBe(404)
    expect((await patch({ owner: 'after' }, t.owner.api, gone.id)).status).toBe(404)
    await t.owner.api.post(`/v1/spaces/${gone.id}/restore`)
    expect(await current(gone.id)).toEqual({ owner: 'before' })
  })

  it('lets readers read and needs edit on the space to write (403 below), changing nothing', async () => {
    await patch({ owner: 'docs' })
    for (const role of ['read', 'comment'] as const) {
      const user = await t.user({ role })
      const got = await user.api.get(path())
      expect(got.status).toBe(200)
      expect(got.body).toHaveLength(1)
      const denied = await patch({ owner: role }, user.api)
      expect(denied.status, role).toBe(403)
      expect(denied.body.error.code).toBe(403)
    }
    expect(await current()).toEqual({ owner: 'docs' })
    for (const role of ['edit', 'review', 'create'] as const) {
      const user = await t.user({ role })
      expect((await patch({ owner: role }, user.api)).status, role).toBe(204)
      expect(await current()).toEqual({ owner: role })
    }
  })

  it('follows roles inherited from a collection (guest with a grant)', async () => {
    const c = await createCollection(t)
    const inside = await createSpace(t, { parent: c.id })
    const guest = await t.user({ role: null })
    grantCollection(t, c.id, { user: guest.user.id }, 'read')
    expect((await guest.api.get(path(inside.id))).status).toBe(200)
    expect((await patch({ owner: 'guest' }, guest.api, inside.id)).status).toBe(403)
    grantCollection(t, c.id, { user: guest.user.id }, 'edit')
    expect((await patch({ owner: 'guest' }, guest.api, inside.id)).status).toBe(204)
    const got = await guest.api.get(path(inside.id))
    expect(got.body[0]).toMatchObject({ value: 'guest', customField: { name: 'owner', permissions: { view: false, edit: false } } })
  })

  it('refuses writes on a locked space', async () => {
    expect((await t.owner.api.patch(`/v1/spaces/${spaceId}`, { editMode: 'locked' })).status).toBe(200)
    const res = await patch({ owner: 'docs' })
    expect(res.status).toBe(403)
    expect(res.body.error.message).toMatch(/locked/)
    expect(await current()).toEqual({})
  })
})

describe('values', () => {
  it('sets a value of each type and lists only the fields that have one, in field order', async () => {
    expect((await t.owner.api.get(path())).body).toEqual([])
    const before = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.updatedAt
    t.clock.advance(60_000)
    const res = await patch({ audience: ['ops', 'devs'], owner: 'o'.repeat(256), score: -2.5, public: false, tier: 'silver' })
    expect(res.status).toBe(204)
    expect(res.body).toBeUndefined()

    const got = await t.owner.api.get(path())
    expect(got.status).toBe(200)
    expect(got.body.map((v: any) => v.customField.name)).toEqual(['owner', 'score', 'public', 'tier', 'audience'])
    expect(got.body[0]).toEqual({
      customField: {
        id: expect.any(String),
        name: 'owner',
        type: 'text',
        title: 'Owner',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        urls: { location: expect.stringMatching(new RegExp(`/v1/orgs/${t.orgId}/custom-fields/owner$`)) },
        permissions: { view: true, edit: true }
      },
      value: 'o'.repeat(256)
    })
    expect(await current()).toEqual({ owner: 'o'.repeat(256), score: -2.5, public: false, tier: 'silver', audience: ['ops', 'devs'] })
    const after = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.updatedAt
    expect(after).not.toBe(before)
    expect(after).toBe(t.clock.now().toISOString())

    await patch({ score: 0, owner: '' })
    expect(await current()).toMatchObject({ score: 0, owner: '' })
  })

  it('removes a value with null (and a multi-select with no option), leaving the others', async () => {
    await patch({ owner: 'docs', tier: 'gold', audience: ['devs'] })
    expect((await patch({ owner: null, audience: [] })).status).toBe(204)
    expect(await current()).toEqual({ tier: 'gold' })
    expect((await patch({ owner: null })).status).toBe(204)
    expect((await patch({})).status).toBe(204)
    expect(await current()).toEqual({ tier: 'gold' })
  })

  it('keeps the values of each space apart', async () => {
    const other = await createSpace(t)
    await patch({ owner: 'first' })
    await patch({ owner: 'second', score: 2 }, t.owner.api, other.id)
    expect(await current()).toEqual({ owner: 'first' })
    expect(await current(other.id)).toEqual({ owner: 'second', score: 2 })
  })

  it('checks each value against its field (400 naming it), all or nothing', async () => {
    await patch({ owner: 'kept', tier: 'gold' })
    const cases: [Record<string, unknown>, string][] = [
      [{ owner: 'o'.repeat(257) }, 'values.owner.value: must be a string of at most 256 characters'],
      [{ owner: 5 }, 'values.owner.value: must be a string of at most 256 characters'],
      [{ owner: ['a'] }, 'values.owner.value: must be a string of at most 256 characters'],
      [{ score: '5' }, 'values.score.value: must be a number'],
      [{ score: true }, 'values.score.value: must be a number'],
      [{ public: 'true' }, 'values.public.value: must be a boolean'],
      [{ public: 1 }, 'values.public.value: must be a boolean'],
      [{ tier: 'platinum' }, 'values.tier.value: must be one of: gold, silver'],
      [{ tier: ['gold'] }, 'values.tier.value: must be one of: gold, silver'],
      [{ audience: 'devs' }, 'values.audience.value: must be an array of distinct values from: devs, ops, sales'],
      [{ audience: ['devs', 'devs'] }, 'values.audience.value: must be an array of distinct values from: devs, ops, sales'],
      [{ audience: ['devs', 'hr'] }, 'values.audience.value: must be an array of distinct values from: devs, ops, sales'],
      [{ audience: [1] }, 'values.audience.value: must be an array of distinct values from: devs, ops, sales'],
      [{ nope: 'x' }, 'values.nope: no custom field named nope in this organization'],
      // A valid value beside a bad one is not written either.
      [{ owner: 'changed', score: 'bad' }, 'values.score.value: must be a number'],
      [{ tier: 'silver', unknown_field: 1 }, 'values.unknown_field: no custom field named unknown_field in this organization']
    ]
    for (const [values, message] of cases) {
      const res = await patch(values)
      expect(res.status, JSON.stringify(values)).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message })
    }
    expect(await current()).toEqual({ owner: 'kept', tier: 'gold' })
  })

  it('validates the body shape', async () => {
    const cases: [unknown, string][] = [
      [{}, 'values: is required'],
      [{ values: [] }, 'values: must be object'],
      [{ values: { owner: 'bare' } }, 'values.owner: must be object'],
      [{ values: { owner: {} } }, 'values.owner.value: is required']
    ]
    for (const [b, message] of cases) {
      const res = await t.owner.api.patch(path(), b)
      expect(res.status, JSON.stringify(b)).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message })
    }
    expect(await current()).toEqual({})
  })

  it("only knows the fields of the space's organization", async () => {
    const other = (await t.owner.api.post('/v1/orgs', { title: 'Other org' })).body.id
    await t.owner.api.post(`/v1/orgs/${other}/custom-fields`, { name: 'elsewhere', type: 'text' })
    const res = await patch({ elsewhere: 'x' })
    expect(res.body.error).toEqual({ code: 400, message: 'values.elsewhere: no custom field named elsewhere in this organization' })
  })
})
