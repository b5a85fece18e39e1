import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkAnswer, contractViolation, PENDING, publishedOperation, sharedOperations } from './contract'
import { startTestServer, type TestServer } from './harness'
import { tempDirs } from './tempDirs'

const tempDir = tempDirs('contract')

let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

describe('the contract check', () => {
  it('passes a conforming answer and names the member a drifted one lacks', async () => {
    const me = await t.owner.api.get('/v1/user')
    expect(me.status).toBe(200)
    expect(contractViolation('GET', '/v1/user', 200, me.body)).toBeUndefined()
    const { id: _dropped, ...drifted } = me.body
    const violation = contractViolation('GET', '/v1/user', 200, drifted)
    expect(violation).toContain("must have required property 'id'")
    // The harness throws it: the test that received such an answer fails (unless violations are being logged).
    const log = process.env.QUIRE_CONTRACT_LOG
    delete process.env.QUIRE_CONTRACT_LOG
    try {
      expect(() => checkAnswer('GET', '/v1/user', 200, drifted)).toThrow(/GET \/user 200/)
    } finally {
      if (log !== undefined) process.env.QUIRE_CONTRACT_LOG = log
    }
  })

  it('checks error answers against the published error envelope', async () => {
    const missing = await t.owner.api.get('/v1/spaces/nope')
    expect(missing.status).toBe(404)
    expect(contractViolation('GET', '/v1/spaces/nope', 404, missing.body)).toBeUndefined()
    expect(contractViolation('GET', '/v1/spaces/nope', 404, { message: 'Not found' })).toContain("must have required property 'error'")
  })

  it('leaves Quire’s own operations to its own document', () => {
    expect(publishedOperation('GET', '/v1/spaces/abc/revisions')).toBeUndefined()
    expect(contractViolation('GET', '/v1/spaces/abc/revisions', 200, { anything: true })).toBeUndefined()
    expect(publishedOperation('GET', '/v1/spaces/abc/revisions/r1/changes')).toEqual({
      method: 'GET',
      template: '/spaces/{spaceId}/revisions/{revisionId}/changes'
    })
  })

  it('lists as pending only published operations, sorted, once each', () => {
    const pending = [...PENDING]
    expect(pending).toEqual([...new Set(pending)].sort())
    for (const name of pending) {
      const [method, template] = name.split(' ')
      expect(publishedOperation(method!, template!.replace(/\{[^}]+\}/g, 'x')), name).toBeDefined()
    }
  })
})

describe('contract coverage', () => {
  it('records the published operations the tests received a successful answer of, once each', async () => {
    const file = join(tempDir(), 'seen.txt')
    const before = process.env.QUIRE_CONTRACT_SEEN
    process.env.QUIRE_CONTRACT_SEEN = file
    try {
      await t.owner.api.get('/v1/user')
      await t.owner.api.get('/v1/user')
      expect((await t.owner.api.get('/v1/spaces/nope')).status).toBe(404)
      const space = await t.owner.api.post(`/v1/orgs/${t.orgId}/spaces`, { title: 'Seen' })
      await t.owner.api.get(`/v1/spaces/${space.body.id}/revisions`)
    } finally {
      if (before === undefined) delete process.env.QUIRE_CONTRACT_SEEN
      else process.env.QUIRE_CONTRACT_SEEN = before
    }
    // Refused answers (the 404) and Quire's own operations (the revisions list) are not recorded.
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toEqual(['GET /user', 'POST /orgs/{organizationId}/spaces'])
  })

  it('lists the shared operations by method and path template, whatever the parameters are named', async () => {
    const document = {
      paths: {
        '/v1/orgs/{org}/spaces': { get: {}, post: {}, head: {} },
        '/v1/spaces/{spaceId}/revisions': { get: {} },
        '/v1/spaces/{spaceId}/revisions/latest': { get: {} },
        '/orgs/{organizationId}': { get: {} }
      }
    }
    expect(sharedOperations(document)).toEqual(['GET /orgs/{organizationId}/spaces', 'POST /orgs/{organizationId}/spaces'])
    const served = sharedOperations((await t.anonymous.get('/v1/openapi.json')).body)
    expect(served).toEqual(
      expect.arrayContaining(['GET /orgs/{organizationId}', 'PATCH /spaces/{spaceId}', 'GET /spaces/{spaceId}/revisions/{revisionId}'])
    )
    expect(served).not.toContain('GET /spaces/{spaceId}/revisions')
  })
})
