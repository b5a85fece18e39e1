// `node out/main/cli.js` (and out/main/host.js, the workspace host): runs the bundle beside it (cli.cjs, host.cjs) with
// V8's code cache (../base/codeCache.ts). Built by scripts/lib/headlessBundle.ts, which fills in the bundle and its hash.
// QUIRE_CODE_CACHE=off runs without a cache; QUIRE_CODE_CACHE_DIR keeps it elsewhere than beside the bundle (the
// desktop app's install is read-only: it hands its host a folder of its own).
import { join } from 'node:path'
import { runBundle } from '../base/codeCache'

declare const __QUIRE_BUNDLE__: string
declare const __QUIRE_BUNDLE_HASH__: string

runBundle(join(import.meta.dirname, __QUIRE_BUNDLE__), {
  hash: __QUIRE_BUNDLE_HASH__,
  cacheDir: process.env.QUIRE_CODE_CACHE === 'off' ? false : process.env.QUIRE_CODE_CACHE_DIR || undefined
})
