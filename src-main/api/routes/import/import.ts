import type { FastifyRequest } from 'fastify'
import { ContentImportSchema, ImportResultSchema, type ContentImport } from '../../../../src-shared/schemas/import'
import { DEFAULT_IMPORT_LIMITS } from '../../../content/import/pages'
import { JobQuery } from '../../../../src-shared/schemas/jobs'
import { startJob } from '../../jobs'
import { throwIfCancelled } from '../../../content/progress'
import { ImportError, isHttpUrl } from '../../../content/import/fetchResource'
import type { Api } from '../../app'
import { changeRequestRepository } from '../../../storage/repositories/changeRequestRepository'
import { openChangeRequest } from '../../commands/changeRequestOpener'
import { importIntoChangeRequest, importIntoSpace } from '../../commands/contentImporter'
import { presentChangeRequest } from '../../presenters/changeRequest'
import { read, write, type Ctx } from '../../../workspace/context'
import { badRequest } from '../../../base/errors'
import { assertEditable, assertOpenForChanges, loadChangeRequest } from '../change-requests/loaders'
import { CONTENT_PREFIXES, contentParams } from '../content/scope'
import { loadSpace } from '../spaces/loaders'

/** Where an import writes: the space's primary content, or a change request that may still change. */
function importTarget(ctx: Ctx, req: FastifyRequest) {
  const params = req.params as { spaceId: string; changeRequestId?: string }
  if (params.changeRequestId === undefined) {
    const { space } = loadSpace(ctx, params.spaceId, 'edit')
    assertEditable(space)
    return { space, cr: undefined }
  }
  const { space, cr } = loadChangeRequest(ctx, params.spaceId, params.changeRequestId, 'edit')
  assertEditable(space)
  assertOpenForChanges(cr, 'cannot change')
  return { space, cr }
}

export default function importRoutes(app: Api) {
  for (const prefix of CONTENT_PREFIXES) {
    const inCr = prefix.includes('change-requests')
    app.post(
      `${prefix}/content/import`,
      {
        schema: {
          tags: [inCr ? 'Change requests' : 'Space content'],
          summary: inCr
            ? 'Import pages from a URL into the change request (one new revision)'
            : 'Import pages from a URL into the primary content (one new revision)',
          params: contentParams(prefix, {}),
          body: ContentImportSchema,
          querystring: JobQuery,
          response: { 201: ImportResultSchema }
        }
      },
      async (req, reply) => {
        const { url, source, changeRequest } = req.body as ContentImport
        if (!isHttpUrl(url)) throw badRequest('url: must be an http or https URL')
        if (changeRequest && inCr) throw badRequest('changeRequest: only a space import opens a change request')
        // Authorize before fetching: a caller who may not edit makes the server fetch nothing.
        read(req, (ctx) => importTarget(ctx, req))
        // The network part (pages, then their images) runs outside any transaction (their callbacks are
        // synchronous); nothing is written until all of it is fetched and converted, so a failed or cancelled
        // import changes nothing. A `job` id lets the caller follow it and cancel it (api/jobs.ts).
        const job = startJob(req.server.services, req.actor!.id, (req.query as { job?: string }).job, 'import', 'pages')
        const body = await job.run(async () => {
          let collected
          try {
            // mammoth (Word) and turndown (HTML) load with the first import: most starts never import.
            const { collectImport } = await import('../../../content/import/collect')
            collected = await collectImport(url, source, { ...DEFAULT_IMPORT_LIMITS, signal: job.signal, report: job.report })
          } catch (error) {
            if (error instanceof ImportError && !job.signal.aborted) throw badRequest(`url: ${error.message}`)
            throw error
          }
          // The last chance to cancel: the write below runs to its end in one transaction.
          throwIfCancelled(job)
          job.report('writing', collected.pages.length, collected.pages.length)
          const counts = { importedResources: collected.pages.length, totalResources: collected.totalResources }
          // The whole answer comes out of the write: an Idempotency-Key records it there (api/idempotency.ts).
          return write(req, (ctx) => {
            const { space, cr } = importTarget(ctx, req)
            if (cr) return { revision: importIntoChangeRequest(ctx, space, cr, collected), ...counts }
            if (!changeRequest) return { revision: importIntoSpace(ctx, space, collected), ...counts }
            // A new change request is opened here, with the pages, so a failed import leaves none behind.
            const opened = openChangeRequest(ctx, space, changeRequest.subject ?? '')
            const revision = importIntoChangeRequest(ctx, space, opened, collected)
            return {
              revision,
              changeRequest: presentChangeRequest(ctx.repo(changeRequestRepository).get(space.id, opened.id)!, space, ctx),
              ...counts
            }
          })
        })
        return reply.code(201).send(body)
      }
    )
  }
}
