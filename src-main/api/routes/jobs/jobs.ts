import { JobParams, JobSchema } from '../../../../src-shared/schemas/jobs'
import type { Api } from '../../app'
import { read } from '../../../workspace/context'
import { notFound } from '../../../base/errors'
import { cancelJob, findJob } from '../../jobs'

const tags = ['Jobs']

/** Quire's addition: the progress of the caller's long requests that named a `job` (see api/jobs.ts). */
export default function jobRoutes(app: Api) {
  app.get(
    '/v1/jobs/:jobId',
    {
      schema: { tags, summary: "Where the caller's import or PDF named with job=<id> is", params: JobParams, response: { 200: JobSchema } }
    },
    async (req) => {
      const userId = read(req, (ctx) => ctx.actor.id)
      const job = findJob(req.server.services, userId, req.params.jobId)
      if (!job) throw notFound('Job')
      return job
    }
  )

  app.delete(
    '/v1/jobs/:jobId',
    {
      schema: {
        tags,
        summary: "Cancels the caller's running job: the work stops at its next check, writes nothing, and its request answers 409",
        params: JobParams,
        response: { 200: JobSchema }
      }
    },
    async (req) => {
      const userId = read(req, (ctx) => ctx.actor.id)
      const job = cancelJob(req.server.services, userId, req.params.jobId)
      if (!job) throw notFound('Job')
      return job
    }
  )
}
