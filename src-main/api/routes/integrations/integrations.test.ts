import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { manifest, otherAdmin, PNG, publish, SVG } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

function expectIntegration(body: any, name: string) {
  expect(body).toMatchObject({
    object: 'integration',
    name,
    version: expect.any(Number),
    title: expect.any(String),
    description: expect.any(String),
    previewImages: expect.any(Array),
    target: expect.stringMatching(/^(all|site|space|organization)$/),
    verified: false,
    visibility: expect.stringMatching(/^(public|private|unlisted)$/),
    scopes: expect.any(Array),
    categories: expect.any(Array),
    blocks: expect.any(Array),
    contentSources: expect.any(Array),
    configurations: expect.any(Object),
    externalLinks: expect.any(Array),
    owner: { object: 'organization', id: expect.any(String) },
    urls: {
      location: `${t.url}/v1/integrations/${name}`,
      app: expect.stringContaining(`/integrations/${name}`),
      assets: expect.any(String)
    },
    permissions: { admin: expect.any(Boolean), install: expect.any(Boolean) }
  })
}

describe('authentication', () => {
  it('answers 401 on every operation without a token', async () => {
    await publish(t.owner.api, 'slack', manifest(t.orgId))
    for (const res of [
      await t.anonymous.get('/v1/integrations'),
      await t.anonymous.get('/v1/integrations/slack'),
      await t.anonymous.post('/v1/integrations/slack', manifest(t.orgId)),
      await t.anonymous.delete('/v1/integrations/slack'),
      await t.anonymous.get('/v1/integrations/slack/installations'),
      await t.anonymous.post('/v1/integrations/slack/installations', { organization: t.orgId })
    ]) {
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: { code: 401, message: expect.any(String) } })
    }
  })
})

describe('POST /v1/integrations/{integrationName} (publish)', () => {
  it('answers version 1, then version 2 on the next publish, with the new manifest', async () => {
    const first = await publish(
      t.owner.api,
      'slack',
      manifest(t.orgId, {
        summary: '# Slack\nPost updates.',
        icon: PNG,
        previewImages: [PNG, `data:image/svg+xml;base64,${SVG}`],
        target: 'space',
        scopes: ['space:content:read', 'space:metadata:read'],
        categories: ['collaboration'],
        blocks: [
          { id: 'message', title: 'Message', urlUnfurl: ['https://app.slack.com/client/'], markdown: { codeblock: 'slack', body: 'x' } }
        ],
        contentSources: [{ id: 'channel', title: 'Channel', configuration: { componentId: 'configure' } }],
        externalLinks: [{ url: 'https://slack.com/help', label: 'Help' }],
        configurations: {
          account: { properties: { channel: { type: 'string', title: 'Channel', completion_url: '/channels' } }, required: ['channel'] },
          space: { properties: { notify: { type: 'boolean', title: 'Notify', default: true } } }
        },
        secrets: { CLIENT_SECRET: 'very-secret-value' },
        contentSecurityPolicy: "script-src 'self'"
      })
    )
    expectIntegration(first, 'slack')
    expect(first).toMatchObject({
      version: 1,
      title: 'Slack',
      summary: '# Slack\nPost updates.',
      target: 'space',
      visibility: 'public',
      scopes: ['space:content:read', 'space:metadata:read'],
      categories: ['collaboration'],
      blocks: [
        { id: 'message', title: 'Message', urlUnfurl: ['https://app.slack.com/client/'], markdown: { codeblock: 'slack', body: 'x' } }
      ],
      contentSources: [{ id: 'channel', title: 'Channel', configuration: { componentId: 'configure' } }],
      externalLinks: [{ url: 'https://slack.com/help', label: 'Help' }],
      contentSecurityPolicy: "script-src 'self'",
      owner: { id: t.orgId },
      permissions: { admin: true, install: true }
    })
    // Configuration schemas are kept as published.
    expect(first.configurations).toEqual({
      account: { properties: { channel: { type: 'string', title: 'Channel', completion_url: '/channels' } }, required: ['channel'] },
      space: { properties: { notify: { type: 'boolean', title: 'Notify', default: true } } }
    })
    expect(first.previewImages).toHaveLength(2)
    expect(first.urls.icon).toMatch(/\/integrations\/slack\/assets\/[0-9a-f]{64}$/)
    expect(JSON.stringify(first)).not.toContain('very-secret-value')
    expect(JSON.stringify(first)).not.toContain('secrets')

    const second = await publish(t.owner.api, 'slack', manifest(t.orgId, { title: 'Slack 2', categories: ['other'] }))
    expect(second).toMatchObject({ version: 2, title: 'Slack 2', categories: ['other'], target: 'all', blocks: [], previewImages: [] })
    expect(second.urls.icon).toBeUndefined()
    const got = await t.owner.api.get('/v1/integrations/slack')
    expect(got.status).toBe(200)
    expect(got.body).toEqual(second)
    expect((await publish(t.owner.api, 'slack', manifest(t.orgId))).version).toBe(3)
  })

  it('defaults visibility to private and target to all', async () => {
    const body = await publish(t.owner.api, 'quiet', manifest(t.orgId, { visibility: undefined }))
    expect(body).toMatchObject({ visibility: 'private', target: 'all', scopes: [], categories: [], configurations: {} })
    expect(body.summary).toBeUndefined()
  })

  it('answers 400 with the envelope for each invalid field, and publishes nothing', async () => {
    const big = Buffer.alloc(1024 * 1024 + 1)
    Buffer.from(PNG, 'base64').copy(big)
    const cases: [string, Record<string, unknown>, string][] = [
      ['slack', { title: undefined }, 'title: is required'],
      ['slack', { title: 'S' }, 'title: must be at least 2 characters'],
      ['slack', { title: 'x'.repeat(31) }, 'title: must be at most 30 characters'],
      ['slack', { description: undefined }, 'description: is required'],
      ['slack', { description: 'x'.repeat(101) }, 'description: must be at most 100 characters'],
      ['slack', { summary: 'x'.repeat(2049) }, 'summary: must be at most 2048 characters'],
      ['slack', { script: undefined }, 'script: is required'],
      ['slack', { script: '' }, 'script: must be at least 1 characters'],
      ['slack', { organization: undefined }, 'organization: is required'],
      ['slack', { previewImages: [PNG, PNG, PNG, PNG] }, 'previewImages: must have at most 3 items'],
      ['slack', { previewImages: [PNG, 'not base64!'] }, 'previewImages.1: must be base64'],
      [
        'slack',
        { previewImages: [Buffer.from('plain text, no image').toString('base64')] },
        'previewImages.0: must be a PNG, JPEG, GIF, WebP, SVG, ICO, BMP or AVIF image'
      ],
      ['slack', { icon: big.toString('base64') }, 'icon: must be at most 1 MB once decoded'],
      ['slack', { icon: 42 }, 'icon: must be string'],
      ['slack', { visibility: 'secret' }, 'visibility: must be one of: public, private, unlisted'],
      ['slack', { target: 'page' }, 'target: must be one of: all, site, space, organization'],
      ['slack', { scopes: ['space:everything'] }, `scopes.0: must be one of: ${'space:views:read'}`],
      [
        'slack',
        { categories: ['games'] },
        'categories.0: must be one of: analytics, collaboration, content, marketing, visitor-auth, other'
      ],
      ['slack', { blocks: [{ title: 'No id' }] }, 'blocks.0.id: is required'],
      ['slack', { externalLinks: [{ url: 'not a url', label: 'Bad' }] }, 'externalLinks.0.url: must be a valid uri'],
      [
        'slack',
        { configurations: { account: { properties: { a: { type: 'string' } }, required: ['b'] } } },
        'configurations.account.required: b is not one of its properties'
      ],
      [
        'slack',
        { configurations: { site: { properties: { a: { type: 'color' } } } } },
        'configurations.site.properties.a.type: must be one of: string, number, boolean, button'
      ],
      [
        'slack',
        { configurations: { account: { properties: { go: { type: 'button', button_text: 'Go' } } } } },
        'configurations.account.properties.go.callback_url: is required for a button'
      ],
      [
        'slack',
        { configurations: { account: { properties: { go: { type: 'button', callback_url: 'https://a.example/go' } } } } },
        'configurations.account.properties.go.button_text: is required for a button'
      ],
      ['slack', { secrets: { KEY: 42 } }, 'secrets.KEY: must be string'],
      ['bad%20name', {}, 'integrationName: must be letters, digits, -, _ and .'],
      ['x'.repeat(101), {}, 'integrationName: must be at most 100 characters']
    ]
    for (const [name, overrides, message] of cases) {
      const res = await t.owner.api.post(`/v1/integrations/${name}`, manifest(t.orgId, overrides))
      expect(res.status, message).toBe(400)
      expect(res.body.error.code).toBe(400)
      expect(res.body.error.message.startsWith(message), `${res.body.error.message} vs ${message}`).toBe(true)
    }
    expect((await t.owner.api.get('/v1/integrations/slack')).status).toBe(404)
    expect((await t.owner.api.get('/v1/integrations')).body.count).toBe(0)
  })

  it('needs the admin role in the organization named by id or hostname (403), and the name stays with its owner (409)', async () => {
    const creator = await t.user({ role: 'create' })
    for (const organization of [t.orgId, 'no-such-org']) {
      const res = await creator.api.post('/v1/integrations/slack', manifest(organization))
      expect(res.status).toBe(403)
      expect(res.body.error).toEqual({ code: 403, message: expect.stringContaining('organization') })
    }
    expect((await t.owner.api.patch(`/v1/orgs/${t.orgId}`, { hostname: 'acme' })).status).toBe(200)
    const byHostname = await publish(t.owner.api, 'slack', manifest('acme'))
    expect(byHostname.owner.id).toBe(t.orgId)

    const vendor = await otherAdmin(t)
    const taken = await vendor.api.post('/v1/integrations/slack', manifest(vendor.orgId))
    expect(taken.status).toBe(409)
    expect(taken.body.error.code).toBe(409)
    // The owner's own admins cannot move it to another organization either.
    const other = await t.owner.api.post('/v1/orgs', { title: 'Second' })
    expect((await t.owner.api.post('/v1/integrations/slack', manifest(other.body.id))).status).toBe(409)
    expect((await t.owner.api.get('/v1/integrations/slack')).body.version).toBe(1)
  })
})

describe('GET /v1/integrations/{integrationName}', () => {
  it('shows private integrations only to members of the owner organization, unlisted and public ones to everyone', async () => {
    await publish(t.owner.api, 'secret', manifest(t.orgId, { visibility: 'private' }))
    await publish(t.owner.api, 'hidden', manifest(t.orgId, { visibility: 'unlisted' }))
    await publish(t.owner.api, 'open', manifest(t.orgId, { visibility: 'public' }))
    const outsider = await t.user({ role: 'none' })
    const guest = await t.user({ role: null })
    const reader = await t.user({ role: 'read' })
    for (const api of [outsider.api, guest.api]) {
      const res = await api.get('/v1/integrations/secret')
      expect(res.status).toBe(404)
      expect(res.body.error).toEqual({ code: 404, message: 'Integration not found' })
      expect((await api.get('/v1/integrations/hidden')).status).toBe(200)
      expect((await api.get('/v1/integrations/open')).body.permissions).toEqual({ admin: false, install: false })
    }
    const seen = await reader.api.get('/v1/integrations/secret')
    expect(seen.status).toBe(200)
    expect(seen.body.permissions).toEqual({ admin: false, install: false })
    expect((await t.owner.api.get('/v1/integrations/nope')).status).toBe(404)
    // An admin of any organization may install public ones.
    const vendor = await otherAdmin(t)
    expect((await vendor.api.get('/v1/integrations/open')).body.permissions).toEqual({ admin: false, install: true })
  })

  it('serves the icon and preview images by content hash, and nothing else', async () => {
    const body = await publish(t.owner.api, 'pics', manifest(t.orgId, { icon: PNG, previewImages: [SVG] }))
    const icon = await fetch(body.urls.icon)
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toBe('image/png')
    expect(icon.headers.get('x-content-type-options')).toBe('nosniff')
    expect(Buffer.from(await icon.arrayBuffer()).equals(Buffer.from(PNG, 'base64'))).toBe(true)
    const preview = await fetch(body.previewImages[0])
    expect(preview.headers.get('content-type')).toBe('image/svg+xml')
    expect(preview.headers.get('content-security-policy')).toContain('sandbox')
    expect((await fetch(body.urls.icon.replace(/[0-9a-f]{64}$/, '0'.repeat(64)))).status).toBe(404)
    // Another integration's image is not served under this name.
    const other = await publish(t.owner.api, 'other', manifest(t.orgId, { icon: SVG }))
    expect((await fetch(other.urls.icon.replace('/other/', '/pics/'))).status).toBe(200)
    await publish(
      t.owner.api,
      'third',
      manifest(t.orgId, { icon: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64') })
    )
    expect((await fetch(other.urls.icon.replace('/other/', '/third/'))).status).toBe(404)
  })
})

describe('DELETE /v1/integrations/{integrationName} (unpublish)', () => {
  it('answers 204, removes the integration and its installations; only owner admins may', async () => {
    await publish(t.owner.api, 'slack', manifest(t.orgId))
    const vendor = await otherAdmin(t)
    expect((await vendor.api.post('/v1/integrations/slack/installations', { organization: vendor.orgId })).status).toBe(201)
    const reader = await t.user({ role: 'read' })
    expect((await reader.api.delete('/v1/integrations/slack')).status).toBe(403)
    expect((await vendor.api.delete('/v1/integrations/slack')).status).toBe(403)
    expect((await t.owner.api.delete('/v1/integrations/nope')).status).toBe(404)
    expect((await t.owner.api.get('/v1/integrations/slack')).status).toBe(200)

    const res = await t.owner.api.delete('/v1/integrations/slack')
    expect(res.status).toBe(204)
    expect(res.body).toBeUndefined()
    expect((await t.owner.api.get('/v1/integrations/slack')).status).toBe(404)
    // Published again under the same name, it starts over: version 1, no installations.
    expect((await publish(t.owner.api, 'slack', manifest(t.orgId))).version).toBe(1)
    expect((await t.owner.api.get('/v1/integrations/slack/installations')).body).toEqual({ items: [], count: 0 })
  })

  it('hides a private integration from outsiders (404)', async () => {
    await publish(t.owner.api, 'secret', manifest(t.orgId, { visibility: 'private' }))
    const vendor = await otherAdmin(t)
    expect((await vendor.api.delete('/v1/integrations/secret')).status).toBe(404)
    expect((await t.owner.api.get('/v1/integrations/secret')).status).toBe(200)
  })
})
