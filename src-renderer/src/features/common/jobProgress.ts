import { ApiError } from '../../api/apiError.ts'
import type { Job } from '../../api/types.ts'

// Pure wording of a job's progress (see jobs.ts for the queries).

/** The answer of a request whose job was cancelled (409 `job: cancelled`). */
export const isCancelled = (error: unknown) => error instanceof ApiError && error.status === 409 && error.message === 'job: cancelled'

/** One line saying where the work is: "Reading pages · 3 read", "Copying images · 2 of 5", "Drawing pages · 20 of 45". */
export function jobText(job: Pick<Job, 'kind' | 'phase' | 'done' | 'total'> | null | undefined): string {
  if (!job) return 'Starting…'
  const count = job.total !== undefined ? `${job.done} of ${job.total}` : `${job.done} read`
  if (job.kind === 'pdf') return job.phase === 'pages' ? `Drawing pages · ${count}` : 'Reading the pages'
  if (job.phase === 'images') return `Copying images · ${count}`
  if (job.phase === 'writing') return `Writing ${job.done} ${job.done === 1 ? 'page' : 'pages'}`
  return job.done ? `Reading pages · ${count}` : 'Reading pages'
}

/** How far the work is, 0–100, when its total is known; undefined when it is not. */
export function jobPercent(job: Pick<Job, 'done' | 'total'> | null | undefined): number | undefined {
  if (!job || job.total === undefined || job.total === 0) return undefined
  return Math.min(100, Math.round((job.done / job.total) * 100))
}
