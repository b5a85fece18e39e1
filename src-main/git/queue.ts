import type { Services } from '../workspace/context'
import type { GitProgress } from '../../src-shared/schemas/git'

interface Job {
  run: () => Promise<void>
  /** Called instead of `run` when the queue closes before the job started. */
  drop: () => void
}

/**
 * Background Git work: one serial queue per space (an import and an export of one space never overlap, and
 * run in the order they were asked for), plus a lock per cache folder (two spaces syncing with one repository
 * take turns in its cache). `idle()` resolves when nothing is queued or running; `close()` drops what has not
 * started and waits for what has.
 */
export class GitJobs {
  private readonly queues = new Map<string, Job[]>()
  private readonly active = new Map<string, Promise<void>>()
  private readonly locks = new Map<string, Promise<unknown>>()
  private readonly progresses = new Map<string, GitProgress>()
  private idleWaiters: (() => void)[] = []
  private closed = false

  get isClosed(): boolean {
    return this.closed
  }

  /** Jobs of `spaceId` waiting behind the running one. */
  waiting(spaceId: string): number {
    return this.queues.get(spaceId)?.length ?? 0
  }

  /** What the running job of `spaceId` is doing (kept in memory only: a poller reads it while the job runs). */
  progress(spaceId: string): GitProgress | undefined {
    const progress = this.progresses.get(spaceId)
    return progress && { ...progress }
  }

  /** The running job's progress: a new phase, or counts added to the current ones. */
  report(spaceId: string, change: Partial<GitProgress>): void {
    const progress = this.progresses.get(spaceId) ?? { phase: 'fetching', filesRead: 0, filesWritten: 0, pagesApplied: 0 }
    this.progresses.set(spaceId, { ...progress, ...change })
  }

  enqueue(spaceId: string, job: Job): void {
    if (this.closed) return job.drop()
    const queue = this.queues.get(spaceId)
    if (queue) queue.push(job)
    else this.queues.set(spaceId, [job])
    if (!this.active.has(spaceId)) this.pump(spaceId)
  }

  private pump(spaceId: string): void {
    const queue = this.queues.get(spaceId)
    const job = queue?.shift()
    if (!job) {
      this.queues.delete(spaceId)
      this.active.delete(spaceId)
      if (!this.active.size) for (const resolve of this.idleWaiters.splice(0)) resolve()
      return
    }
    const running = (this.closed ? Promise.resolve(job.drop()) : job.run())
      .catch(() => undefined) // a job records its own failure; nothing may escape as an unhandled rejection
      .then(() => {
        this.progresses.delete(spaceId)
        this.pump(spaceId)
      })
    this.active.set(spaceId, running)
  }

  /** Runs `fn` once no other holder of `key` runs. */
  async withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const before = this.locks.get(key) ?? Promise.resolve()
    const mine = before.catch(() => undefined).then(fn)
    this.locks.set(key, mine)
    try {
      return await mine
    } finally {
      if (this.locks.get(key) === mine) this.locks.delete(key)
    }
  }

  idle(): Promise<void> {
    if (!this.active.size) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /** Stops taking jobs; queued ones are dropped, running ones finish. */
  async close(): Promise<void> {
    this.closed = true
    for (const queue of this.queues.values()) for (const job of queue.splice(0)) job.drop()
    await this.idle()
  }
}

const bySession = new WeakMap<Services, GitJobs>()

/** The job queue of a workspace (one per Services, made on first use). */
export function gitJobs(services: Services): GitJobs {
  let jobs = bySession.get(services)
  if (!jobs) bySession.set(services, (jobs = new GitJobs()))
  return jobs
}
