import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { createSpace } from '../collections/fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const base = () => `/v1/orgs/${t.orgId}/custom-fields`
async function createField(body: Record<string, unknown>, api = t.owner.api) {
  const res = await api.post(base(), body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}
const setValues = (spaceId: string, values: Record<string, unknown>) =>
  t.owner.api.patch(`/v1/spaces/${spaceId}/custom-fields`, {
    values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }]))
  })
const valuesOf = async (spaceId: string) =>
  Object.fromEntries((await t.owner.api.get(`/v1/spaces/${spaceId}/custom-fields`)).body.map((v: any) => [v.customField.name, v.value]))

function expectField(field: any) {
  expect(field).toMatchObject({
    id: expect.any(String),
    name: expect.stringMatching(/^[a-z_\-0-9]+$/),
    type: expect.stringMatching(/^(text|number|boolean|select|multi-select)$/),
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    urls: { location: expect.stringMatching(new RegExp(`/v1/orgs/${t.orgId}/custom-fields/${field.name}$`)) },
    permissions: { view: expect.any(Boolean), edit: expect.any(Boolean) }
  })
}

describe('authentication and roles', () => {
  it('answers 401 on every operation without a token', async () => {
    await createField({ name: 'owner', type: 'text' })
    const space = await createSpace(t)
    const calls = [
      t.anonymous.get(base()),
      t.anonymous.post(base(), { name: 'x', type: 'text' }),
      t.anonymous.get(`${base()}/owner`),
      t.anonymous.patch(`${base()}/owner`, { title: 'X' }),
      t.anonymous.delete(`${base()}/owner`),
      t.anonymous.get(`/v1/spaces/${space.id}/custom-fields`),
      t.anonymous.patch(`/v1/spaces/${space.id}/custom-fields`, { values: {} })
    ]
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: { code: 401, message: expect.any(String) } })
    }
  })

  it('hides the definitions from non-members (404) and guests (403), and answers 404 for unknown names', async () => {
    await createField({ name: 'owner', type: 'text' })
    const outsider = await t.user({ role: 'none' })
    const guest = await t.user({ role: null })
    for (const api of [outsider.api, guest.api]) {
      const expected = api === outsider.api ? 404 : 403
      for (const res of [
        await api.get(base()),
        await api.get(`${base()}/owner`),
        await api.post(base(), { name: 'mine', type: 'text' }),
        await api.patch(`${base()}/owner`, { title: 'Mine' }),
        await api.delete(`${base()}/owner`)
      ]) {
        expect(res.status).toBe(expected)
        expect(res.body.error.code).toBe(expected)
      }
    }
    expect((await t.owner.api.get('/v1/orgs/nope/custom-fields')).status).toBe(404)
    for (const res of [
      await t.owner.api.get(`${base()}/nope`),
      await t.owner.api.patch(`${base()}/nope`, { title: 'X' }),
      await t.owner.api.delete(`${base()}/nope`)
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toEqual({ code: 404, message: 'Custom field not found' })
    }
  })

  it('lets every non-guest member read the definitions and only admins change them', async () => {
    await createField({ name: 'owner', type: 'text', title: 'Owner' })
    for (const role of ['create', 'review', 'edit', 'comment', 'read'] as const) {
      const user = await t.user({ role })
      const got = await user.api.get(`${base()}/owner`)
      expect(got.status, role).toBe(200)
      expect(got.body.permissions).toEqual({ view: true, edit: false })
      expect((await user.api.get(base())).body.count).toBe(1)
      expect((await user.api.post(base(), { name: `by-${role}`, type: 'text' })).status, role).toBe(403)
      expect((await user.api.patch(`${base()}/owner`, { title: 'Hijacked' })).status, role).toBe(403)
      expect((await user.api.delete(`${base()}/owner`)).status, role).toBe(403)
    }
    const field = (await t.owner.api.get(`${base()}/owner`)).body
    expect(field).toMatchObject({ title: 'Owner', permissions: { view: true, edit: true } })
    expect((await t.owner.api.get(base())).body.count).toBe(1)
  })
})

describe('create', () => {
  it('creates a field of each type and reads it back', async () => {
    const text = await createField({
      name: 'owner',
      type: 'text',
      title: 'Owner',
      description: 'Who answers questions',
      placeholder: 'A team'
    })
    expectField(text)
    expect(text).toMatchObject({ type: 'text', title: 'Owner', description: 'Who answers questions', placeholder: 'A team' })
    expect(text).not.toHaveProperty('options')
    expect(text.createdAt).toBe(t.clock.now().toISOString())
    expect((await t.owner.api.get(`${base()}/owner`)).body).toEqual(text)

    for (const type of ['number', 'boolean']) {
      const field = await createField({ name: `f-${type}`, type })
      expect(field).toMatchObject({ name: `f-${type}`, type })
      expect(field).not.toHaveProperty('title')
    }
    const select = await createField({ name: 'tier', type: 'select', options: ['gold', 'silver'] })
    expect(select.options).toEqual(['gold', 'silver'])
    const multi = await createField({ name: 'audience_2', type: 'multi-select', options: ['devs'] })
    expect(multi).toMatchObject({ type: 'multi-select', options: ['devs'] })
    expect((await t.owner.api.get(base())).body.count).toBe(5)
  })

  it('accepts the limits exactly', async () => {
    const field = await createField({
      name: 'a'.repeat(50),
      type: 'select',
      title: 't'.repeat(100),
      description: 'd'.repeat(200),
      placeholder: 'p'.repeat(100),
      options: Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(100, 'x'))
    })
    expect(field.options).toHaveLength(50)
    await createField({ name: '_-0', type: 'text' })
  })

  it('validates each field, pattern, limit and enum (400), changing nothing', async () => {
    const cases: [unknown, string][] = [
      [{ type: 'text' }, 'name: is required'],
      [{ name: 'owner' }, 'type: is required'],
      [{ name: '', type: 'text' }, 'name: must be at least 1 characters'],
      [{ name: 'a'.repeat(51), type: 'text' }, 'name: must be at most 50 characters'],
      [{ name: 'Owner', type: 'text' }, 'name: must be lower-case letters, digits, - and _'],
      [{ name: 'the owner', type: 'text' }, 'name: must be lower-case letters, digits, - and _'],
      [{ name: 'a.b', type: 'text' }, 'name: must be lower-case letters, digits, - and _'],
      [{ name: 'x', type: 'date' }, 'type: must be one of: text, number, boolean, select, multi-select'],
      [{ name: 'x', type: 'text', title: 't'.repeat(101) }, 'title: must be at most 100 characters'],
      [{ name: 'x', type: 'text', description: 'd'.repeat(201) }, 'description: must be at most 200 characters'],
      [{ name: 'x', type: 'text', placeholder: 'p'.repeat(101) }, 'placeholder: must be at most 100 characters'],
      [{ name: 'x', type: 'select' }, 'options: is required for select fields'],
      [{ name: 'x', type: 'multi-select' }, 'options: is required for multi-select fields'],
      [{ name: 'x', type: 'select', options: [] }, 'options: must have at least 1 items'],
      [{ name: 'x', type: 'select', options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, 'options: must have at most 50 items'],
      [{ name: 'x', type: 'select', options: [''] }, 'options.0: must be at least 1 characters'],
      [{ name: 'x', type: 'select', options: ['ok', 'o'.repeat(101)] }, 'options.1: must be at most 100 characters'],
      [{ name: 'x', type: 'select', options: ['a', 'b', 'a'] }, 'options.2: a is repeated; options must be distinct'],
      [{ name: 'x', type: 'text', options: ['a'] }, 'options: only select and multi-select fields take options, not text'],
      [{ name: 'x', type: 'number', options: ['a'] }, 'options: only select and multi-select fields take options, not number'],
      [{ name: 'x', type: 'boolean', options: ['a'] }, 'options: only select and multi-select fields take options, not boolean'],
      [{ name: 'x', type: 'text', title: 5 }, 'title: must be string']
    ]
    for (const [body, message] of cases) {
      const res = await t.owner.api.post(base(), body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message })
    }
    expect((await t.owner.api.get(base())).body).toEqual({ count: 0, items: [] })
  })

  it('answers 409 for a name taken in the organization, and allows it in another one', async () => {
    const first = await createField({ name: 'owner', type: 'text', title: 'First' })
    const clash = await t.owner.api.post(base(), { name: 'owner', type: 'number' })
    expect(clash.status).toBe(409)
    expect(clash.body.error).toEqual({ code: 409, message: 'name: a custom field named owner already exists in this organization' })
    expect((await t.owner.api.get(`${base()}/owner`)).body).toEqual(first)

    const other = (await t.owner.api.post('/v1/orgs', { title: 'Other org' })).body.id
    expect((await t.owner.api.post(`/v1/orgs/${other}/custom-fields`, { name: 'owner', type: 'number' })).status).toBe(201)
    expect((await t.owner.api.get(`/v1/orgs/${other}/custom-fields/owner`)).body.type).toBe('number')
    expect((await t.owner.api.get(base())).body.count).toBe(1)
  })
})

describe('list', () => {
  it('pages through the fields of the organization only', async () => {
    const names = ['a', 'b', 'c', 'd', 'e']
    for (const name of names) await createField({ name, type: 'text' })
    const other = (await t.owner.api.post('/v1/orgs', { title: 'Other org' })).body.id
    await t.owner.api.post(`/v1/orgs/${other}/custom-fields`, { name: 'z', type: 'text' })

    const all = await t.owner.api.get(base())
    expect(all.status).toBe(200)
    expect(all.body.count).toBe(5)
    expect(all.body.next).toBeUndefined()
    for (const f of all.body.items) expectField(f)

    const { items, pages } = await walk(t.owner.api, base(), { limit: 2 })
    expect(items.map((f) => f.name)).toEqual(names)
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1])
    expect(pages.every((p) => p.count === 5)).toBe(true)
    expect(pages.at(-1).next).toBeUndefined()

    expect((await t.owner.api.get(base(), { limit: 1001 })).body.error.message).toBe('limit: must be at most 1000')
    expect((await t.owner.api.get(base(), { limit: 0 })).status).toBe(400)
    expect((await t.owner.api.get(base(), { page: 'garbage' })).status).toBe(400)
  })
})

describe('update', () => {
  it('updates title, description, placeholder and options; null clears; updatedAt moves', async () => {
    const field = await createField({ name: 'tier', type: 'select', title: 'Tier', description: 'Support tier', options: ['gold'] })
    t.clock.advance(60_000)
    const res = await t.owner.api.patch(`${base()}/tier`, {
      title: 'T'.repeat(100),
      placeholder: 'P'.repeat(100),
      options: ['gold', 'silver']
    })
    expect(res.status).toBe(200)
    expectField(res.body)
    expect(res.body).toMatchObject({
      id: field.id,
      name: 'tier',
      type: 'select',
      title: 'T'.repeat(100),
      description: 'Support tier',
      placeholder: 'P'.repeat(100),
      options: ['gold', 'silver']
    })
    expect(res.body.createdAt).toBe(field.createdAt)
    expect(res.body.updatedAt).toBe(t.clock.now().toISOString())

    const cleared = await t.owner.api.patch(`${base()}/tier`, { title: null, description: null, placeholder: null })
    expect(cleared.body).not.toHaveProperty('title')
    expect(cleared.body).not.toHaveProperty('description')
    expect(cleared.body).not.toHaveProperty('placeholder')
    expect((await t.owner.api.get(`${base()}/tier`)).body).toEqual(cleared.body)
  })

  it('refuses a type change and invalid values, changing nothing', async () => {
    const field = await createField({ name: 'owner', type: 'text', title: 'Owner' })
    await createField({ name: 'tier', type: 'select', options: ['gold'] })
    const cases: [string, unknown, string][] = [
      ['owner', { type: 'number' }, 'type: cannot be changed'],
      ['owner', { type: 'text', title: 'Still text' }, 'type: cannot be changed'],
      ['owner', { title: 't'.repeat(101) }, 'title: must be at most 100 characters'],
      ['owner', { description: 'd'.repeat(201) }, 'description: must be at most 200 characters'],
      ['owner', { placeholder: 'p'.repeat(101) }, 'placeholder: must be at most 100 characters'],
      ['owner', { options: ['a'] }, 'options: only select and multi-select fields take options, not text'],
      ['tier', { options: [] }, 'options: must have at least 1 items'],
      ['tier', { options: null }, 'options: must be array'],
      ['owner', { title: 5 }, 'title: must be string or null'],
      ['tier', { options: ['gold', 'gold'] }, 'options.1: gold is repeated; options must be distinct'],
      ['tier', { options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, 'options: must have at most 50 items']
    ]
    for (const [name, body, message] of cases) {
      const res = await t.owner.api.patch(`${base()}/${name}`, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message })
    }
    expect((await t.owner.api.get(`${base()}/owner`)).body).toEqual(field)
    expect((await t.owner.api.get(`${base()}/tier`)).body.options).toEqual(['gold'])
  })

  it('removes values that use options taken away', async () => {
    await createField({ name: 'tier', type: 'select', options: ['gold', 'silver', 'bronze'] })
    await createField({ name: 'audience', type: 'multi-select', options: ['devs', 'ops', 'sales'] })
    const [a, b, c] = [await createSpace(t), await createSpace(t), await createSpace(t)]
    expect((await setValues(a.id, { tier: 'gold', audience: ['devs', 'ops'] })).status).toBe(204)
    expect((await setValues(b.id, { tier: 'silver', audience: ['ops'] })).status).toBe(204)
    expect((await setValues(c.id, { tier: 'bronze', audience: ['sales', 'devs'] })).status).toBe(204)

    expect((await t.owner.api.patch(`${base()}/tier`, { options: ['gold', 'bronze', 'platinum'] })).status).toBe(200)
    expect((await t.owner.api.patch(`${base()}/audience`, { options: ['devs', 'sales'] })).status).toBe(200)
    expect(await valuesOf(a.id)).toEqual({ tier: 'gold', audience: ['devs'] })
    expect(await valuesOf(b.id)).toEqual({})
    expect(await valuesOf(c.id)).toEqual({ tier: 'bronze', audience: ['sales', 'devs'] })
  })
})

describe('delete', () => {
  it('deletes the field and its values, and the name can be reused', async () => {
    await createField({ name: 'owner', type: 'text' })
    await createField({ name: 'keep', type: 'boolean' })
    const space = await createSpace(t)
    await setValues(space.id, { owner: 'docs', keep: true })

    const res = await t.owner.api.delete(`${base()}/owner`)
    expect(res.status).toBe(204)
    expect(res.body).toBeUndefined()
    expect((await t.owner.api.get(`${base()}/owner`)).status).toBe(404)
    expect((await t.owner.api.get(base())).body.items.map((f: any) => f.name)).toEqual(['keep'])
    expect(await valuesOf(space.id)).toEqual({ keep: true })

    await createField({ name: 'owner', type: 'text' })
    expect(await valuesOf(space.id)).toEqual({ keep: true })
    expect((await t.owner.api.delete(`${base()}/owner`)).status).toBe(204)
    expect((await t.owner.api.delete(`${base()}/owner`)).status).toBe(404)
  })

  it('changes nothing when refused', async () => {
    await createField({ name: 'owner', type: 'text' })
    const space = await createSpace(t)
    await setValues(space.id, { owner: 'docs' })
    const creator = await t.user({ role: 'create' })
    expect((await creator.api.delete(`${base()}/owner`)).status).toBe(403)
    expect((await t.owner.api.get(`${base()}/owner`)).status).toBe(200)
    expect(await valuesOf(space.id)).toEqual({ owner: 'docs' })
  })
})
