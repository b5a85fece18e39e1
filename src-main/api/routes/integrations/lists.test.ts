import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { manifest, otherAdmin, publish } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const names = (items: any[]) => items.map((i) => i.name)

describe('GET /v1/integrations', () => {
  it('lists public integrations to everyone, and unlisted and private ones to members of their owner only', async () => {
    await publish(t.owner.api, 'open', manifest(t.orgId, { visibility: 'public' }))
    await publish(t.owner.api, 'hidden', manifest(t.orgId, { visibility: 'unlisted' }))
    await publish(t.owner.api, 'secret', manifest(t.orgId, { visibility: 'private' }))
    const vendor = await otherAdmin(t)
    await publish(vendor.api, 'vendor-open', manifest(vendor.orgId, { visibility: 'public' }))
    await publish(vendor.api, 'vendor-secret', manifest(vendor.orgId, { visibility: 'private' }))

    const reader = await t.user({ role: 'read' })
    const guest = await t.user({ role: null })
    const seen = async (api = t.owner.api) => {
      const res = await api.get('/v1/integrations')
      expect(res.status).toBe(200)
      expect(res.body.count).toBe(res.body.items.length)
      return names(res.body.items)
    }
    expect(await seen()).toEqual(['open', 'hidden', 'secret', 'vendor-open'])
    expect(await seen(reader.api)).toEqual(['open', 'hidden', 'secret', 'vendor-open'])
    expect(await seen(guest.api)).toEqual(['open', 'vendor-open'])
    expect(await seen(vendor.api)).toEqual(['open', 'vendor-open', 'vendor-secret'])
    const item = (await t.owner.api.get('/v1/integrations')).body.items[0]
    expect(item).toMatchObject({ object: 'integration', name: 'open', owner: { object: 'organization', id: t.orgId } })
  })

  it('filters by search, category, blockDomain, blocks, contentSources and owner, with the right count', async () => {
    await publish(
      t.owner.api,
      'slack',
      manifest(t.orgId, {
        title: 'Slack',
        categories: ['collaboration'],
        blocks: [{ id: 'msg', title: 'Message', urlUnfurl: ['https://www.slack.com/archives/', 'app.slack.com'] }]
      })
    )
    await publish(
      t.owner.api,
      'figma',
      manifest(t.orgId, {
        title: 'Figma Embeds',
        categories: ['content', 'collaboration'],
        blocks: [{ id: 'frame', title: 'Frame', urlUnfurl: ['https://figma.com/file/'] }]
      })
    )
    await publish(
      t.owner.api,
      'github-files',
      manifest(t.orgId, {
        title: 'GitHub',
        categories: ['content'],
        contentSources: [{ id: 'repo', title: 'Repository', configuration: { componentId: 'pick' } }]
      })
    )
    const vendor = await otherAdmin(t)
    await publish(vendor.api, 'plausible', manifest(vendor.orgId, { title: 'Plausible', categories: ['analytics'] }))

    const list = async (query: Record<string, unknown>) => {
      const res = await t.owner.api.get('/v1/integrations', query)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body.count).toBe(res.body.items.length)
      return names(res.body.items)
    }
    expect(await list({ search: 'FIG' })).toEqual(['figma'])
    expect(await list({ search: 'embeds' })).toEqual(['figma'])
    expect(await list({ search: 'files' })).toEqual(['github-files'])
    expect(await list({ search: 'zzz' })).toEqual([])
    expect(await list({ category: 'collaboration' })).toEqual(['slack', 'figma'])
    expect(await list({ category: 'analytics' })).toEqual(['plausible'])
    expect(await list({ blockDomain: 'slack.com' })).toEqual(['slack'])
    expect(await list({ blockDomain: 'app.slack.com' })).toEqual(['slack'])
    expect(await list({ blockDomain: 'www.figma.com' })).toEqual(['figma'])
    expect(await list({ blocks: true })).toEqual(['slack', 'figma'])
    expect(await list({ blocks: false })).toEqual(['github-files', 'plausible'])
    expect(await list({ contentSources: true })).toEqual(['github-files'])
    expect(await list({ contentSources: false, blocks: false })).toEqual(['plausible'])
    expect(await list({ owner: vendor.orgId })).toEqual(['plausible'])
    expect(await list({ owner: t.orgId, category: 'content' })).toEqual(['figma', 'github-files'])

    for (const [query, message] of [
      [{ category: 'games' }, 'category: must be one of: analytics, collaboration, content, marketing, visitor-auth, other'],
      [{ blockDomain: 'bad domain' }, 'blockDomain: must be letters, digits, -, _ and .'],
      [{ blockDomain: 'x'.repeat(101) }, 'blockDomain: must be at most 100 characters'],
      [{ blocks: 'maybe' }, 'blocks: must be boolean'],
      [{ limit: 1001 }, 'limit: must be at most 1000']
    ] as const) {
      const res = await t.owner.api.get('/v1/integrations', query)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: { code: 400, message } })
    }
  })

  it('walks every visible integration once with a small limit', async () => {
    const published = ['a1', 'a2', 'a3', 'a4', 'a5']
    for (const name of published) await publish(t.owner.api, name, manifest(t.orgId))
    const { items, pages } = await walk(t.owner.api, '/v1/integrations', { limit: 2 })
    expect(names(items)).toEqual(published)
    expect(pages).toHaveLength(3)
    for (const page of pages) expect(page.count).toBe(5)
    expect(pages.at(-1).next).toBeUndefined()
    // A republish keeps its place and the count.
    await publish(t.owner.api, 'a2', manifest(t.orgId, { title: 'Renamed' }))
    expect(names((await walk(t.owner.api, '/v1/integrations', { limit: 3 })).items)).toEqual(published)
  })
})
