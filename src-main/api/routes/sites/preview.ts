import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Api } from '../../app'
import { renderPreview } from '../../../preview/site'
import { PREVIEW_PREFIX } from '../../../preview/urls'

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
}
