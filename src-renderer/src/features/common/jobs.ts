import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import { ApiError } from '../../api/apiError.ts'
import type { Job } from '../../api/types.ts'

// Long requests (an import, a PDF) named with `job=<id>`: the server tells their progress at /v1/jobs/{id}
// while they run, and cancels them on DELETE (Quire's addition, docs/api-behaviour.md).

/** A fresh id for `job=` (the API takes 8–64 letters, digits, `_` and `-`). */
export function newJobId(): string {
  return crypto.randomUUID()
}

/** While the job runs, its progress is asked again this often. */
export const JOB_POLL_MS = 300

export const jobQuery = (id: string) =>
  queryOptions({
    queryKey: ['jobs', id],
    // Asked before the request that does the work has started it: not there yet.
    queryFn: () =>
      api
        .request<Job>('GET', `/v1/jobs/${id}`)
        .catch((e: unknown) => (e instanceof ApiError && e.status === 404 ? null : Promise.reject(e))),
    refetchInterval: (query) => (query.state.data === null || query.state.data?.state === 'running' ? JOB_POLL_MS : false),
    retry: false,
    gcTime: 0
  })

export const cancelJob = (id: string) => api.request<Job>('DELETE', `/v1/jobs/${id}`).catch(() => undefined)
