import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { createSite, createSpace } from '../sites/fixtures'
import { manifest, otherAdmin, publish } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const SCHEMA = {
  configurations: {
    space: { properties: { channel: { type: 'string' }, notify: { type: 'boolean' } }, required: ['channel'] },
    site: { properties: { trackingId: { type: 'string' }, sampling: { type: 'number', enum: [10, 100] } }, required: ['trackingId'] }
  }
}

async function setUp(extra: Record<string, unknown> = {}) {
  await publish(t.owner.api, 'slack', manifest(t.orgId, { ...SCHEMA, ...extra }))
  const res = await t.owner.api.post('/v1/integrations/slack/installations', { organization: t.orgId })
  expect(res.status).toBe(201)
  return `/v1/integrations/slack/installations/${res.body.id}`
}

describe('installations on spaces', () => {
  it('installs on spaces (pending until configured), lists them page by page, updates, uninstalls', async () => {
    const base = await setUp()
    const spaces = [await createSpace(t, 'A'), await createSpace(t, 'B'), await createSpace(t, 'C')]
    const first = await t.owner.api.post(`${base}/spaces`, { space: spaces[0]!.id })
    expect(first.status).toBe(201)
    expect(first.body).toEqual({
      integration: 'slack',
      installation: base.split('/').at(-1),
      space: spaces[0]!.id,
      status: 'pending',
      configuration: {},
      externalIds: [],
      urls: { location: `${t.url}${base}/spaces/${spaces[0]!.id}` },
      createdAt: expect.any(String),
      updatedAt: expect.any(String)
    })
    for (const space of spaces.slice(1)) {
      const res = await t.owner.api.post(`${base}/spaces`, { space: space.id, configuration: { channel: '#' + space.title } })
      expect(res.body.status).toBe('active')
    }
    expect((await t.owner.api.post(`${base}/spaces`, { space: spaces[1]!.id })).status).toBe(409)

    const { items, pages } = await walk(t.owner.api, `${base}/spaces`, { limit: 2 })
    expect(items.map((i) => i.space)).toEqual(spaces.map((s) => s.id))
    expect(pages.map((p) => p.count)).toEqual([3, 3])
    expect((await t.owner.api.get(base)).body.spaces).toBe(3)

    const one = `${base}/spaces/${spaces[0]!.id}`
    for (const [configuration, message] of [
      [{ notify: true }, 'configuration.channel: is required'],
      [{ channel: '#a', notify: 'yes' }, 'configuration.notify: must be boolean']
    ] as const) {
      expect((await t.owner.api.patch(one, { configuration })).body).toEqual({ error: { code: 400, message } })
    }
    const updated = await t.owner.api.patch(one, { configuration: { channel: '#docs', notify: true } })
    expect(updated.body).toMatchObject({ status: 'active', configuration: { channel: '#docs', notify: true } })
    expect((await t.owner.api.get(one)).body).toEqual(updated.body)

    // A space in the trash is not counted nor listed.
    expect((await t.owner.api.delete(`/v1/spaces/${spaces[2]!.id}`)).status).toBe(205)
    expect((await t.owner.api.get(`${base}/spaces`)).body.count).toBe(2)
    expect((await t.owner.api.get(base)).body.spaces).toBe(2)

    expect((await t.owner.api.delete(one)).status).toBe(204)
    expect((await t.owner.api.get(one)).status).toBe(404)
    expect((await t.owner.api.delete(one)).status).toBe(404)
    expect((await t.owner.api.get(`${base}/spaces`)).body.items.map((i: { space: string }) => i.space)).toEqual([spaces[1]!.id])
  })

  it('lets space admins install on their space only (403 below admin), refuses other organizations\u2019 spaces and unknown ones', async () => {
    const base = await setUp()
    const space = await createSpace(t, 'Mine')
    const other = await createSpace(t, 'Other')
    const editor = await t.user({ role: 'edit' })
    expect((await editor.api.post(`${base}/spaces`, { space: space.id })).status).toBe(403)
    const grant = await t.owner.api.post(`/v1/spaces/${space.id}/permissions`, { role: 'admin', users: [editor.user.id] })
    expect(grant.status).toBe(204)
    expect((await editor.api.post(`${base}/spaces`, { space: space.id, configuration: { channel: '#x' } })).status).toBe(201)
    expect((await editor.api.patch(`${base}/spaces/${space.id}`, { configuration: { channel: '#y' } })).status).toBe(200)
    expect((await editor.api.post(`${base}/spaces`, { space: other.id })).status).toBe(403)
    expect((await t.owner.api.post(`${base}/spaces`, { space: other.id })).status).toBe(201)
    expect((await editor.api.delete(`${base}/spaces/${other.id}`)).status).toBe(403)
    // The organization installation itself stays the organization admins'.
    expect((await editor.api.delete(base)).status).toBe(403)

    expect((await t.owner.api.post(`${base}/spaces`, { space: 'nope' })).status).toBe(404)
    expect((await t.owner.api.post(`${base}/spaces`, {})).body).toEqual({ error: { code: 400, message: 'space: is required' } })
    const second = await t.owner.api.post('/v1/orgs', { title: 'Second' })
    const elsewhere = await t.owner.api.post(`/v1/orgs/${second.body.id}/spaces`, { title: 'Far' })
    const refused = await t.owner.api.post(`${base}/spaces`, { space: elsewhere.body.id })
    expect(refused.body).toEqual({
      error: { code: 400, message: `space: ${elsewhere.body.id} is not in the organization the integration is installed in` }
    })
    const vendor = await otherAdmin(t)
    expect((await vendor.api.get(`${base}/spaces`)).status).toBe(404)
    expect((await t.owner.api.get(`${base}/spaces/${space.id}x`)).status).toBe(404)
  })

  it('refuses spaces for an integration that installs on sites only (400)', async () => {
    const base = await setUp({ target: 'site' })
    const space = await createSpace(t)
    expect((await t.owner.api.post(`${base}/spaces`, { space: space.id })).body).toEqual({
      error: { code: 400, message: 'space: slack installs on sites only' }
    })
  })
})

describe('installations on sites', () => {
  it('installs on a site, checks its site configuration, and goes with the organization installation', async () => {
    const base = await setUp()
    const site = await createSite(t)
    const res = await t.owner.api.post(`${base}/sites`, { site: site.id, configuration: { sampling: 10 } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ integration: 'slack', site: site.id, status: 'pending', configuration: { sampling: 10 } })
    const bad = await t.owner.api.post(`${base}/sites`, { site: (await createSite(t)).id, configuration: { sampling: 50 } })
    expect(bad.body).toEqual({ error: { code: 400, message: 'configuration.sampling: must be one of 10, 100' } })
    const one = `${base}/sites/${site.id}`
    expect((await t.owner.api.patch(one, { configuration: { trackingId: 'G-1', sampling: 100 } })).body.status).toBe('active')
    expect((await walk(t.owner.api, `${base}/sites`)).items.map((i) => i.site)).toEqual([site.id])

    // Managing sites needs the create role in the organization.
    const editor = await t.user({ role: 'edit' })
    expect((await editor.api.patch(one, { configuration: { trackingId: 'G-2' } })).status).toBe(403)
    expect((await editor.api.get(one)).status).toBe(200)
    expect((await editor.api.delete(one)).status).toBe(403)
    expect((await t.owner.api.post(`${base}/sites`, { site: 'nope' })).status).toBe(404)

    // Uninstalled from the site: gone from the list, and again answers 404.
    expect((await t.owner.api.delete(one)).status).toBe(204)
    expect((await t.owner.api.get(one)).status).toBe(404)
    expect((await walk(t.owner.api, `${base}/sites`)).items).toEqual([])
    expect((await t.owner.api.delete(one)).status).toBe(404)
    expect((await t.owner.api.post(`${base}/sites`, { site: site.id })).status).toBe(201)

    const space = await createSpace(t)
    expect((await t.owner.api.post(`${base}/spaces`, { space: space.id })).status).toBe(201)
    expect((await t.owner.api.delete(base)).status).toBe(204)
    expect((await t.owner.api.get(one)).status).toBe(404)
    expect((await t.owner.api.get(`${base}/spaces`)).status).toBe(404)
  })
})
