import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Only our own tests: the default include would also pick up the Playwright specs in e2e/.
    include: ['src-*/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // Files share a worker's modules instead of re-importing Fastify, TypeBox, unified… for each (import time
    // went from ~60 s to ~6 s; the run from ~350 s to ~250 s on 2 cores). Safe because module state is keyed by
    // database (WeakMaps of prepared statements, caches) and every test opens its own in-memory workspace.
    isolate: false,
    testTimeout: 20_000
  }
})
