import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkAnswer, contractViolation, PENDING, publishedOperation } from './contract'
import { startTestServer, type TestServer } from './harness'

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
    expect(publishedOperation('GET', '/v1/spaces/abc/revisions/r1/changes')).toEqual({ method: 'GET', template: '/spaces/{spaceId}/revisions/{revisionId}/changes' })
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
