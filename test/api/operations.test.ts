import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../src-main/testing/harness'

/**
 * The list of operations Quire serves (the spec's 150) is the definition of done for the API. An area counts
 * as implemented once it is listed here; from then on every one of its operations must be routed and
 * documented in /v1/openapi.json with its success status.
 */
const IMPLEMENTED_AREAS = new Set([
  'content',
  'change-requests',
  'orgs',
  'spaces',
  'collections',
  'members',
  'teams',
  'custom-fields',
  'sso',
  'comments',
  'sites',
  'site-spaces',
  'section-groups',
  'share-links',
  'git',
  'openapi',
  'integrations',
  'history'
])
/** Operations of implemented areas that belong to a later issue (content engine). */
const LATER = new Set<string>([])

interface Operation {
  method: string
  path: string
  status: string
  area: string
}

const operations: Operation[] = readFileSync(resolve(import.meta.dirname, '../fixtures/operations.tsv'), 'utf8')
  .split('\n')
  .filter((line) => line && !line.startsWith('#') && !line.startsWith('method\t'))
  .map((line) => {
    const [method, path, status, area] = line.split('\t')
    return { method: method!, path: path!, status: status!, area: area! }
  })

let t: TestServer
let doc: any
beforeAll(async () => {
  t = await startTestServer()
  doc = (await t.anonymous.get('/v1/openapi.json')).body
})
afterAll(() => t.close())

describe('operations.tsv', () => {
  it('lists the 150 operations of the contract, then those of the issues that added more', () => {
    expect(operations.slice(150).map((op) => op.area)).toEqual([
      ...Array(9).fill('history'),
      'change-requests',
      'history',
      'content',
      'change-requests'
    ])
    expect(operations).toHaveLength(150 + 13)
  })

  const implemented = operations.filter((op) => IMPLEMENTED_AREAS.has(op.area) && !LATER.has(`${op.method} ${op.path}`))

  it.each(implemented.map((op) => [`${op.method} ${op.path}`, op] as const))('%s is routed and documented', (_name, op) => {
    const fastifyPath = op.path.replace(/\{(\w+)\}/g, ':$1')
    expect(t.server.api.hasRoute({ method: op.method as 'GET', url: fastifyPath }), 'routed').toBe(true)
    const entry = doc.paths?.[op.path]?.[op.method.toLowerCase()]
    expect(entry, 'in /v1/openapi.json').toBeDefined()
    expect(Object.keys(entry.responses)).toContain(op.status)
    expect(entry.responses['4XX'] ?? entry.responses['400'], 'documents the error envelope').toBeDefined()
    expect(entry.summary, 'has a summary').toEqual(expect.any(String))
  })

  it('answers 401 without a token on every implemented operation', async () => {
    for (const op of implemented) {
      const path = op.path.replace(/\{(\w+)\}/g, 'x')
      const res = await t.anonymous.request(op.method, path, op.method === 'GET' || op.method === 'DELETE' ? undefined : {})
      expect(res.status, `${op.method} ${op.path}`).toBe(401)
      expect(res.body.error.code).toBe(401)
    }
  })
})

describe('/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0')
    const validator = new Validator()
    const result = await validator.validate(structuredClone(doc))
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('documents request bodies and response schemas', () => {
    const createSpace = doc.paths['/v1/orgs/{organizationId}/spaces'].post
    expect(createSpace.requestBody.content['application/json'].schema.properties.title.maxLength).toBe(50)
    expect(createSpace.responses['201'].content['application/json'].schema.properties.permissions).toBeDefined()
  })
})
