import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Api } from '../../app'
import { FILES_SEGMENT, renderPreview, renderSiteFile } from '../../../preview/site'
import { PREVIEW_PREFIX } from '../../../preview/urls'
import { sendDownload } from '../files/contentHeaders'

// The page is sanitized HTML with inline styles and no script; nothing it loads may run code, and the share
// key or visitor token in its URL must not leak to other sites through the Referer header.
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store'
}

/**
 * The local published preview: `GET /preview/sites/{siteId}/{section}/{site space}/{page path}` renders a
 * published site as HTML for its readers. It lives outside /v1, so it takes no API token: access follows the
 * site's visibility (share key, visitor JWT).
 */
export default function sitePreviewRoutes(app: Api) {
  const handler = async (req: FastifyRequest<{ Params: { siteId: string; '*'?: string } }>, reply: FastifyReply) => {
    const rest = req.params['*'] ?? ''
    const segments = rest.split('/').filter(Boolean)
    const { db, clock } = app.services
    const page = await renderPreview(db, { siteId: req.params.siteId, segments, query: req.query as Record<string, unknown>, cookieHeader: req.headers.cookie }, clock.now())
    reply.code(page.status).headers(HEADERS)
    if (page.setCookies.length) reply.header('set-cookie', page.setCookies)
    return reply.send(page.html)
  }
  app.get(`${PREVIEW_PREFIX}/:siteId`, { schema: { hide: true } }, handler)
  app.get(`${PREVIEW_PREFIX}/:siteId/*`, { schema: { hide: true } }, handler)

  // The files a site's pages show (their images, linked downloads), to whoever may read those pages. The name
  // segment is cosmetic, as on /files.
  app.get(
    `${PREVIEW_PREFIX}/:siteId/${FILES_SEGMENT}/:siteSpaceId/:fileId/:name`,
    { schema: { hide: true } },
    async (req: FastifyRequest<{ Params: { siteId: string; siteSpaceId: string; fileId: string } }>, reply: FastifyReply) => {
      const { db, clock } = app.services
      const { siteId, siteSpaceId, fileId } = req.params
      const found = await renderSiteFile(db, { siteId, siteSpaceId, fileId, query: req.query as Record<string, unknown>, cookieHeader: req.headers.cookie }, clock.now())
      if (found.status !== 200) return reply.code(found.status).headers(HEADERS).send(found.html)
      if (found.setCookies.length) reply.header('set-cookie', found.setCookies)
      reply.header('referrer-policy', 'no-referrer')
      const { file, bytes } = found
      // The URL names the site space's current content, which moves on: revalidated each time (304 while unchanged).
      const download = { bytes, contentType: file.contentType, name: file.name, etag: file.blobHash, inline: file.contentType.startsWith('image/') }
      return sendDownload(reply, download, req.headers['if-none-match'], { mutable: true })
    }
  )
}
