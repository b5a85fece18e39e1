import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Role } from '../../../../src-shared/schemas/common'
import type { Api } from '../../app'
import { draftTokenUser } from '../../../preview/draft'
import { PREVIEW_SCRIPT } from '../../../preview/script'
import { FILES_SEGMENT, SCRIPT_SEGMENTS, renderPreview, renderSiteFile } from '../../../preview/site'
import { PREVIEW_PREFIX } from '../../../preview/urls'
import type { Db } from '../../../storage/database'
import { repository } from '../../../storage/repositories/memo'
import { organizationRepository } from '../../../storage/repositories/organizationRepository'
import { siteRepository } from '../../../storage/repositories/siteRepository'
import { canOnSite } from '../../policies/site'
import { sendDownload } from '../files/contentHeaders'

// The page is sanitized HTML with inline styles and one script file of the preview's own; nothing the page holds
// may run code, and the share key or visitor token in its URL must not leak to other sites through the Referer
// header. The search form is the only form, and goes to the preview itself.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; img-src * data:; base-uri 'none'; form-action 'self'"
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `${CSP}; frame-ancestors 'none'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store'
}
// A draft preview shows in the app's panel: framed by the app (served by this server, or the desktop app's file).
const DRAFT_HEADERS = { ...HEADERS, 'content-security-policy': `${CSP}; frame-ancestors 'self' file:` }

/**
 * The `draft` token of a request when it holds: this site's, unexpired, and its user still an enabled member who
 * may preview the organization's sites. Anything else is no draft (the request is a visitor's).
 */
function checkedDraft(db: Db, siteId: string, query: Record<string, unknown>, now: Date): string | undefined {
  const token = typeof query.draft === 'string' ? query.draft : undefined
  const userId = token && draftTokenUser(db, siteId, token, now)
  const site = userId && repository(db, siteRepository).get(siteId)
  const member = site && repository(db, organizationRepository).member(site.organization_id, userId)
  return member && !member.disabled && canOnSite(member.role as Role | null, 'preview') ? token : undefined
}

/**
 * The local preview: `GET /preview/sites/{siteId}/{section}/{site space}/{page path}` renders a published site
 * as HTML for its readers. It lives outside /v1, so it takes no API token: access follows the site's visibility
 * (share key, visitor JWT), or a draft token from `GET …/draft-preview` (routes/sites/sitePreviews.ts).
 */
export default function sitePreviewRoutes(app: Api) {
  const handler = async (req: FastifyRequest<{ Params: { siteId: string; '*'?: string } }>, reply: FastifyReply) => {
    const rest = req.params['*'] ?? ''
    const segments = rest.split('/').filter(Boolean)
    const { db, clock } = app.services
    const query = req.query as Record<string, unknown>
    const draft = checkedDraft(db, req.params.siteId, query, clock.now())
    const page = await renderPreview(
      db,
      { siteId: req.params.siteId, segments, query, cookieHeader: req.headers.cookie, draft },
      clock.now()
    )
    reply.code(page.status).headers(draft ? DRAFT_HEADERS : HEADERS)
    if (page.setCookies.length) reply.header('set-cookie', page.setCookies)
    if (page.location) reply.header('location', page.location)
    return reply.send(page.html)
  }
  app.get(`${PREVIEW_PREFIX}/:siteId`, { schema: { hide: true } }, handler)
  app.get(`${PREVIEW_PREFIX}/:siteId/*`, { schema: { hide: true } }, handler)

  // The preview's script is the same for every site; it sits under the site's path so the desktop app's
  // quire://local scheme serves it as it serves the pages.
  app.get(`${PREVIEW_PREFIX}/:siteId/${SCRIPT_SEGMENTS.join('/')}`, { schema: { hide: true } }, async (_req, reply) =>
    reply
      .headers({ 'content-type': 'text/javascript; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' })
      .send(PREVIEW_SCRIPT)
  )

  // The files a site's pages show (their images, linked downloads), to whoever may read those pages. The name
  // segment is cosmetic, as on /files.
  app.get(
    `${PREVIEW_PREFIX}/:siteId/${FILES_SEGMENT}/:siteSpaceId/:fileId/:name`,
    { schema: { hide: true } },
    async (req: FastifyRequest<{ Params: { siteId: string; siteSpaceId: string; fileId: string } }>, reply: FastifyReply) => {
      const { db, clock } = app.services
      const { siteId, siteSpaceId, fileId } = req.params
      const query = req.query as Record<string, unknown>
      const draft = checkedDraft(db, siteId, query, clock.now())
      const found = await renderSiteFile(db, { siteId, siteSpaceId, fileId, query, cookieHeader: req.headers.cookie, draft }, clock.now())
      if (found.status !== 200) return reply.code(found.status).headers(HEADERS).send(found.html)
      if (found.setCookies.length) reply.header('set-cookie', found.setCookies)
      reply.header('referrer-policy', 'no-referrer')
      const { file, bytes } = found
      // The URL names the site space's current content, which moves on: revalidated each time (304 while unchanged).
      const download = {
        bytes,
        contentType: file.contentType,
        name: file.name,
        etag: file.blobHash,
        inline: file.contentType.startsWith('image/')
      }
      return sendDownload(reply, download, req.headers['if-none-match'], { mutable: true })
    }
  )
}
