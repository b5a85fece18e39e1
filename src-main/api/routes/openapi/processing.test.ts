import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startServer } from '../../../server/server'
import { newToken } from '../../../storage/ids'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import {
  gate,
  PETSTORE,
  pollUntil,
  serveDocuments,
  SWAGGER_2,
  untilComplete,
  warmUpValidator,
  type DocServer,
  type Served
} from './fixtures'

beforeAll(warmUpValidator, 120_000)

let t: TestServer
let docs: DocServer | undefined
beforeEach(async () => {
  t = await startTestServer()
  // Generous for loopback on a loaded machine; the timeout test shortens it.
  t.server.api.services.openapi = { fetchTimeoutMs: 5000 }
})
afterEach(async () => {
  await t.close()
  await docs?.close()
  docs = undefined
})

const base = () => `/v1/orgs/${t.orgId}/openapi`

async function serve(files: Record<string, Served>) {
  docs = await serveDocuments(files)
  return docs
}

/** Creates spec `slug` from `source` and waits until its processing is complete. */
async function processed(slug: string, source: { url: string } | { text: string }) {
  const res = await t.owner.api.post(base(), { slug, source })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return untilComplete(t.owner.api, `${base()}/${slug}`)
}

describe('processing outcomes', () => {
  it('a valid document reaches complete with a version whose content lists its paths', async () => {
    const server = await serve({ '/specs/petstore.yaml': { body: PETSTORE } })
    const url = server.url('/specs/petstore.yaml')
    const spec = await processed('petstore', { url })
    expect(spec.lastProcessErrorCode).toBeUndefined()
    expect(spec.lastProcessedErrorCount).toBe(0)
    expect(spec.lastVersion).toEqual(expect.any(String))

    const latest = await t.owner.api.get(`${base()}/petstore/versions/latest`)
    expect(latest.status).toBe(200)
    expect(latest.body).toEqual({
      object: 'openapi-spec-version',
      id: spec.lastVersion,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      url,
      urls: { location: `${t.url}${base()}/petstore/versions/${spec.lastVersion}` }
    })
    const content = await t.owner.api.get(`${base()}/petstore/versions/latest/content`)
    expect(content.status).toBe(200)
    expect(content.headers.get('content-type')).toMatch(/^application\/json/)
    expect(content.body.url).toBe(url)
    expect(content.body.urls).toEqual({ source: url, public: null })
    expect(Object.keys(content.body.filesystem)).toEqual(['petstore.yaml'])
    expect(Object.keys(content.body.filesystem['petstore.yaml'].paths)).toEqual(['/pets', '/pets/{petId}'])
    expect(content.body.filesystem['petstore.yaml'].info).toEqual({ title: 'Petstore', version: '1.0.0' })

    const byId = await t.owner.api.get(`${base()}/petstore/versions/${spec.lastVersion}`)
    expect(byId.body).toEqual(latest.body)
    expect((await t.owner.api.get(`${base()}/petstore/versions/${spec.lastVersion}/content`)).body).toEqual(content.body)
    expect((await t.owner.api.get(`${base()}/petstore/versions/nope`)).body.error).toEqual({
      code: 404,
      message: 'OpenAPI spec version not found'
    })
    expect((await t.owner.api.get(`${base()}/petstore/versions/nope/content`)).status).toBe(404)
  })

  it('accepts Swagger 2.0 in JSON', async () => {
    const server = await serve({ '/swagger.json': { body: SWAGGER_2, type: 'application/json' } })
    const spec = await processed('old', { url: server.url('/swagger.json') })
    expect(spec.lastProcessErrorCode).toBeUndefined()
    const content = (await t.owner.api.get(`${base()}/old/versions/latest/content`)).body
    expect(Object.keys(content.filesystem['swagger.json'].paths)).toEqual(['/things'])
  })

  it('a server that never answers ends with FETCH_TIMEOUT and no version', async () => {
    t.server.api.services.openapi = { fetchTimeoutMs: 200 }
    const server = await serve({ '/slow.yaml': { hang: true } })
    const spec = await processed('slow', { url: server.url('/slow.yaml') })
    expect(spec.lastProcessErrorCode).toBe('FETCH_TIMEOUT')
    expect(spec.lastProcessedAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/))
    expect(spec.lastVersion).toBeUndefined()
    expect((await t.owner.api.get(`${base()}/slow/versions/latest`)).status).toBe(404)
    expect((await t.owner.api.get(`${base()}/slow/versions`)).body).toEqual({ items: [], count: 0 })
  })

  it('a 404 or an unreachable host ends with FETCH_ERROR', async () => {
    const server = await serve({})
    expect((await processed('missing', { url: server.url('/missing.yaml') })).lastProcessErrorCode).toBe('FETCH_ERROR')
    const closed = await serveDocuments({})
    const unreachable = closed.url('/openapi.yaml')
    await closed.close()
    expect((await processed('unreachable', { url: unreachable })).lastProcessErrorCode).toBe('FETCH_ERROR')
  })

  it('invalid documents end with PARSE_ERROR: not YAML, not an object, not OpenAPI, broken $ref', async () => {
    const server = await serve({
      '/broken.yaml': { body: 'openapi: 3.0.0\ninfo: [unclosed\n  paths: {' },
      '/list.yaml': { body: '- just\n- a list\n' },
      '/no-info.yaml': { body: 'openapi: 3.0.3\npaths: {}\n' },
      '/not-openapi.json': { body: '{"hello": "world"}', type: 'application/json' },
      '/bad-ref.yaml': { body: PETSTORE.replace("'#/components/schemas/Pet'", "'#/components/schemas/Nope'") }
    })
    for (const file of ['broken.yaml', 'list.yaml', 'no-info.yaml', 'not-openapi.json', 'bad-ref.yaml']) {
      const slug = file.replace(/\..*$/, '')
      const spec = await processed(slug, { url: server.url(`/${file}`) })
      expect(spec.lastProcessErrorCode, file).toBe('PARSE_ERROR')
      expect(spec.lastVersion, file).toBeUndefined()
    }
  })

  it('a failure after a success keeps the last version; a later success clears the error code', async () => {
    const server = await serve({ '/good.yaml': { body: PETSTORE }, '/bad.yaml': { body: 'openapi: [' } })
    const good = await processed('api', { url: server.url('/good.yaml') })
    await t.owner.api.put(`${base()}/api`, { source: { url: server.url('/bad.yaml') } })
    const failed = await pollUntil(t.owner.api, `${base()}/api`, (s) => s.processingState === 'complete' && !!s.lastProcessErrorCode)
    expect(failed).toMatchObject({
      lastProcessErrorCode: 'PARSE_ERROR',
      lastProcessedErrorCount: 1,
      lastVersion: good.lastVersion,
      sourceURL: server.url('/bad.yaml')
    })
    await t.owner.api.put(`${base()}/api`, { source: { url: server.url('/good.yaml') } })
    const again = await pollUntil(
      t.owner.api,
      `${base()}/api`,
      (s) => s.processingState === 'complete' && s.lastVersion !== good.lastVersion
    )
    expect(again.lastProcessErrorCode).toBeUndefined()
    expect(again.lastProcessedErrorCount).toBe(0)
  })
})

describe('processing states', () => {
  it('moves pending -> progress -> complete', async () => {
    const release = gate()
    t.server.api.services.openapi = { fetchTimeoutMs: 10_000 }
    const server = await serve({ '/gated.yaml': { gate: release.promise, body: PETSTORE } })
    const created = await t.owner.api.post(base(), { slug: 'gated', source: { url: server.url('/gated.yaml') } })
    expect(created.body.processingState).toBe('pending')
    await pollUntil(t.owner.api, `${base()}/gated`, (s) => s.processingState === 'progress')
    expect(server.hits.get('/gated.yaml')).toBe(1)
    release.release()
    const done = await untilComplete(t.owner.api, `${base()}/gated`)
    expect(done.lastVersion).toEqual(expect.any(String))
  })

  it('a source replaced during processing wins: the older processing records nothing', async () => {
    const release = gate()
    t.server.api.services.openapi = { fetchTimeoutMs: 10_000 }
    const server = await serve({
      '/old.yaml': { gate: release.promise, body: PETSTORE },
      '/new.yaml': { body: PETSTORE.replace('/pets:', '/cats:') }
    })
    await t.owner.api.post(base(), { slug: 'api', source: { url: server.url('/old.yaml') } })
    await pollUntil(t.owner.api, `${base()}/api`, (s) => s.processingState === 'progress')
    expect((await t.owner.api.put(`${base()}/api`, { source: { url: server.url('/new.yaml') } })).body.processingState).toBe('pending')
    release.release()
    const done = await untilComplete(t.owner.api, `${base()}/api`)
    const versions = await t.owner.api.get(`${base()}/api/versions`)
    expect(versions.body.count).toBe(1)
    expect(versions.body.items[0]).toMatchObject({ id: done.lastVersion, url: server.url('/new.yaml') })
    const content = (await t.owner.api.get(`${base()}/api/versions/latest/content`)).body
    expect(Object.keys(content.filesystem['new.yaml'].paths)).toContain('/cats')
  })

  it('closing the server cancels a processing in flight instead of waiting for it', async () => {
    t.server.api.services.openapi = { fetchTimeoutMs: 60_000 }
    const server = await serve({ '/slow.yaml': { hang: true } })
    await t.owner.api.post(base(), { slug: 'slow', source: { url: server.url('/slow.yaml') } })
    await pollUntil(t.owner.api, `${base()}/slow`, (s) => s.processingState === 'progress')
    const started = Date.now()
    await t.close()
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('a processing left unfinished by a stopped server runs again at the next start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quire-openapi-'))
    const token = newToken()
    const files: Record<string, Served> = { '/api.yaml': { hang: true } }
    const server = await serve(files)
    const call = async (base: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined
      })
      return res.json() as Promise<any>
    }
    const waitFor = async (base: string, path: string, done: (spec: any) => boolean) => {
      for (let deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 10))) {
        const spec = await call(base, 'GET', path)
        if (done(spec)) return spec
      }
      throw new Error(`${path} did not reach the expected state`)
    }
    try {
      const first = await startServer({ dataDir, port: 0, token })
      let path: string
      try {
        first.api.services.openapi = { fetchTimeoutMs: 60_000 }
        const orgId = (await call(first.url, 'GET', '/v1/orgs')).items[0].id
        path = `/v1/orgs/${orgId}/openapi/api`
        await call(first.url, 'POST', `/v1/orgs/${orgId}/openapi`, { slug: 'api', source: { url: server.url('/api.yaml') } })
        await waitFor(first.url, path, (spec) => spec.processingState === 'progress')
      } finally {
        // Stopped mid-fetch: the spec stays in progress in the database.
        await first.close()
      }

      files['/api.yaml'] = { body: PETSTORE }
      const second = await startServer({ dataDir, port: 0, token })
      try {
        const spec = await waitFor(second.url, path, (s) => s.processingState === 'complete')
        expect(spec.lastProcessErrorCode).toBeUndefined()
        expect(spec.lastVersion).toEqual(expect.any(String))
      } finally {
        await second.close()
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})

describe('external $ref files and inline sources', () => {
  it('fetches external $ref files relative to the file that refers to them, into the filesystem', async () => {
    const main = PETSTORE.replace("'#/components/schemas/Pet'", "'schemas/pet.yaml#/Pet'")
    const server = await serve({
      '/api/openapi.yaml': { body: main },
      '/api/schemas/pet.yaml': { body: "Pet:\n  type: object\n  properties:\n    id:\n      $ref: '../common.yaml#/Id'\n" },
      '/api/common.yaml': { body: 'Id:\n  type: string\n  format: uuid\n' }
    })
    const spec = await processed('split', { url: server.url('/api/openapi.yaml') })
    expect(spec.lastProcessErrorCode).toBeUndefined()
    const content = (await t.owner.api.get(`${base()}/split/versions/latest/content`)).body
    expect(Object.keys(content.filesystem).sort()).toEqual(['common.yaml', 'openapi.yaml', 'schemas/pet.yaml'])
    expect(content.filesystem['schemas/pet.yaml'].Pet.properties.id).toEqual({ $ref: '../common.yaml#/Id' })
    expect(content.filesystem['common.yaml'].Id).toEqual({ type: 'string', format: 'uuid' })
    // Each file is read once, however many refer to it.
    expect(server.hits.get('/api/common.yaml')).toBe(1)
  })

  it('a missing $ref file is FETCH_ERROR; a $ref to a missing place in a file is PARSE_ERROR', async () => {
    const server = await serve({
      '/missing.yaml': { body: PETSTORE.replace("'#/components/schemas/Pet'", "'gone.yaml#/Pet'") },
      '/wrong.yaml': { body: PETSTORE.replace("'#/components/schemas/Pet'", "'pet.yaml#/Nope'") },
      '/pet.yaml': { body: 'Pet:\n  type: object\n' }
    })
    expect((await processed('missing', { url: server.url('/missing.yaml') })).lastProcessErrorCode).toBe('FETCH_ERROR')
    expect((await processed('wrong', { url: server.url('/wrong.yaml') })).lastProcessErrorCode).toBe('PARSE_ERROR')
  })

  it('sends basic-auth credentials of the URL as a header (to $ref files too) and keeps them out of the version url', async () => {
    const server = await serve({
      '/private/openapi.yaml': { body: PETSTORE.replace("'#/components/schemas/Pet'", "'pet.yaml#/Pet'"), auth: 'reader:s3cret' },
      '/private/pet.yaml': { body: 'Pet:\n  type: object\n', auth: 'reader:s3cret' }
    })
    const url = server.url('/private/openapi.yaml').replace('http://', 'http://reader:s3cret@')
    const spec = await processed('private', { url })
    expect(spec.lastProcessErrorCode).toBeUndefined()
    const version = (await t.owner.api.get(`${base()}/private/versions/latest`)).body
    expect(version.url).toBe(server.url('/private/openapi.yaml'))
    const content = (await t.owner.api.get(`${base()}/private/versions/latest/content`)).body
    expect(Object.keys(content.filesystem).sort()).toEqual(['openapi.yaml', 'pet.yaml'])
    const denied = await processed('denied', { url: server.url('/private/openapi.yaml') })
    expect(denied.lastProcessErrorCode).toBe('FETCH_ERROR')
  })

  it('processes an inline {text} source (Quire extension)', async () => {
    const spec = await processed('inline', { text: PETSTORE })
    expect(spec.sourceURL).toBeUndefined()
    expect(spec.lastProcessErrorCode).toBeUndefined()
    const version = (await t.owner.api.get(`${base()}/inline/versions/latest`)).body
    const content = (await t.owner.api.get(`${base()}/inline/versions/latest/content`)).body
    expect(version.url).toBe(`${t.url}${base()}/inline/versions/${version.id}/content`)
    expect(content.url).toBe(version.url)
    expect(Object.keys(content.filesystem['openapi.yaml'].paths)).toEqual(['/pets', '/pets/{petId}'])
    const relative = await processed('relative', { text: PETSTORE.replace("'#/components/schemas/Pet'", "'pet.yaml#/Pet'") })
    expect(relative.lastProcessErrorCode).toBe('PARSE_ERROR')
  })
})

describe('GET .../versions', () => {
  it('lists versions newest first and walks them once', async () => {
    for (let i = 0; i < 3; i++) {
      const previous = (await t.owner.api.get(`${base()}/api`)).body?.lastVersion
      await t.owner.api.put(`${base()}/api`, { source: { text: PETSTORE.replace('/pets:', `/v${i}:`) } })
      await pollUntil(t.owner.api, `${base()}/api`, (s) => s.processingState === 'complete' && s.lastVersion !== previous)
    }
    const { items, pages } = await walk(t.owner.api, `${base()}/api/versions`, { limit: 2 })
    expect(items).toHaveLength(3)
    expect(new Set(items.map((v) => v.id)).size).toBe(3)
    expect(pages.map((p) => p.count)).toEqual([3, 3])
    expect(pages.at(-1).next).toBeUndefined()
    const latest = (await t.owner.api.get(`${base()}/api`)).body.lastVersion
    expect(items[0].id).toBe(latest)
    const oldest = (await t.owner.api.get(`${base()}/api/versions/${items[2].id}/content`)).body
    expect(Object.keys(oldest.filesystem['openapi.yaml'].paths)).toContain('/v0')
  })
})

describe('what a failure says and where (lastProcessError, Quire addition)', () => {
  it('a YAML syntax error names the file, the line and column from the parser, and the lines around it', async () => {
    const server = await serve({
      '/specs/broken.yaml': { body: 'openapi: 3.0.3\ninfo:\n  title: Broken\n  version: 1.0.0\npaths:\n  /a: [unclosed\n  /b: {}\n' }
    })
    const spec = await processed('broken', { url: server.url('/specs/broken.yaml') })
    expect(spec.lastProcessErrorCode).toBe('PARSE_ERROR')
    expect(spec.lastProcessError).toEqual({
      code: 'PARSE_ERROR',
      message: expect.stringMatching(/^The document is neither JSON nor YAML \(Flow sequence .* at line 7, column 3\)$/),
      location: { file: 'broken.yaml', line: 7, column: 3 },
      lines: [
        { number: 5, text: 'paths:' },
        { number: 6, text: '  /a: [unclosed' },
        { number: 7, text: '  /b: {}' }
      ]
    })
    // The list answers the same.
    expect((await t.owner.api.get(base())).body.items[0].lastProcessError).toEqual(spec.lastProcessError)
  })

  it('a JSON syntax error gives its line and column too', async () => {
    const text = '{\n  "openapi": "3.0.3",\n  "info": {"title": "x" "version": "1"},\n  "paths": {}\n}\n'
    const spec = await processed('json', { text })
    expect(spec.lastProcessError).toMatchObject({ code: 'PARSE_ERROR', location: { file: 'openapi.json', line: 3, column: 25 } })
    expect(spec.lastProcessError.lines.map((l: { number: number }) => l.number)).toEqual([1, 2, 3, 4, 5])
  })

  it('a $ref to no place names the file and the pointer of the $ref, with its line', async () => {
    const server = await serve({ '/bad-ref.yaml': { body: PETSTORE.replace("'#/components/schemas/Pet'", "'#/components/schemas/Nope'") } })
    const spec = await processed('bad-ref', { url: server.url('/bad-ref.yaml') })
    const line = PETSTORE.split('\n').findIndex((l) => l.includes('$ref')) + 1
    expect(spec.lastProcessError).toMatchObject({
      code: 'PARSE_ERROR',
      message: '$ref #/components/schemas/Nope names no place in bad-ref.yaml',
      location: {
        file: 'bad-ref.yaml',
        pointer: '/paths/~1pets/get/responses/200/content/application~1json/schema/items/$ref',
        line,
        column: 19
      }
    })
    expect(spec.lastProcessError.lines).toContainEqual({ number: line, text: "                  $ref: '#/components/schemas/Nope'" })
  })

  it('a $ref file that cannot be read is FETCH_ERROR at the $ref naming it', async () => {
    const server = await serve({
      '/api/missing.yaml': { body: PETSTORE.replace("'#/components/schemas/Pet'", "'schemas/gone.yaml#/Pet'") }
    })
    const missing = await processed('missing', { url: server.url('/api/missing.yaml') })
    expect(missing.lastProcessError).toMatchObject({
      code: 'FETCH_ERROR',
      message: `${server.url('/api/schemas/gone.yaml')} answered HTTP 404`,
      location: { file: 'missing.yaml', pointer: '/paths/~1pets/get/responses/200/content/application~1json/schema/items/$ref' }
    })
  })

  it('a schema error names the pointer of the offending value and its line', async () => {
    const spec = await processed('no-version', { text: 'openapi: 3.0.3\ninfo:\n  title: x\npaths: {}\n' })
    expect(spec.lastProcessError).toMatchObject({
      code: 'PARSE_ERROR',
      message: "Not a valid Swagger 2.0 or OpenAPI 3.x document: /info must have required property 'version'",
      location: { file: 'openapi.yaml', pointer: '/info', line: 2, column: 1 }
    })
  })

  it('a fetch timeout keeps FETCH_TIMEOUT', async () => {
    t.server.api.services.openapi = { fetchTimeoutMs: 200 }
    const server = await serve({ '/slow.yaml': { hang: true } })
    const spec = await processed('slow', { url: server.url('/slow.yaml') })
    expect(spec.lastProcessError).toEqual({ code: 'FETCH_TIMEOUT', message: `${server.url('/slow.yaml')} did not answer within 200 ms` })
  })

  it('a success clears the error; the error never shows credentials of the URL', async () => {
    const server = await serve({ '/private/bad.yaml': { body: 'openapi: [', auth: 'reader:s3cret' }, '/good.yaml': { body: PETSTORE } })
    const spec = await processed('api', { url: server.url('/private/bad.yaml').replace('http://', 'http://reader:s3cret@') })
    expect(spec.lastProcessError.code).toBe('PARSE_ERROR')
    expect(JSON.stringify(spec.lastProcessError)).not.toContain('s3cret')
    await t.owner.api.put(`${base()}/api`, { source: { url: server.url('/good.yaml') } })
    const good = await pollUntil(t.owner.api, `${base()}/api`, (s) => s.processingState === 'complete' && !!s.lastVersion)
    expect(good.lastProcessError).toBeUndefined()
    expect(good.lastProcessErrorCode).toBeUndefined()
  })
})

describe('processing progress (processingProgress, Quire addition)', () => {
  it('shows the phase and the files read while it runs, and nothing once complete', async () => {
    const release = gate()
    t.server.api.services.openapi = { fetchTimeoutMs: 10_000 }
    const server = await serve({
      '/api/openapi.yaml': { body: PETSTORE.replace("'#/components/schemas/Pet'", "'pet.yaml#/Pet'") },
      '/api/pet.yaml': { gate: release.promise, body: 'Pet:\n  type: object\n' }
    })
    await t.owner.api.post(base(), { slug: 'gated', source: { url: server.url('/api/openapi.yaml') } })
    const running = await pollUntil(t.owner.api, `${base()}/gated`, (s) => s.processingProgress?.phase === 'resolving')
    expect(running).toMatchObject({ processingState: 'progress', processingProgress: { phase: 'resolving', filesRead: 1 } })
    release.release()
    const done = await untilComplete(t.owner.api, `${base()}/gated`)
    expect(done.processingProgress).toBeUndefined()
    expect(done.lastVersion).toEqual(expect.any(String))
  })
})
