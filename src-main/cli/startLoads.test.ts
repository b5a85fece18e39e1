import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { getStatus, LAZY_PACKAGES, packagesInLog } from '../testing/lazyPackages'
import { tempDirs } from '../testing/tempDirs'

// What `quire serve` loads before its first answer. The cold start (`npm run bench -- --only cold-start`) stays
// under half a second because the heavy engines load when first used: a static import of one of them from the
// start's module graph would bring its load back to every start. This names such an import; it times nothing.

const cli = join(import.meta.dirname, 'main.ts')
const moduleLog = join(import.meta.dirname, '..', 'testing', 'moduleLog.mjs')
const tempDir = tempDirs('start-loads')
const token = 'start-loads-token-0123456789abcdefghijklmnop'

/** Starts `quire serve` on a fresh folder, asks GET /v1/user, stops it; answers the packages the process loaded. */
async function packagesLoadedByAStart(): Promise<Set<string>> {
  const dir = tempDir()
  const log = join(dir, 'modules.log')
  const child = spawn(
    process.execPath,
    ['--import', moduleLog, '--import', 'tsx', cli, 'serve', '--port', '0', '--data', join(dir, 'data'), '--token', token],
    { env: { ...process.env, QUIRE_MODULE_LOG: log } }
  )
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  let out = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /listening on (\S+)/.exec(out)
      if (match) resolve(match[1]!)
    })
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.once('exit', (code) => reject(new Error(`quire serve exited with ${code}: ${out}`)))
  })
  expect(await getStatus(`${url}/user`, token)).toBe(200)
  child.kill('SIGTERM')
  expect(await exited).toBe(0)
  expect(existsSync(log)).toBe(true)
  return packagesInLog(readFileSync(log, 'utf8'))
}

describe('quire serve', () => {
  it('answers its first request without loading the PDF, import, Git, OpenAPI or JWT engines', async () => {
    const loaded = await packagesLoadedByAStart()
    // The log sees what a start does load (ESM imports and CommonJS requires alike).
    expect(loaded).toContain('fastify')
    expect(loaded).toContain('better-sqlite3')
    expect(LAZY_PACKAGES.filter((name) => loaded.has(name))).toEqual([])
  }, 120_000)
})
