// Many writers at once: 50 HTTP clients writing through one server while another connection (as the CLI beside a
// running server would) writes the same database file. Every write is answered 2xx and is there afterwards: no
// SQLITE_BUSY reaches a caller.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src-main/server/server'

const TOKEN = 'quire-concurrency-test-token-0123456789'
const WRITERS = 50
const WRITES_EACH = 4

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Another connection to the same file, in a thread of its own, writing in short transactions until told to stop. */
function sideWriter(file: string): { stop(): Promise<{ written: number; errors: string[] }> } {
  const worker = new Worker(
    `
    const { parentPort, workerData } = require('node:worker_threads')
    const Database = require('better-sqlite3')
    const db = new Database(workerData.file)
    db.pragma('busy_timeout = 5000')
    const insert = db.prepare("INSERT INTO settings (key, value) VALUES (?, 'side')")
    let written = 0, stop = false
    const errors = []
    parentPort.on('message', () => (stop = true))
    const step = () => {
      if (stop) { db.close(); parentPort.postMessage({ written, errors }); return }
      try { db.transaction(() => { for (let i = 0; i < 5; i++) insert.run('side-' + written++) }).immediate() } catch (e) { errors.push(String(e && e.code || e)) }
      setImmediate(step)
    }
    step()
    `,
    { eval: true, workerData: { file } }
  )
  return {
    stop: () =>
      new Promise((resolve, reject) => {
        worker.once('message', resolve)
        worker.once('error', reject)
        worker.postMessage('stop')
      })
  }
}

describe('concurrent writers', () => {
  it(`${WRITERS} HTTP writers and a second connection: every write answered 2xx and kept`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quire-concurrency-'))
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
    const server: RunningServer = await startServer({ dataDir, port: 0, token: TOKEN, searchThreads: 0 })
    cleanups.push(() => server.close())
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }
    const orgs = (await (await fetch(`${server.url}/v1/orgs`, { headers })).json()) as { items: { id: string }[] }
    const orgId = orgs.items[0]!.id

    const side = sideWriter(join(dataDir, 'quire.db'))
    const statuses: number[] = []
    const titles: string[] = []
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
        for (let n = 0; n < WRITES_EACH; n++) {
          const title = `Writer ${writer} space ${n}`
          const res = await fetch(`${server.url}/v1/orgs/${orgId}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title }) })
          statuses.push(res.status)
          if (res.status === 201) titles.push(title)
          // A second write per round touches what the first made.
          const space = (await res.json()) as { id: string }
          const renamed = await fetch(`${server.url}/v1/spaces/${space.id}`, {
            method: 'PATCH',
            headers,
            body: JSON.stringify({ title: `${title}!` })
          })
          statuses.push(renamed.status)
        }
      })
    )
    const sideResult = await side.stop()

    expect(statuses.filter((s) => s >= 300)).toEqual([])
    expect(statuses).toHaveLength(WRITERS * WRITES_EACH * 2)
    expect(sideResult.errors).toEqual([])
    expect(sideResult.written).toBeGreaterThan(0)
    const db = server.api.services.db
    const kept = db.prepare<[], string>("SELECT title FROM spaces WHERE title LIKE 'Writer %'").pluck().all()
    expect(kept.sort()).toEqual(titles.map((t) => `${t}!`).sort())
    expect(db.prepare<[], number>("SELECT count(*) FROM settings WHERE value = 'side'").pluck().get()).toBe(sideResult.written)
  })
})
