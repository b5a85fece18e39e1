// `node out/main/cli.js`: runs the headless CLI's bundle (cli.cjs beside it) with V8's code cache (codeCache.ts).
// QUIRE_CODE_CACHE=off runs it without one. Built by electron.vite.config.ts (headlessBundle), which fills in the hash.
import { join } from 'node:path'
import { runBundle } from './codeCache'

declare const __QUIRE_BUNDLE_HASH__: string

runBundle(join(import.meta.dirname, 'cli.cjs'), {
  hash: __QUIRE_BUNDLE_HASH__,
  cacheDir: process.env.QUIRE_CODE_CACHE === 'off' ? false : undefined
})
