import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Only our own tests: the default include would also pick up the Playwright specs in e2e/.
    include: ['src-*/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
  },
})
