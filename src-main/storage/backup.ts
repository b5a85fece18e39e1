import { randomBytes } from 'node:crypto'
import { existsSync, renameSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { checkDatabaseFile, WorkspaceFileError } from './database'

// The thread's code, plain CommonJS evaluated as is (as searchPool.ts does): the same source runs from the
// TypeScript sources and from the bundle. VACUUM INTO reads the source in ONE read transaction, so the copy is
// the database as it stood when it began (every commit before, none after), while writers (this process's
// connection, another process's) go on in WAL mode. The copy is then checked before anyone is told it exists.
const THREAD_SOURCE = `
const { workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const source = new Database(workerData.file, { readonly: true, fileMustExist: true })
try {
  source.pragma('busy_timeout = 5000')
  source.prepare('VACUUM INTO ?').run(workerData.to)
} finally {
  source.close()
}
const copy = new Database(workerData.to, { readonly: true, fileMustExist: true })
try {
  const check = copy.pragma('quick_check', { simple: true })
  if (check !== 'ok') throw new Error('the copy fails PRAGMA quick_check: ' + check)
} finally {
  copy.close()
}
`

/**
 * Writes a consistent copy of the workspace database `file` to `to` (a path that must not exist yet), a single
 * file with no log beside it. Runs in a thread of its own, so a server keeps answering meanwhile.
 */
export function copyDatabase(file: string, to: string): Promise<void> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3')
  return new Promise((resolve, reject) => {
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { driver, file, to } })
    let failed: Error | undefined
    worker.once('error', (error) => (failed = error))
    worker.once('exit', (code) => {
      if (failed || code !== 0) {
        rmSync(to, { force: true })
        reject(failed ?? new Error(`the backup thread stopped (exit code ${code})`))
      } else resolve()
    })
  })
}

/**
 * Backs up the workspace database `file` to `target`: checked first (a file that is not a workspace or is damaged
 * is not copied), copied beside `target` under a temporary name, then renamed onto it, so `target` is either
 * absent or whole. An existing `target` is replaced only with `force`. Returns the copy's size in bytes.
 */
export async function backupDatabase(file: string, target: string, { force = false }: { force?: boolean } = {}): Promise<number> {
  if (!existsSync(file)) throw new Error(`${file} does not exist`)
  if (!force && existsSync(target)) throw new Error(`${target} already exists: give --force to replace it`)
  try {
    checkDatabaseFile(file, { deep: false, allowEmpty: false })
  } catch (error) {
    // A newer Quire's workspace copies as well as any: only this version cannot open it.
    if (!(error instanceof WorkspaceFileError && error.kind === 'newer')) throw error
  }
  const partial = join(dirname(target), `.${basename(target)}.partial-${randomBytes(4).toString('hex')}`)
  try {
    await copyDatabase(file, partial)
    if (!force && existsSync(target)) throw new Error(`${target} already exists: give --force to replace it`)
    renameSync(partial, target)
  } finally {
    rmSync(partial, { force: true })
  }
  return statSync(target).size
}
