import { presentCustomization } from '../api/presenters/siteCustomization'
import { loadIncludeSources, readDocument } from '../content/revisions'
import type { Db } from '../storage/database'
import { repository } from '../storage/repositories/memo'
import { siteRepository, type SiteRow } from '../storage/repositories/siteRepository'
import { renderError, renderLayout } from './layout'
import { renderMarkdown } from './markdown'
import { findPage, firstPage, locate, pageTreeOf, visibleStructure } from './navigation'
import { previewPath } from './urls'
import { parseCookies, resolveVisitor } from './visitor'

export interface PreviewRequest {
  siteId: string
  /** Path segments under the site, decoded. */
  segments: string[]
  query: Record<string, unknown>
  cookieHeader: string | undefined
}

export interface PreviewResponse {
  status: 200 | 401 | 404
  html: string
  setCookies: string[]
}

const fail = (status: 401 | 404): PreviewResponse => ({ status, html: renderError(status), setCookies: [] })

/**
 * Renders one page of a published site as its reader would see it. An unknown or unpublished site answers
 * 404 whatever the credentials; access then follows the site's visibility (see resolveVisitor), and the
 * navigation holds only the sections and site spaces whose conditions hold for the visitor's claims.
 */
export async function renderPreview(db: Db, request: PreviewRequest, now: Date): Promise<PreviewResponse> {
  const site = repository(db, siteRepository).get(request.siteId)
  if (!site || !site.published) return fail(404)
  const access = await resolveVisitor(db, site, { query: request.query, cookies: parseCookies(request.cookieHeader) }, now)
  if (!access.ok) return fail(access.status)
  // Everything a page shows is read in one snapshot.
  const page = db.transaction(() => renderSite(db, repository(db, siteRepository).get(site.id), request.segments, access.claims, access.carry)).deferred()
  return page ? { status: 200, html: page, setCookies: access.setCookies } : fail(404)
}

function renderSite(db: Db, site: SiteRow | undefined, segments: string[], claims: Parameters<typeof visibleStructure>[2], carry: Record<string, string>): string | undefined {
  if (!site || !site.published) return undefined
  const structure = visibleStructure(db, site, claims)
  const query = new URLSearchParams(carry).toString()
  const href = (parts: string[]) => `${previewPath(site.id, parts)}${query ? `?${query}` : ''}`
  const customization = presentCustomization(site)
  const located = locate(site, structure, segments)
  if (!located) {
    // A site with nothing visible for this visitor still has a front page; any deeper path does not exist.
    return segments.length ? undefined : renderLayout({ site, customization, structure, pages: [], body: '', href })
  }
  const pages = pageTreeOf(db, located.siteSpace.space)
  const current = located.rest.length ? findPage(pages, located.rest.join('/')) : firstPage(pages)
  if (located.rest.length && !current) return undefined
  const markdown = current ? readDocument(db, current.page.documentHash) : ''
  // Reusable contents are read only for a page that includes one.
  const revisionId = located.siteSpace.space.revision_id
  const includes = current && revisionId && markdown.includes('{% include') ? { contents: loadIncludeSources(db, revisionId), pagePath: current.page.props.git?.path } : undefined
  const body = current ? renderMarkdown(markdown, includes) : ''
  return renderLayout({ site, customization, structure, located, pages, current, body, href })
}
