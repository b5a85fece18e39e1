import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'

/**
 * Threads that run search's ranking query on read-only connections of the workspace file. Ranking a broad query
 * is thousands of bm25 evaluations inside SQLite, most of a search's time. It is split across cores: the rowid
 * range is cut into parts, each thread ranks one and the caller's thread the last one meanwhile (it would only
 * wait otherwise); the parts' matches, concatenated in range order, are exactly the whole range's (bm25's
 * statistics are the whole table's, whatever the range). The event loop is held for that one part only.
 *
 * The threads only run a statement and hand its two JSON arrays back as typed arrays (transferred, not copied);
 * the SQL is the caller's. A workspace in memory (tests) has no file to share, so it has no pool and ranks in
 * process; so does a one-core machine, where a thread would only add the hand-over.
 */
export interface SearchPool {
  /** Threads ranking parts of the range; the caller's thread ranks one more part meanwhile. */
  readonly threads: number
  /** True once close() was called (the workspace is closing): runs reject, and callers rank in process. */
  readonly closed: boolean
  /**
   * Runs `sql` (one row of two JSON arrays of numbers) once per params, in parallel. Rejects when a thread
   * fails; a pool whose thread died rejects from then on, and callers rank in process instead.
   */
  run(sql: string, params: Record<string, unknown>[]): Promise<[Float64Array, Float64Array][]>
  /** Starts the threads now (a server at start-up) instead of at the first search. */
  warm(): void
  close(): Promise<void>
}

/**
 * Threads for a machine: one per core besides the caller's, for at most 4 parts in all (each part pays the query's
 * fixed cost); none on one core.
 */
export function searchThreads(cores = availableParallelism()): number {
  return Math.min(4, Math.max(1, cores)) - 1
}

// The thread's code, plain CommonJS evaluated as is: the same source runs from the TypeScript sources (tsx,
// vitest) and from the bundle, with no second build entry to locate. It loads better-sqlite3 from the path the
// main thread resolved, and prepares each distinct SQL text once.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.file, { readonly: true, fileMustExist: true })
db.pragma('busy_timeout = 5000')
db.pragma('cache_size = -' + workerData.cacheKiB)
const statements = new Map()
parentPort.on('message', (message) => {
  if (message.close) {
    db.close()
    parentPort.close()
    return
  }
  try {
    let statement = statements.get(message.sql)
    if (!statement) statements.set(message.sql, (statement = db.prepare(message.sql).raw()))
    const row = statement.get(message.params)
    const first = Float64Array.from(JSON.parse(row[0]))
    const second = Float64Array.from(JSON.parse(row[1]))
    parentPort.postMessage({ id: message.id, first, second }, [first.buffer, second.buffer])
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String(error && error.message ? error.message : error) })
  }
})
`

type Reply = { id: number; first: Float64Array; second: Float64Array } | { id: number; error: string }

interface Pending {
  resolve(value: [Float64Array, Float64Array]): void
  reject(error: Error): void
}

/**
 * A pool over the database file `file`. `cacheKiB`: each thread's SQLite page cache (the index pages a thread
 * reads stay warm in its own connection).
 */
export function createSearchPool(file: string, threads: number, { cacheKiB = 32_768 }: { cacheKiB?: number } = {}): SearchPool {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3')
  const pending = new Map<number, Pending>()
  let workers: { worker: Worker; exited: Promise<void> }[] | undefined
  let broken: Error | undefined
  let closed = false
  let nextId = 0

  const fail = (error: Error) => {
    broken ??= error
    for (const p of pending.values()) p.reject(error)
    pending.clear()
  }

  const start = () => {
    if (workers) return workers
    workers = Array.from({ length: threads }, () => {
      const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { driver, file, cacheKiB } })
      worker.unref()
      worker.on('message', (reply: Reply) => {
        const p = pending.get(reply.id)
        if (!p) return
        pending.delete(reply.id)
        if ('error' in reply) p.reject(new Error(reply.error))
        else p.resolve([reply.first, reply.second])
      })
      worker.on('error', (error) => fail(error))
      const exited = new Promise<void>((resolve) =>
        worker.once('exit', (code) => {
          if (!closed) fail(new Error(`search thread stopped (exit code ${code})`))
          resolve()
        })
      )
      return { worker, exited }
    })
    return workers
  }

  return {
    threads,
    get closed() {
      return closed
    },
    run(sql, params) {
      if (closed) return Promise.reject(new Error('search pool closed'))
      if (broken) return Promise.reject(broken)
      const pool = start()
      return Promise.all(
        params.map(
          (p, i) =>
            new Promise<[Float64Array, Float64Array]>((resolve, reject) => {
              const id = ++nextId
              pending.set(id, { resolve, reject })
              pool[i % pool.length]!.worker.postMessage({ id, sql, params: p })
            })
        )
      )
    },
    warm() {
      if (!closed && !broken) start()
    },
    async close() {
      if (closed) return
      closed = true
      fail(new Error('search pool closed'))
      const running = workers ?? []
      workers = undefined
      // Each thread closes its connection and ends on its own; terminate() is the backstop for one that does not.
      for (const { worker } of running) worker.postMessage({ close: true })
      const backstop = setTimeout(() => running.forEach(({ worker }) => void worker.terminate()), 2000)
      await Promise.all(running.map(({ exited }) => exited))
      clearTimeout(backstop)
    }
  }
}
