import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { PETSTORE, pollUntil, serveDocuments, untilComplete, warmUpValidator, type DocServer } from './fixtures'

beforeAll(warmUpValidator, 120_000)

let t: TestServer
let docs: DocServer
beforeEach(async () => {
  t = await startTestServer()
  docs = await serveDocuments({ '/openapi.yaml': { body: PETSTORE } })
})
afterEach(async () => {
  await t.close()
  await docs.close()
})

const base = (orgId = t.orgId) => `/v1/orgs/${orgId}/openapi`
async function createSpec(slug: string, api = t.owner.api) {
  const res = await api.post(base(), { slug, source: { url: docs.url('/openapi.yaml') } })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}

function expectSpec(spec: any, slug: string) {
  expect(spec).toMatchObject({
    object: 'openapi-spec',
    id: expect.any(String),
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    slug,
    processingState: expect.stringMatching(/^(pending|progress|complete)$/),
    permissions: { view: expect.any(Boolean), edit: expect.any(Boolean) },
    urls: { location: `${t.url}${base()}/${slug}`, app: expect.stringContaining(`/orgs/${t.orgId}/openapi/${slug}`) }
  })
}

describe('authentication and roles', () => {
  it('answers 401 on every operation without a token', async () => {
    await createSpec('api')
    const paths = [
      '',
      '/api',
      '/api/versions',
      '/api/versions/latest',
      '/api/versions/latest/content',
      '/api/versions/x',
      '/api/versions/x/content'
    ]
    const calls = [
      ...paths.map((p) => t.anonymous.get(`${base()}${p}`)),
      t.anonymous.post(base(), { slug: 'x', source: { url: docs.url('/openapi.yaml') } }),
      t.anonymous.put(`${base()}/api`, { source: { url: docs.url('/openapi.yaml') } }),
      t.anonymous.delete(`${base()}/api`)
    ]
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: { code: 401, message: expect.any(String) } })
    }
  })

  it('hides specs from non-members (404), refuses guests (403) and answers 404 for unknown slugs', async () => {
    await createSpec('api')
    const outsider = await t.user({ role: 'none' })
    const guest = await t.user({ role: null })
    for (const [api, status] of [
      [outsider.api, 404],
      [guest.api, 403]
    ] as const) {
      for (const res of [
        await api.get(base()),
        await api.get(`${base()}/api`),
        await api.get(`${base()}/api/versions`),
        await api.get(`${base()}/api/versions/latest/content`),
        await api.post(base(), { slug: 'mine', source: { url: docs.url('/openapi.yaml') } }),
        await api.put(`${base()}/api`, { source: { url: docs.url('/openapi.yaml') } }),
        await api.delete(`${base()}/api`)
      ]) {
        expect(res.status).toBe(status)
        expect(res.body.error.code).toBe(status)
      }
    }
    expect((await t.owner.api.get('/v1/orgs/nope/openapi')).status).toBe(404)
    for (const res of [
      await t.owner.api.get(`${base()}/nope`),
      await t.owner.api.get(`${base()}/nope/versions`),
      await t.owner.api.get(`${base()}/nope/versions/latest`),
      await t.owner.api.delete(`${base()}/nope`)
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toEqual({ code: 404, message: 'OpenAPI spec not found' })
    }
  })

  it('lets members read, and only members who may create content write (403 below create)', async () => {
    const spec = await createSpec('api')
    for (const role of ['read', 'comment', 'edit', 'review'] as const) {
      const { api } = await t.user({ role })
      const got = await api.get(`${base()}/api`)
      expect(got.status).toBe(200)
      expect(got.body.permissions).toEqual({ view: true, edit: false })
      expect((await api.get(base())).body.items.map((s: any) => s.id)).toEqual([spec.id])
      for (const res of [
        await api.post(base(), { slug: `by-${role}`, source: { url: docs.url('/openapi.yaml') } }),
        await api.put(`${base()}/api`, { source: { url: docs.url('/other.yaml') } }),
        await api.delete(`${base()}/api`)
      ]) {
        expect(res.status).toBe(403)
        expect(res.body.error.code).toBe(403)
      }
    }
    // The failed writes changed nothing.
    const after = await t.owner.api.get(`${base()}/api`)
    expect(after.body.sourceURL).toBe(docs.url('/openapi.yaml'))
    expect((await t.owner.api.get(base())).body.count).toBe(1)

    const creator = await t.user({ role: 'create' })
    const created = await createSpec('by-creator', creator.api)
    expect(created.permissions).toEqual({ view: true, edit: true })
    expect((await creator.api.put(`${base()}/api`, { source: { url: docs.url('/openapi.yaml') } })).status).toBe(200)
    expect((await creator.api.delete(`${base()}/by-creator`)).status).toBe(205)
  })
})

describe('POST /v1/orgs/{organizationId}/openapi', () => {
  it('answers 201 at once with a pending spec, then processes it in the background', async () => {
    const spec = await createSpec('petstore')
    expectSpec(spec, 'petstore')
    expect(spec.processingState).toBe('pending')
    expect(spec.sourceURL).toBe(docs.url('/openapi.yaml'))
    expect(spec.lastVersion).toBeUndefined()
    expect(spec.lastProcessedAt).toBeUndefined()
    expect(spec.permissions).toEqual({ view: true, edit: true })
    const done = await untilComplete(t.owner.api, `${base()}/petstore`)
    expectSpec(done, 'petstore')
    expect(done.lastVersion).toEqual(expect.any(String))
    expect(done.lastProcessedAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/))
    expect(done.lastProcessErrorCode).toBeUndefined()
  })

  it('validates slug and source (400 naming the field) and creates nothing', async () => {
    const url = docs.url('/openapi.yaml')
    const cases: [unknown, string][] = [
      [{ source: { url } }, 'slug: is required'],
      [{ slug: 'api' }, 'source: is required'],
      [{ slug: '', source: { url } }, 'slug: must be at least 1 characters'],
      [{ slug: 'a'.repeat(101), source: { url } }, 'slug: must be at most 100 characters'],
      [{ slug: 'My-API', source: { url } }, 'slug: must be lower-case letters and digits, words joined by single hyphens (my-api)'],
      [{ slug: '-api', source: { url } }, 'slug: must be lower-case letters and digits, words joined by single hyphens (my-api)'],
      [{ slug: 'my--api', source: { url } }, 'slug: must be lower-case letters and digits, words joined by single hyphens (my-api)'],
      [{ slug: 42, source: { url } }, 'slug: must be string'],
      [{ slug: 'api', source: {} }, 'source: must have either url or text'],
      [{ slug: 'api', source: { url, text: 'openapi: 3.0.0' } }, 'source: must have either url or text'],
      [{ slug: 'api', source: { url: 'not a url' } }, 'source.url: must be a valid uri'],
      [{ slug: 'api', source: { url: 'ftp://example.com/openapi.yaml' } }, 'source.url: must be an http or https URL'],
      [{ slug: 'api', source: { url: `https://example.com/${'a'.repeat(2048)}` } }, 'source.url: must be at most 2048 characters'],
      [{ slug: 'api', source: { text: '' } }, 'source.text: must be at least 1 characters'],
      [{ slug: 'api', source: 'https://example.com' }, 'source: must be object']
    ]
    for (const [body, message] of cases) {
      const res = await t.owner.api.post(base(), body)
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(res.body).toEqual({ error: { code: 400, message } })
    }
    expect((await t.owner.api.get(base())).body.count).toBe(0)
  })

  it('answers 409 for a slug taken in the organization, and allows it in another one', async () => {
    await createSpec('api')
    const again = await t.owner.api.post(base(), { slug: 'api', source: { url: docs.url('/openapi.yaml') } })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ error: { code: 409, message: expect.stringContaining('slug') } })
    const other = await t.owner.api.post('/v1/orgs', { title: 'Other org' })
    const res = await t.owner.api.post(base(other.body.id), { slug: 'api', source: { url: docs.url('/openapi.yaml') } })
    expect(res.status).toBe(201)
    expect(res.body.urls.location).toBe(`${t.url}${base(other.body.id)}/api`)
    expect((await t.owner.api.get(base())).body.count).toBe(1)
  })
})

describe('GET /v1/orgs/{organizationId}/openapi', () => {
  it('walks every spec of the organization once, in creation order', async () => {
    const slugs = ['a', 'b', 'c', 'd', 'e']
    for (const slug of slugs) await createSpec(slug)
    const other = await t.owner.api.post('/v1/orgs', { title: 'Other org' })
    await t.owner.api.post(base(other.body.id), { slug: 'elsewhere', source: { url: docs.url('/openapi.yaml') } })
    const { items, pages } = await walk(t.owner.api, base(), { limit: 2 })
    expect(items.map((s) => s.slug)).toEqual(slugs)
    expect(pages).toHaveLength(3)
    for (const page of pages) expect(page.count).toBe(5)
    expect(pages.at(-1).next).toBeUndefined()
    for (const item of items) expectSpec(item, item.slug)
    expect((await t.owner.api.get(base(), { limit: 1001 })).status).toBe(400)
    expect((await t.owner.api.get(base(), { page: 'garbage' })).status).toBe(400)
  })
})

describe('PUT /v1/orgs/{organizationId}/openapi/{specSlug}', () => {
  it('creates a spec that does not exist (200)', async () => {
    const res = await t.owner.api.put(`${base()}/fresh`, { source: { url: docs.url('/openapi.yaml') } })
    expect(res.status).toBe(200)
    expectSpec(res.body, 'fresh')
    expect(res.body.processingState).toBe('pending')
    expect((await untilComplete(t.owner.api, `${base()}/fresh`)).lastVersion).toEqual(expect.any(String))
  })

  it('replaces the source: pending again, then a second version', async () => {
    await createSpec('api')
    const first = await untilComplete(t.owner.api, `${base()}/api`)
    t.clock.advance(60_000)
    const res = await t.owner.api.put(`${base()}/api`, { source: { text: PETSTORE.replace('/pets:', '/animals:') } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: first.id, processingState: 'pending', lastVersion: first.lastVersion })
    expect(res.body.sourceURL).toBeUndefined()
    expect(res.body.updatedAt > first.updatedAt).toBe(true)
    const second = await pollUntil(
      t.owner.api,
      `${base()}/api`,
      (s) => s.processingState === 'complete' && s.lastVersion !== first.lastVersion
    )
    const content = (await t.owner.api.get(`${base()}/api/versions/latest/content`)).body
    expect(second.lastVersion).not.toBe(first.lastVersion)
    expect(Object.keys((content.filesystem['openapi.yaml'] as any).paths)).toEqual(['/animals', '/pets/{petId}'])
    expect((await t.owner.api.get(`${base()}/api/versions`)).body.count).toBe(2)
  })

  it('validates the slug it may create and the source', async () => {
    for (const [path, body, message] of [
      [
        '/Bad_Slug',
        { source: { url: docs.url('/openapi.yaml') } },
        'specSlug: must be lower-case letters and digits, words joined by single hyphens (my-api)'
      ],
      ['/api', {}, 'source: is required'],
      ['/api', { source: { url: 'mailto:x@example.com' } }, 'source.url: must be an http or https URL']
    ] as const) {
      const res = await t.owner.api.put(`${base()}${path}`, body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: { code: 400, message } })
    }
    expect((await t.owner.api.get(base())).body.count).toBe(0)
  })
})

describe('DELETE /v1/orgs/{organizationId}/openapi/{specSlug}', () => {
  it('answers 205 without a body and removes the spec and its versions', async () => {
    await createSpec('api')
    const done = await untilComplete(t.owner.api, `${base()}/api`)
    const res = await t.owner.api.delete(`${base()}/api`)
    expect(res.status).toBe(205)
    expect(res.body).toBeUndefined()
    expect((await t.owner.api.get(`${base()}/api`)).status).toBe(404)
    expect((await t.owner.api.get(`${base()}/api/versions/${done.lastVersion}`)).status).toBe(404)
    expect((await t.owner.api.get(base())).body.count).toBe(0)
    // The slug is free again.
    expect((await t.owner.api.post(base(), { slug: 'api', source: { url: docs.url('/openapi.yaml') } })).status).toBe(201)
  })
})
