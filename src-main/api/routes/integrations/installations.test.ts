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
      integration: 'slack',
      status: 'pending',
      space_selection: 'selected',
      site_selection: 'selected',
      spaces: 0,
      configuration: {},
      externalIds: ['T123'],
      target: { organization: vendor.orgId },
      urls: {
        location: `${t.url}/v1/integrations/slack/installations/${res.body.id}`,
        app: expect.stringMatching(new RegExp(`/orgs/${vendor.orgId}/integrations/slack$`))
      },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: res.body.createdAt
    })
    const own = await t.owner.api.post('/v1/integrations/slack/installations', {
      organization: t.orgId,
      configuration: { channel: '#docs' }
    })
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

const SCHEMA = {
  configurations: {
    account: {
      properties: {
        channel: { type: 'string', title: 'Channel' },
        retries: { type: 'number' },
        verbose: { type: 'boolean' },
        level: { type: 'string', enum: ['info', 'debug'] },
        connect: { type: 'button', button_text: 'Connect', callback_url: 'https://slack.example/connect' }
      },
      required: ['channel']
    }
  }
}

async function installed(api: TestServer['owner']['api'], orgId: string, name = 'slack', body: Record<string, unknown> = {}) {
  const res = await api.post(`/v1/integrations/${name}/installations`, { organization: orgId, ...body })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string }
}

describe('GET /v1/orgs/{organizationId}/installations', () => {
  it('lists the organization\u2019s installations with their integrations, page by page, to its non-guest members', async () => {
    for (const name of ['slack', 'figma', 'jira']) await publish(t.owner.api, name, manifest(t.orgId, { title: `T ${name}` }))
    const ids = [
      await installed(t.owner.api, t.orgId, 'jira'),
      await installed(t.owner.api, t.orgId, 'slack'),
      await installed(t.owner.api, t.orgId, 'figma')
    ]
    const vendor = await otherAdmin(t)
    await installed(vendor.api, vendor.orgId, 'slack')

    const reader = await t.user({ role: 'read' })
    const { items, pages } = await walk(reader.api, `/v1/orgs/${t.orgId}/installations`, { limit: 2 })
    expect(items.map((i) => [i.installation.id, i.installation.integration, i.integration.name, i.integration.title])).toEqual([
      [ids[0]!.id, 'jira', 'jira', 'T jira'],
      [ids[1]!.id, 'slack', 'slack', 'T slack'],
      [ids[2]!.id, 'figma', 'figma', 'T figma']
    ])
    expect(pages.map((p) => p.count)).toEqual([3, 3])
    expect(items[0].integration.object).toBe('integration')

    const guest = await t.user({ role: null })
    expect((await guest.api.get(`/v1/orgs/${t.orgId}/installations`)).status).toBe(403)
    expect((await vendor.api.get(`/v1/orgs/${t.orgId}/installations`)).status).toBe(404)
    expect((await t.owner.api.get('/v1/orgs/nope/installations')).status).toBe(404)
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/installations`, { limit: 0 })).body).toEqual({
      error: { code: 400, message: 'limit: must be at least 1' }
    })
  })
})

describe('GET, PATCH and DELETE /v1/integrations/{integrationName}/installations/{installationId}', () => {
  it('reads an installation, replaces its configuration (checked against the account schema) and activates it', async () => {
    await publish(t.owner.api, 'slack', manifest(t.orgId, SCHEMA))
    const { id } = await installed(t.owner.api, t.orgId, 'slack', { configuration: { retries: 2 } })
    const path = `/v1/integrations/slack/installations/${id}`
    const reader = await t.user({ role: 'read' })
    expect((await reader.api.get(path)).body).toMatchObject({ id, integration: 'slack', status: 'pending', configuration: { retries: 2 } })

    for (const [configuration, message] of [
      [{ retries: 2 }, 'configuration.channel: is required'],
      [{ channel: '' }, 'configuration.channel: is required'],
      [{ channel: 5 }, 'configuration.channel: must be string'],
      [{ channel: '#a', retries: 'two' }, 'configuration.retries: must be number'],
      [{ channel: '#a', verbose: 'yes' }, 'configuration.verbose: must be boolean'],
      [{ channel: '#a', level: 'trace' }, 'configuration.level: must be one of "info", "debug"'],
      [{ channel: '#a', connect: true }, 'configuration.connect: is a button and holds no value']
    ] as const) {
      const res = await t.owner.api.patch(path, { configuration })
      expect(res.body).toEqual({ error: { code: 400, message } })
    }
    expect((await t.owner.api.patch(path, {})).status).toBe(400)
    expect((await t.owner.api.get(path)).body).toMatchObject({ status: 'pending', configuration: { retries: 2 } })

    const before = (await t.owner.api.get(path)).body
    t.clock.advance(60_000)
    const res = await t.owner.api.patch(path, {
      configuration: { channel: '#docs', level: 'debug', verbose: false, custom: { kept: 1 } },
      externalIds: ['T9']
    })
    expect(res.status).toBe(200)
    expect(res.body.createdAt).toBe(before.createdAt)
    expect(Date.parse(res.body.updatedAt) - Date.parse(before.updatedAt)).toBe(60_000)
    expect(res.body).toMatchObject({
      status: 'active',
      configuration: { channel: '#docs', level: 'debug', verbose: false, custom: { kept: 1 } },
      externalIds: ['T9']
    })
    expect((await t.owner.api.get(path)).body).toEqual(res.body)
    expect((await t.owner.api.get('/v1/integrations/slack/installations', { externalId: 'T9' })).body.count).toBe(1)
    // Types are checked at install too; a missing required value only leaves it pending.
    const vendor = await otherAdmin(t)
    const bad = await vendor.api.post('/v1/integrations/slack/installations', { organization: vendor.orgId, configuration: { level: 'x' } })
    expect(bad.body).toEqual({ error: { code: 400, message: 'configuration.level: must be one of "info", "debug"' } })
  })

  it('lets only admins of its organization change or uninstall it: 403 for members, 404 for outsiders and unknown ids', async () => {
    await publish(t.owner.api, 'slack', manifest(t.orgId))
    await publish(t.owner.api, 'figma', manifest(t.orgId))
    const { id } = await installed(t.owner.api, t.orgId)
    const path = `/v1/integrations/slack/installations/${id}`
    const editor = await t.user({ role: 'edit' })
    expect((await editor.api.patch(path, { configuration: {} })).status).toBe(403)
    expect((await editor.api.delete(path)).status).toBe(403)
    const vendor = await otherAdmin(t)
    expect((await vendor.api.get(path)).status).toBe(404)
    expect((await vendor.api.delete(path)).status).toBe(404)
    expect((await t.owner.api.get(`/v1/integrations/figma/installations/${id}`)).status).toBe(404)
    expect((await t.owner.api.get('/v1/integrations/slack/installations/nope')).status).toBe(404)
    expect((await t.owner.api.get(path)).status).toBe(200)

    expect((await t.owner.api.delete(path)).status).toBe(204)
    expect((await t.owner.api.get(path)).status).toBe(404)
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/installations`)).body.count).toBe(0)
  })
})
