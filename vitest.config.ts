import { availableParallelism } from 'node:os'
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
    // One fork per core, two at least (vitest's default keeps a core free: one fork on a 2-core machine, where
    // much of a fork's time is spent waiting on child processes and sockets).
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 20_000
  }
})
