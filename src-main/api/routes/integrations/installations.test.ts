import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { manifest, otherAdmin, publish } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const CONFIGURED = {
  configurations: { account: { properties: { channel: { type: 'string' }, token: { type: 'string' } }, required: ['channel'] } }
}

describe('POST /v1/integrations/{integrationName}/installations (Quire extension)', () => {
  it('installs into an organization the caller administers: 201, pending until the required configuration is set', async () => {
    await publish(t.owner.api, 'slack', manifest(t.orgId, CONFIGURED))
    const vendor = await otherAdmin(t)
    const res = await vendor.api.post('/v1/integrations/slack/installations', { organization: vendor.orgId, externalIds: ['T123'] })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.any(String),
      status: 'pending',
      space_selection: 'selected',
      site_selection: 'selected',
      spaces: 0,
      configuration: {},
      externalIds: ['T123'],
      target: { organization: vendor.orgId },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/)
    })
    const own = await t.owner.api.post('/v1/integrations/slack/installations', { organization: t.orgId, configuration: { channel: '#docs' } })
    expect(own.status).toBe(201)
    expect(own.body).toMatchObject({ status: 'active', configuration: { channel: '#docs' } })
  })

  it('refuses a second installation (409), non-admins (403), unseen integrations (404) and private ones elsewhere (403)', async () => {
    await publish(t.owner.api, 'slack', manifest(t.orgId))
    await publish(t.owner.api, 'secret', manifest(t.orgId, { visibility: 'private' }))
    expect((await t.owner.api.post('/v1/integrations/slack/installations', { organization: t.orgId })).status).toBe(201)
    const again = await t.owner.api.post('/v1/integrations/slack/installations', { organization: t.orgId })
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe(409)

    const editor = await t.user({ role: 'edit' })
    const denied = await editor.api.post('/v1/integrations/secret/installations', { organization: t.orgId })
    expect(denied.status).toBe(403)
    expect(denied.body.error.code).toBe(403)

    const vendor = await otherAdmin(t)
    expect((await vendor.api.post('/v1/integrations/secret/installations', { organization: vendor.orgId })).status).toBe(404)
    expect((await vendor.api.post('/v1/integrations/nope/installations', { organization: vendor.orgId })).status).toBe(404)
    expect((await vendor.api.post('/v1/integrations/slack/installations', { organization: t.orgId })).status).toBe(403)
    const second = await t.owner.api.post('/v1/orgs', { title: 'Second' })
    const elsewhere = await t.owner.api.post('/v1/integrations/secret/installations', { organization: second.body.id })
    expect(elsewhere.status).toBe(403)
    expect(elsewhere.body.error.message).toContain('private')
    for (const [body, message] of [
      [{}, 'organization: is required'],
      [{ organization: t.orgId, externalIds: ['a', 'a'] }, 'externalIds: must NOT have duplicate items (items ## 1 and 0 are identical)'],
      [{ organization: t.orgId, configuration: 'x' }, 'configuration: must be object']
    ] as const) {
      const res = await t.owner.api.post('/v1/integrations/secret/installations', body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: { code: 400, message } })
    }
    expect((await t.owner.api.get('/v1/integrations/secret/installations')).body.count).toBe(0)
  })
})

describe('GET /v1/integrations/{integrationName}/installations', () => {
  it('lists installations to admins of the owner organization only, filtered by externalId', async () => {
    await publish(t.owner.api, 'slack', manifest(t.orgId))
    const vendors = [await otherAdmin(t), await otherAdmin(t), await otherAdmin(t)]
    const externalIds = [['T1', 'shared'], ['T2'], ['T3', 'shared']]
    for (const [i, vendor] of vendors.entries()) {
      const res = await vendor.api.post('/v1/integrations/slack/installations', { organization: vendor.orgId, externalIds: externalIds[i] })
      expect(res.status).toBe(201)
    }
    await t.owner.api.post('/v1/integrations/slack/installations', { organization: t.orgId })

    const { items, pages } = await walk(t.owner.api, '/v1/integrations/slack/installations', { limit: 3 })
    expect(items.map((i) => i.target.organization)).toEqual([...vendors.map((v) => v.orgId), t.orgId])
    expect(pages.map((p) => p.count)).toEqual([4, 4])
    expect(pages.at(-1).next).toBeUndefined()

    const shared = await walk(t.owner.api, '/v1/integrations/slack/installations', { externalId: 'shared', limit: 1 })
    expect(shared.items.map((i) => i.target.organization)).toEqual([vendors[0]!.orgId, vendors[2]!.orgId])
    expect(shared.pages[0].count).toBe(2)
    expect((await t.owner.api.get('/v1/integrations/slack/installations', { externalId: 'T2' })).body.items[0].externalIds).toEqual(['T2'])
    expect((await t.owner.api.get('/v1/integrations/slack/installations', { externalId: 'none' })).body).toEqual({ items: [], count: 0 })

    // A vendor sees the integration but does not own it; a reader of the owner organization is no admin.
    expect((await vendors[0]!.api.get('/v1/integrations/slack/installations')).status).toBe(403)
    const reader = await t.user({ role: 'read' })
    expect((await reader.api.get('/v1/integrations/slack/installations')).status).toBe(403)
    expect((await t.owner.api.get('/v1/integrations/nope/installations')).status).toBe(404)
    const long = await t.owner.api.get('/v1/integrations/slack/installations', { externalId: 'x'.repeat(201) })
    expect(long.body).toEqual({ error: { code: 400, message: 'externalId: must be at most 200 characters' } })
  })
})
