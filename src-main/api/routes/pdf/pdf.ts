import { PdfQuery, PdfUrlSchema, type PdfQueryInput } from '../../../../src-shared/schemas/pdf'
import { getRevision, loadPage } from '../../../content/revisions'
import { slugify } from '../../../../src-shared/slug'
import type { Api } from '../../app'
import { read } from '../../../workspace/context'
import { downloadActor, downloadUrl } from '../../downloads'
import { badRequest, notFound } from '../../../base/errors'
import { CONTENT_PREFIXES, contentParams, resolveContent } from '../content/scope'
import { sendDownload } from '../files/contentHeaders'
import { loadSpace } from '../spaces/loaders'
import { cachedPdf, pdfContent } from './pdfExport'
import { JobQuery } from '../../../../src-shared/schemas/jobs'
import { startJob } from '../../jobs'

const Id = { type: 'string', maxLength: 100 } as const

export default function pdfRoutes(app: Api) {
  // `{url}` of the PDF of the content as it is now: the URL names the revision, so it always shows that content.
  for (const prefix of CONTENT_PREFIXES) {
    const inCr = prefix.includes('change-requests')
    app.get(
      `${prefix}/pdf`,
      {
        schema: {
          tags: [inCr ? 'Change requests' : 'Space content'],
          summary: inCr ? 'A PDF of the change request content (or of one page)' : 'A PDF of the space content (or of one page)',
          params: contentParams(prefix, {}),
          querystring: PdfQuery,
          response: { 200: PdfUrlSchema }
        }
      },
      async (req) =>
        read(req, (ctx) => {
          const { page, only } = req.query as PdfQueryInput
          if (only && page === undefined) throw badRequest('page: is required when only is true')
          const { space, scope } = resolveContent(ctx, req)
          const target = page === undefined ? undefined : loadPage(ctx.db, scope.revisionId, page)
          if (page !== undefined && !target) throw notFound('Page')
          const name = `${slugify(target?.title ?? space.title) || 'content'}.pdf`
          const query: Record<string, string> = {}
          if (page !== undefined) query.page = page
          if (only) query.only = 'true'
          return {
            url: downloadUrl(ctx, `/pdf/${space.id}/${scope.revisionId}/${encodeURIComponent(name)}`, space.id, scope.revisionId, query)
          }
        })
    )
  }

  // The PDF itself, outside /v1 (a link opens it): bearer token or signed `?token=`, then read access to the space.
  app.get(
    '/pdf/:spaceId/:revisionId/:name',
    {
      schema: {
        hide: true,
        params: {
          type: 'object',
          required: ['spaceId', 'revisionId', 'name'],
          properties: { spaceId: Id, revisionId: Id, name: { type: 'string', maxLength: 300 } }
        },
        querystring: {
          type: 'object',
          properties: { token: { type: 'string', maxLength: 512 }, ...PdfQuery.properties, ...JobQuery.properties }
        }
      }
    },
    async (req, reply) => {
      const { spaceId, revisionId } = req.params as { spaceId: string; revisionId: string }
      const { page, only, job: jobId } = req.query as PdfQueryInput & { job?: string }
      req.actor = downloadActor(req, spaceId, revisionId)
      // A `job` id lets the caller follow the rendering page by page and cancel it (api/jobs.ts).
      const job = startJob(req.server.services, req.actor.id, jobId, 'pdf', 'reading')
      const { rendering, name } = read(req, (ctx) => {
        const { space } = loadSpace(ctx, spaceId, 'view')
        const revision = getRevision(ctx.db, revisionId)
        if (!revision || revision.space_id !== space.id) throw notFound('Content')
        const target = page === undefined ? undefined : loadPage(ctx.db, revisionId, page)
        if (page !== undefined && !target) throw notFound('Page')
        const title = target?.title ?? space.title
        // The title is the space's (renamable) or the page's: part of what was rendered.
        const key = JSON.stringify([revisionId, page ?? null, !!only, title])
        // The pages are read here, in the transaction; only the rendering runs after it.
        return {
          rendering: cachedPdf(
            ctx.db,
            key,
            title,
            () => pdfContent(ctx.db, revisionId, { page, only }),
            jobId === undefined ? undefined : job
          ),
          name: `${title}.pdf`
        }
      })
      const pdf = await job.run(() => rendering)
      return sendDownload(
        reply,
        { bytes: pdf.bytes, contentType: 'application/pdf', name, etag: pdf.etag, inline: true, sandbox: false },
        req.headers['if-none-match']
      )
    }
  )
}
