import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { createSite, createSpace, expectInvalid, expectSite, expectSiteSpace, publish, sitePath } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#'
const UNSIGNED = 'Unsigned claims of the site visitor.'
const schemaPath = (siteId: string) => `${sitePath(t, siteId)}/adaptive-schema`
const customizationPath = (siteId: string) => `${sitePath(t, siteId)}/customization`

const claimsSchema = {
  type: 'object',
  properties: {
    isBeta: { type: 'boolean', description: 'Beta programme member' },
    unsigned: { type: 'object', properties: { internal: { type: 'boolean' } }, additionalProperties: false }
  },
  additionalProperties: false
}

describe('access to site settings', () => {
  it('answers 401, 404 and 403 as it should', async () => {
    const site = await createSite(t)
    const reads = [schemaPath(site.id), customizationPath(site.id), `${sitePath(t, site.id)}/published`]
    for (const path of reads) expect((await t.anonymous.get(path)).status).toBe(401)
    for (const path of [schemaPath(site.id), customizationPath(site.id)]) expect((await t.anonymous.put(path, {})).status).toBe(401)
    const outsider = await t.user({ role: 'none' })
    for (const path of reads) expect((await outsider.api.get(path)).status).toBe(404)
    const guest = await t.user({ role: null })
    for (const path of reads) expect((await guest.api.get(path)).status).toBe(403)
    const reader = await t.user({ role: 'read' })
    for (const path of reads) expect((await reader.api.get(path)).status, path).toBe(200)
    expect((await reader.api.put(schemaPath(site.id), { jsonSchema: claimsSchema })).status).toBe(403)
    expect((await reader.api.put(customizationPath(site.id), { title: 'Mine' })).status).toBe(403)
    expect((await t.owner.api.get(`${sitePath(t, 'nope')}/published`)).status).toBe(404)
    expect((await t.owner.api.put(schemaPath('nope'), { jsonSchema: claimsSchema })).status).toBe(404)
  })
})

describe('adaptive schema', () => {
  it('starts with no claims, then is created and replaced as draft-07 in the published subset, $schema set by the server', async () => {
    const site = await createSite(t)
    const empty = await t.owner.api.get(schemaPath(site.id))
    expect(empty.status).toBe(200)
    expect(empty.body).toEqual({
      object: 'site-adaptive-schema',
      updatedAt: expect.stringMatching(/^\d{4}-/),
      jsonSchema: {
        $schema: DRAFT_07,
        type: 'object',
        additionalProperties: false,
        properties: { unsigned: { type: 'object', description: UNSIGNED, properties: {}, additionalProperties: false } }
      }
    })
    t.clock.advance(60_000)
    // An $id sent is not kept; claims without a description are answered with an empty one.
    const put = await t.owner.api.put(schemaPath(site.id), { jsonSchema: { ...claimsSchema, $id: 'https://elsewhere.test/schema' } })
    expect(put.status).toBe(200)
    expect(put.body.jsonSchema).toEqual({
      $schema: DRAFT_07,
      type: 'object',
      additionalProperties: false,
      properties: {
        isBeta: { type: 'boolean', description: 'Beta programme member' },
        unsigned: {
          type: 'object',
          description: UNSIGNED,
          properties: { internal: { type: 'boolean', description: '' } },
          additionalProperties: false
        }
      }
    })
    expect(put.body.updatedAt).toBe(t.clock.now().toISOString())
    expect((await t.owner.api.get(schemaPath(site.id))).body).toEqual(put.body)
    const replaced = await t.owner.api.put(schemaPath(site.id), {
      jsonSchema: { $schema: DRAFT_07, type: 'object', properties: { isPro: { type: 'boolean', description: 'Pays' } } }
    })
    expect(replaced.body.jsonSchema).toEqual({
      $schema: DRAFT_07,
      type: 'object',
      properties: { isPro: { type: 'boolean', description: 'Pays' } },
      additionalProperties: false
    })
  })

  it('rejects schemas that are not draft-07 objects of boolean claims', async () => {
    const site = await createSite(t)
    const n = await expectInvalid(t.owner.api, 'PUT', schemaPath(site.id), [
      [{}, 'jsonSchema: is required'],
      [{ jsonSchema: [] }, 'jsonSchema: must be object'],
      [{ jsonSchema: { ...claimsSchema, $schema: 'https://json-schema.org/draft/2020-12/schema' } }, 'jsonSchema.$schema: must be'],
      [{ jsonSchema: { type: 'string' } }, 'jsonSchema.type: must be "object"'],
      [{ jsonSchema: { type: 'object', properties: 5 } }, 'jsonSchema.properties: not a valid draft-07 JSON Schema'],
      [{ jsonSchema: { type: 'object', tpye: 'object' } }, 'jsonSchema: not a valid draft-07 JSON Schema'],
      [{ jsonSchema: { type: 'object', properties: { plan: { type: 'string' } } } }, 'jsonSchema.properties.plan.type: must be "boolean"'],
      [
        { jsonSchema: { type: 'object', properties: { 'is-beta': { type: 'boolean' } } } },
        'jsonSchema.properties.is-beta: claim names must be identifiers'
      ],
      [
        { jsonSchema: { type: 'object', properties: { a: { type: 'boolean', enum: [true] } } } },
        'jsonSchema.properties.a.enum: not allowed'
      ],
      [{ jsonSchema: { type: 'object', additionalProperties: true } }, 'jsonSchema.additionalProperties: must be false'],
      [
        { jsonSchema: { type: 'object', properties: { unsigned: { type: 'array' } } } },
        'jsonSchema.properties.unsigned.type: must be "object"'
      ],
      [
        { jsonSchema: { type: 'object', properties: { unsigned: { type: 'object', properties: { x: { type: 'number' } } } } } },
        'jsonSchema.properties.unsigned.properties.x.type'
      ],
      [{ jsonSchema: { type: 'object', anyOf: [{ required: ['a'] }] } }, 'jsonSchema.anyOf: not allowed'],
      [{ jsonSchema: { type: 'object', required: ['ghost'] } }, 'jsonSchema.required: not allowed in an adaptive schema'],
      [{ jsonSchema: { type: 'object', title: 'Claims' } }, 'jsonSchema.title: not allowed in an adaptive schema'],
      [
        { jsonSchema: { type: 'object', properties: { a: { type: 'boolean', default: true } } } },
        'jsonSchema.properties.a.default: not allowed'
      ],
      [{ jsonSchema: { type: 'object', minProperties: 'one' } }, 'not a valid draft-07 JSON Schema']
    ])
    expect(n).toBeGreaterThanOrEqual(17)
    const stored = (await t.owner.api.get(schemaPath(site.id))).body.jsonSchema
    expect(stored.properties).toEqual({ unsigned: { type: 'object', description: UNSIGNED, properties: {}, additionalProperties: false } })
  })

  it('makes conditions name declared claims only, once a schema exists', async () => {
    const site = await createSite(t, { spaces: [(await createSpace(t)).id] })
    const [siteSpace] = (await t.owner.api.get(`${sitePath(t, site.id)}/site-spaces`)).body.items
    const patch = (condition: string) => t.owner.api.patch(`${sitePath(t, site.id)}/site-spaces/${siteSpace.id}`, { condition })
    // Without a schema any claim name is accepted.
    expect((await patch('visitor.claims.anything')).status).toBe(200)
    await t.owner.api.put(schemaPath(site.id), { jsonSchema: claimsSchema })
    expect((await patch('visitor.claims.isBeta && !visitor.claims.unsigned.internal')).status).toBe(200)
    expect((await patch("visitor.claims['isBeta'] == true")).status).toBe(200)
    const typo = await patch('visitor.claims.isBta')
    expect(typo.status).toBe(400)
    expect(typo.body.error.message).toBe("condition: visitor.claims.isBta is not a claim of the site's adaptive schema")
    expect((await patch('visitor.claims.unsigned.external')).body.error.message).toContain(
      'visitor.claims.unsigned.external is not an unsigned claim'
    )
    expect((await patch('visitor.claims.isBeta.deeper')).status).toBe(400)
    expect((await t.owner.api.get(`${sitePath(t, site.id)}/site-spaces`)).body.items[0].condition).toBe("visitor.claims['isBeta'] == true")
  })
})

describe('customization', () => {
  it('answers what the preview does for the settings no one can change, whatever a PUT sends', async () => {
    const site = await createSite(t)
    const fixed = {
      favicon: {},
      header: { preset: 'default', links: [] },
      footer: { groups: [] },
      themes: { default: 'system', toggeable: false },
      feedback: { enabled: false },
      ai: { mode: 'none' },
      advancedCustomization: { enabled: false },
      trademark: { enabled: false },
      externalLinks: { target: 'self' },
      pagination: { enabled: true },
      pageActions: { items: [] },
      privacyPolicy: {},
      socialPreview: {},
      socialAccounts: [],
      insights: { trackingCookie: false }
    }
    const styling = {
      depth: 'flat',
      background: 'plain',
      codeTheme: {
        default: { light: 'monochrome-light', dark: 'monochrome-dark' },
        openapi: { light: 'monochrome-light', dark: 'monochrome-dark' }
      }
    }
    const before = await t.owner.api.get(customizationPath(site.id))
    expect(before.body).toMatchObject({ ...fixed, styling })
    const put = await t.owner.api.put(customizationPath(site.id), {
      title: 'Renamed',
      feedback: { enabled: true },
      styling: { depth: 'subtle' }
    })
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ ...fixed, title: 'Renamed', styling })
    const published = await t.owner.api.get(`${sitePath(t, site.id)}/published`)
    expect(published.body).toMatchObject({ customizations: { site: { ...fixed, title: 'Renamed' }, siteSpaces: {} }, scripts: [] })
  })

  it('answers the defaults, then stored values over them; PUT merges any part', async () => {
    const site = await createSite(t, { title: 'Acme docs' })
    const defaults = await t.owner.api.get(customizationPath(site.id))
    expect(defaults.status).toBe(200)
    expect(defaults.body).toMatchObject({
      title: 'Acme docs',
      styling: {
        theme: 'clean',
        primaryColor: { light: expect.stringMatching(/^#/), dark: expect.stringMatching(/^#/) },
        corners: 'rounded',
        font: expect.any(String),
        infoColor: expect.any(Object),
        successColor: expect.any(Object),
        warningColor: expect.any(Object),
        dangerColor: expect.any(Object),
        links: expect.any(String),
        icons: expect.any(String),
        sidebar: { background: expect.any(String), list: expect.any(String) },
        search: expect.any(String)
      },
      internationalization: { locale: 'en' }
    })
    const put = await t.owner.api.put(customizationPath(site.id), {
      styling: { theme: 'bold', primaryColor: { light: '#ff0000' } },
      favicon: { emoji: '📘' }
    })
    expect(put.status).toBe(200)
    // A colour set for one scheme serves both until the other is set.
    expect(put.body.styling).toMatchObject({ theme: 'bold', primaryColor: { light: '#ff0000', dark: '#ff0000' }, corners: 'rounded' })
    expect(defaults.body.styling.primaryColor.dark).not.toBe('#ff0000')
    const dark = await t.owner.api.put(customizationPath(site.id), { styling: { primaryColor: { dark: '#00ff00' } } })
    expect(dark.body.styling.primaryColor).toEqual({ light: '#ff0000', dark: '#00ff00' })
    expect(put.body.favicon).toEqual({ emoji: '📘' })
    // An image for light only serves dark too.
    const image = await t.owner.api.put(customizationPath(site.id), { favicon: { icon: { light: 'https://cdn.example.com/logo.png' } } })
    expect(image.body.favicon).toEqual({ icon: { light: 'https://cdn.example.com/logo.png', dark: 'https://cdn.example.com/logo.png' } })
    const next = await t.owner.api.put(customizationPath(site.id), {
      internationalization: { locale: 'fr' },
      styling: { tint: { color: { light: '#eeeeee' } } }
    })
    expect(next.body).toMatchObject({
      title: 'Acme docs',
      internationalization: { locale: 'fr' },
      styling: { theme: 'bold', tint: { color: { light: '#eeeeee' } } }
    })
    expect((await t.owner.api.get(customizationPath(site.id))).body).toEqual(next.body)
    // The customization's title follows the site's until it is set.
    await t.owner.api.patch(sitePath(t, site.id), { title: 'Acme handbook' })
    expect((await t.owner.api.get(customizationPath(site.id))).body.title).toBe('Acme handbook')
  })

  it('rejects invalid values, changing nothing', async () => {
    const site = await createSite(t)
    await expectInvalid(t.owner.api, 'PUT', customizationPath(site.id), [
      [{ styling: { primaryColor: { light: 'red' } } }, 'styling.primaryColor.light: must be a hex colour, #rgb or #rrggbb'],
      [{ styling: { theme: 'neon' } }, 'styling.theme: must be one of'],
      [{ styling: { corners: 'soft' } }, 'styling.corners: must be one of'],
      [{ styling: { sidebar: { list: 'dots' } } }, 'styling.sidebar.list: must be one of'],
      [{ styling: { font: 'Comic"Sans' } }, 'styling.font: must be letters, digits, spaces, - and _'],
      [{ internationalization: { locale: 'english' } }, 'internationalization.locale: must be a language code, like en or pt-br'],
      [{ title: '' }, 'title: must be at least 1 characters'],
      [{ favicon: { icon: { light: 'not a url' } } }, 'favicon']
    ])
    expect((await t.owner.api.get(customizationPath(site.id))).body.styling.theme).toBe('clean')
  })
})

describe('published', () => {
  it('answers the site, its site spaces as structure and the customizations', async () => {
    const [a, b] = [await createSpace(t, 'Guides'), await createSpace(t, 'API')]
    const site = await createSite(t, { spaces: [a.id, b.id] })
    await t.owner.api.put(customizationPath(site.id), { styling: { primaryColor: { light: '#123456' } } })
    const res = await t.owner.api.get(`${sitePath(t, site.id)}/published`)
    expect(res.status).toBe(200)
    expect(res.body.object).toBe('published-content-site')
    expectSite(res.body.site)
    expect(res.body.site).toMatchObject({ id: site.id, siteSpaces: 2 })
    expect(res.body.structure.type).toBe('siteSpaces')
    res.body.structure.structure.forEach(expectSiteSpace)
    expect(res.body.structure.structure.map((s: any) => [s.title, s.default, s.space.id])).toEqual([
      ['Guides', true, a.id],
      ['API', false, b.id]
    ])
    expect(res.body.customizations.site).toEqual((await t.owner.api.get(customizationPath(site.id))).body)
    expect(res.body.customizations.site.styling.primaryColor.light).toBe('#123456')
  })

  it('resolves published URLs with a share key, and refuses keys that are not active', async () => {
    const site = await createSite(t, { visibility: 'share-link', spaces: [(await createSpace(t, 'Docs')).id] })
    await publish(t, site.id)
    const link = (await t.owner.api.post(`${sitePath(t, site.id)}/share-links`, { name: 'Partners' })).body
    const key = new URL(link.urls.published).searchParams.get('shareKey')!
    const res = await t.owner.api.get(`${sitePath(t, site.id)}/published`, { shareKey: key })
    expect(res.body.site.urls.published).toContain(`?shareKey=${key}`)
    expect(res.body.structure.structure[0].urls.published).toContain(`/docs/?shareKey=${key}`)
    await t.owner.api.patch(`${sitePath(t, site.id)}/share-links/${link.id}`, { active: false })
    const inactive = await t.owner.api.get(`${sitePath(t, site.id)}/published`, { shareKey: key })
    expect(inactive.status).toBe(400)
    expect(inactive.body.error.message).toContain('shareKey: ')
  })
})
