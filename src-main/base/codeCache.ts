// Runs a CommonJS bundle (out/main/cli.cjs, the headless CLI; host.cjs, the workspace host) with V8's code cache, the way VS Code loads its own
// bundles and Node 22's `module.enableCompileCache()` loads modules (not in Node 20). Without it, every start parses
// and compiles the same 2 MB of JavaScript again: with it, V8 deserializes the bytecode of every function the last
// warm run compiled, so a start neither resolves hundreds of module files nor compiles them.
//
// The cache is a file beside the bundle (code-cache/) or in a folder the caller names, named by the bundle's content
// hash and the V8 version, and written only by a run that got warm (the server listening, the host's workspaces
// open: `process.emit(WARM_EVENT)`), at exit or a second later, whichever comes first: a `quire help` must not leave a cache that lacks the server's functions. V8 checks
// the rest itself (its flags, the source's length) and rejects a cache that does not fit; the run then compiles
// as if there were none and writes a new one. Nothing here is needed for correctness: a cache that cannot be read
// or written only makes the start slower.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import Module, { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { Script } from 'node:vm'

/** The bundle's first and last text: a CommonJS module's wrapper (Node's `Module.wrap`), so it compiles to a function. */
export const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) { '
export const WRAPPER_TAIL = '\n})'

/** What a bundle emits on `process` once it has done the work whose compiled functions are worth caching. */
export const WARM_EVENT = 'quire:code-cache-warm'

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Node's own typings declare `process` in this namespace
  namespace NodeJS {
    interface Process {
      emit(event: typeof WARM_EVENT): boolean
    }
  }
}

export type CacheState = 'used' | 'none' | 'rejected' | 'off'

export interface RunOptions {
  /** The bundle's content hash (computed when it is built): a rebuilt bundle never meets an old cache. */
  hash: string
  /** Where the cache is kept (default: `code-cache` beside the bundle); `false` runs without one. */
  cacheDir?: string | false
  /** Delay from the warm signal to writing the cache, unless the process ends first (default 1 s). */
  writeDelayMs?: number
}

export interface RunResult {
  /** Whether V8 used the cache this run. */
  state: CacheState
  /** The cache file (used, or to be written). */
  cacheFile?: string
}

/**
 * Runs the CommonJS bundle `file` as a module of its own, with the code cache of `options.hash`. The bundle is ASCII
 * (esbuild's default charset), read as one-byte text, and already wrapped (WRAPPER_HEAD, WRAPPER_TAIL). Answers what
 * became of the cache.
 */
export function runBundle(file: string, options: RunOptions): RunResult {
  const source = readFileSync(file, 'latin1')
  const dir = options.cacheDir === undefined ? join(dirname(file), 'code-cache') : options.cacheDir
  const cacheFile = dir ? join(dir, `${basename(file)}-${options.hash}-${process.versions.v8}-${process.arch}.bin`) : undefined
  let cachedData: Buffer | undefined
  if (cacheFile) {
    try {
      cachedData = readFileSync(cacheFile)
    } catch {
      // none yet
    }
  }
  // No import() callback: Node 20 drops it from a script compiled from the cache, so the bundle has no import() at
  // all (the build turns them into require(), and refuses a bundle that still calls one).
  const script = new Script(source, { filename: file, cachedData })
  const state: CacheState = !cacheFile ? 'off' : !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'used'
  if (cacheFile && state !== 'used') writeWhenWarm(script, cacheFile, options.writeDelayMs ?? 1000)
  const bundle = new Module(file)
  bundle.filename = file
  bundle.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file))
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void
  wrapper.call(bundle.exports, bundle.exports, createRequire(file), bundle, file, dirname(file))
  return { state, cacheFile }
}

/** Once the bundle says it is warm: the cache, written at exit or after `delayMs`, whichever comes first. */
function writeWhenWarm(script: Script, cacheFile: string, delayMs: number): void {
  let written = false
  const write = () => {
    if (written) return
    written = true
    process.off('exit', write)
    try {
      mkdirSync(dirname(cacheFile), { recursive: true })
      // Written whole, then renamed: a start running at the same moment reads the old file or the new one.
      const partial = `${cacheFile}.${process.pid}.tmp`
      writeFileSync(partial, script.createCachedData())
      renameSync(partial, cacheFile)
    } catch {
      // A folder that cannot be written (a read-only install): starts stay as they are.
    }
  }
  process.once(WARM_EVENT, () => {
    process.once('exit', write)
    setTimeout(write, delayMs).unref()
  })
}
