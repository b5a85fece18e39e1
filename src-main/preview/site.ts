import { presentCustomization } from './siteCustomization'
import { fileLookup, readBlob } from '../content/files'
import { loadFile, loadFiles, loadIncludeSources, type FileRecord } from '../content/revisions'
import { readDocument } from '../content/documents'
import type { Db } from '../storage/database'
import { repository } from '../storage/repositories/memo'
import { siteRepository, type SiteRow } from '../storage/repositories/siteRepository'
import { renderError, renderLayout } from './layout'
import { renderMarkdown } from './markdown'
import { findPage, firstPage, locate, pageTreeOf, visibleStructure, type NavSiteSpace, type VisibleStructure } from './navigation'
import { PREVIEW_PREFIX, previewPath } from './urls'
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
  const files = revisionId ? siteFileUrls(site.id, located.siteSpace, loadFiles(db, revisionId), query) : undefined
  const body = current ? renderMarkdown(markdown, { includes, files }) : ''
  return renderLayout({ site, customization, structure, located, pages, current, body, href })
}

/** The segment after the site id that names a file rather than a section (section and site space paths are slugs). */
export const FILES_SEGMENT = '~files'

/** Path of a file of a site space's content in the preview: readers load a page's images from it. */
function siteFilePath(siteId: string, siteSpaceId: string, file: Pick<FileRecord, 'id' | 'name'>): string {
  return [PREVIEW_PREFIX, siteId, FILES_SEGMENT, siteSpaceId, file.id, file.name].map((part, i) => (i === 0 ? part : encodeURIComponent(part))).join('/')
}

/**
 * The preview URL of the file an image or link names (by id, or by a path ending in its name: the last file of
 * that name, as the links list resolves it), with the visitor's share key or token carried like page links.
 */
function siteFileUrls(siteId: string, siteSpace: NavSiteSpace, files: FileRecord[], query: string): (url: string) => string | undefined {
  const find = fileLookup(files)
  return (url) => {
    const file = find(url)
    return file && `${siteFilePath(siteId, siteSpace.row.id, file)}${query ? `?${query}` : ''}`
  }
}

export interface SiteFileRequest {
  siteId: string
  siteSpaceId: string
  fileId: string
  query: Record<string, unknown>
  cookieHeader: string | undefined
}

export type SiteFileResponse =
  | { status: 200; file: FileRecord; bytes: Buffer; setCookies: string[] }
  | { status: 401 | 404; html: string }

/** Every site space a visitor sees: at the root, or in a section the visitor sees. */
function visibleSiteSpaces(structure: VisibleStructure): NavSiteSpace[] {
  return [...structure.rootSiteSpaces, ...structure.sections.flatMap((s) => s.siteSpaces)]
}

/**
 * A file of the content a published site shows, for its readers: the same access as the site's pages (an unknown
 * or unpublished site, or a site space the visitor's claims hide, answers 404), from the space's primary content.
 */
export async function renderSiteFile(db: Db, request: SiteFileRequest, now: Date): Promise<SiteFileResponse> {
  const missing = { status: 404 as const, html: renderError(404) }
  const site = repository(db, siteRepository).get(request.siteId)
  if (!site || !site.published) return missing
  const access = await resolveVisitor(db, site, { query: request.query, cookies: parseCookies(request.cookieHeader) }, now)
  if (!access.ok) return { status: access.status, html: renderError(access.status) }
  return db.transaction((): SiteFileResponse => {
    const current = repository(db, siteRepository).get(site.id)
    if (!current?.published) return missing
    const siteSpace = visibleSiteSpaces(visibleStructure(db, current, access.claims)).find((ss) => ss.row.id === request.siteSpaceId)
    const revisionId = siteSpace?.space.revision_id
    const file = revisionId ? loadFile(db, revisionId, request.fileId) : undefined
    const bytes = file && readBlob(db, file.blobHash)
    return file && bytes ? { status: 200, file, bytes, setCookies: access.setCookies } : missing
  }).deferred()
}
