import { defineConfig } from 'vitest/config'

// `npm test`'s last unit step (scripts/test.mjs): after the whole suite ran with QUIRE_CONTRACT_SEEN set, checks
// that it exercised every operation Quire shares with the published API document. Not part of `vitest run`.
export default defineConfig({
  test: {
    include: ['src-main/testing/contractCoverage.check.ts'],
    environment: 'node',
    testTimeout: 20_000
  }
})
