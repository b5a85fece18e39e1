// Run by `npm test` after the unit suite (vitest.contract.config.ts): the suite ran with QUIRE_CONTRACT_SEEN set,
// so the file it names lists every published operation some HTTP test received a successful answer of. Every
// operation Quire serves that the published document has must be among them: its answers are then checked.
import { existsSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sharedOperations } from './contract'
import { startTestServer, type TestServer } from './harness'

let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

describe('contract coverage', () => {
  it('exercises every operation Quire shares with the published document', async () => {
    const file = process.env.QUIRE_CONTRACT_SEEN
    expect(file && existsSync(file), 'QUIRE_CONTRACT_SEEN names the record of a whole suite run (scripts/test.mjs)').toBeTruthy()
    const seen = new Set(readFileSync(file!, 'utf8').split('\n').filter(Boolean))
    const shared = sharedOperations((await t.anonymous.get('/v1/openapi.json')).body)
    expect(shared.length).toBeGreaterThan(100)
    expect(
      shared.filter((operation) => !seen.has(operation)),
      'shared operations no HTTP test received a successful answer of'
    ).toEqual([])
  })
})
