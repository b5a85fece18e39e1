import type { Job } from '../../src-shared/schemas/jobs'
import type { WorkProgress } from '../content/progress'
import { WorkCancelled } from '../content/progress'
import type { Services } from '../workspace/context'
import { conflict } from '../base/errors'

/**
 * Long work a request does (an import, a PDF) under an id its caller chose (`job=`): the request still answers
 * when the work is done, and meanwhile `GET /v1/jobs/{id}` tells the caller where it is and `DELETE` cancels it
 * (the work stops at its next check and writes nothing; its request answers 409). Kept in memory: a job is only
 * what its running request does. Ended jobs are kept a while so a last poll sees how they ended.
 */
interface Entry {
  job: Job
  userId: string
  controller: AbortController
  endedAt?: number
}

const KEEP_ENDED_MS = 5 * 60_000
const registries = new WeakMap<Services, Map<string, Entry>>()

function registry(services: Services): Map<string, Entry> {
  let jobs = registries.get(services)
  if (!jobs) registries.set(services, (jobs = new Map()))
  const now = Date.now()
  for (const [key, entry] of jobs) if (entry.endedAt !== undefined && now - entry.endedAt > KEEP_ENDED_MS) jobs.delete(key)
  return jobs
}

const keyOf = (userId: string, id: string) => `${userId}\u0000${id}`

export interface RunningJob extends WorkProgress {
  signal: AbortSignal
  report(phase: string, done: number, total?: number): void
  /** Runs the work, recording how it ended; a cancelled one answers 409 `job: cancelled`. */
  run<T>(work: () => Promise<T>): Promise<T>
}

/** Starts job `id` of the caller (undefined: the request named none, and nothing is kept). */
export function startJob(services: Services, userId: string, id: string | undefined, kind: Job['kind'], phase: string): RunningJob {
  const controller = new AbortController()
  const job: Job = { object: 'job', id: id ?? '', kind, state: 'running', phase, done: 0 }
  if (id !== undefined) {
    const jobs = registry(services)
    if (jobs.get(keyOf(userId, id))?.job.state === 'running') throw conflict(`job: ${id} is running`)
    jobs.set(keyOf(userId, id), { job, userId, controller })
  }
  const end = (state: Job['state']) => {
    job.state = state
    const entry = id !== undefined ? registries.get(services)?.get(keyOf(userId, id)) : undefined
    if (entry) entry.endedAt = Date.now()
  }
  return {
    signal: controller.signal,
    report(phase, done, total) {
      job.phase = phase
      job.done = done
      if (total === undefined) delete job.total
      else job.total = total
    },
    async run(work) {
      try {
        // Work that got past its last check (its write committed) is complete, even if a cancel came after.
        const result = await work()
        end('complete')
        return result
      } catch (error) {
        if (controller.signal.aborted || error instanceof WorkCancelled) {
          end('cancelled')
          throw conflict('job: cancelled')
        }
        end('failed')
        throw error
      }
    }
  }
}

export function findJob(services: Services, userId: string, id: string): Job | undefined {
  return registry(services).get(keyOf(userId, id))?.job
}

/** Cancels a running job of the caller; false when there is none of that id. */
export function cancelJob(services: Services, userId: string, id: string): Job | undefined {
  const entry = registry(services).get(keyOf(userId, id))
  if (!entry) return undefined
  if (entry.job.state === 'running') entry.controller.abort()
  return entry.job
}
