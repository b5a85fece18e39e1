// The launcher's code cache (codeCache.ts), run as `node out/main/cli.js` runs it: each case is a process of its own,
// so V8 meets the cache file as a fresh start does.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDirs } from '../testing/tempDirs'
import { WARM_EVENT, WRAPPER_HEAD, WRAPPER_TAIL } from '../base/codeCache'

const tempDir = tempDirs('code-cache')
const codeCache = join(import.meta.dirname, 'codeCache.ts')

/**
 * A bundle as the build writes one: wrapped, requiring a module beside itself and an ES module (the build turns
 * import() into require(): a script run from the cache has no dynamic-import callback), then warm (or not).
 */
function bundleIn(dir: string, { warm = true, answer = 42 } = {}): string {
  writeFileSync(join(dir, 'dep.cjs'), 'module.exports = (n) => n * 2\n')
  writeFileSync(join(dir, 'esm.mjs'), 'export const word = "imported"\n')
  const body = [
    'const double = require("./dep.cjs")',
    `function answer() { return double(${answer} / 2) }`,
    'Promise.resolve(require("./esm.mjs")).then(({ word }) => {',
    '  console.log(JSON.stringify({ answer: answer(), word, filename: __filename }))',
    warm ? `  process.emit(${JSON.stringify(WARM_EVENT)})` : '',
    '})'
  ].join('\n')
  const file = join(dir, 'bundle.cjs')
  writeFileSync(file, WRAPPER_HEAD + body + WRAPPER_TAIL)
  return file
}

/** Runs `file` through runBundle in a new process; answers what the bundle printed and the cache's state. */
function run(file: string, options: { hash: string; cacheDir?: string | false }) {
  const launcher = join(file, '..', 'launch.mjs')
  writeFileSync(
    launcher,
    `import { runBundle } from ${JSON.stringify(codeCache)}\n` +
      `const result = runBundle(${JSON.stringify(file)}, ${JSON.stringify({ ...options, writeDelayMs: 60_000 })})\n` +
      `process.on('exit', () => console.error(JSON.stringify(result)))\n`
  )
  const child = spawnSync(process.execPath, ['--import', 'tsx', launcher], { encoding: 'utf8' })
  expect(child.status, child.stderr).toBe(0)
  const printed = JSON.parse(child.stdout.trim()) as { answer: number; word: string; filename: string }
  const result = JSON.parse(child.stderr.trim().split('\n').at(-1)!) as { state: string; cacheFile?: string }
  return { ...printed, ...result }
}

describe('runBundle', () => {
  it('runs the bundle as a module of its own, compiles it the first time, then starts from the cache', async () => {
    const dir = tempDir()
    const file = bundleIn(dir)
    const first = run(file, { hash: 'a1' })
    expect(first).toMatchObject({ answer: 42, word: 'imported', filename: file, state: 'none' })
    // Written at exit: the bundle said it was warm, and the process ended before the delay.
    expect(existsSync(first.cacheFile!)).toBe(true)
    expect(first.cacheFile!.startsWith(join(dir, 'code-cache'))).toBe(true)
    expect(run(file, { hash: 'a1' })).toMatchObject({ answer: 42, word: 'imported', state: 'used' })
  })

  it('takes a cache V8 refuses as none: the bundle runs as it is, and the cache is written again', async () => {
    const dir = tempDir()
    const file = bundleIn(dir)
    const { cacheFile } = run(file, { hash: 'b1' })
    writeFileSync(cacheFile!, Buffer.alloc(4096, 7))
    expect(run(file, { hash: 'b1' })).toMatchObject({ answer: 42, state: 'rejected' })
    expect(run(file, { hash: 'b1' })).toMatchObject({ answer: 42, state: 'used' })
  })

  it('keeps the cache of one build to that build: a rebuilt bundle (another hash) never meets it', async () => {
    const dir = tempDir()
    const file = bundleIn(dir, { answer: 42 })
    run(file, { hash: 'c1' })
    // The same length, other code: V8 itself would not tell them apart.
    bundleIn(dir, { answer: 64 })
    expect(run(file, { hash: 'c2' })).toMatchObject({ answer: 64, state: 'none' })
    expect(run(file, { hash: 'c2' })).toMatchObject({ answer: 64, state: 'used' })
    expect(readdirSync(join(dir, 'code-cache')).filter((name) => name.endsWith('.bin'))).toHaveLength(2)
  })

  it('writes nothing for a run that never got warm, or with the cache off', async () => {
    const cold = tempDir()
    expect(run(bundleIn(cold, { warm: false }), { hash: 'd1' })).toMatchObject({ answer: 42, state: 'none' })
    expect(existsSync(join(cold, 'code-cache'))).toBe(false)

    const off = tempDir()
    const file = bundleIn(off)
    expect(run(file, { hash: 'd2', cacheDir: false })).toMatchObject({ answer: 42, state: 'off' })
    expect(existsSync(join(off, 'code-cache'))).toBe(false)
  })

  it('runs without a cache where none can be written (a read-only install)', async () => {
    const dir = tempDir()
    const file = bundleIn(dir)
    // A file where the cache folder would be: nothing can be made there.
    writeFileSync(join(dir, 'blocked'), '')
    expect(run(file, { hash: 'e1', cacheDir: join(dir, 'blocked') })).toMatchObject({ answer: 42, state: 'none' })
    expect(run(file, { hash: 'e1', cacheDir: join(dir, 'blocked') })).toMatchObject({ answer: 42, state: 'none' })
    expect(readFileSync(join(dir, 'blocked'), 'utf8')).toBe('')
  })
})
