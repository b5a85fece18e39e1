import { presentCustomization } from './siteCustomization'
import { fileLookup, readBlob } from '../content/files'
import { loadFile, loadFiles, loadIncludeSources, type FileRecord } from '../content/revisions'
import { readDocument } from '../content/documents'
import type { Db } from '../storage/database'
import { repository } from '../storage/repositories/memo'
import { siteRepository, type SiteRow } from '../storage/repositories/siteRepository'
import { buildSearchQuery, searchSpace, type SearchQuery } from '../content/search'
import { ensureSearchIndex } from '../content/searchIndex'
import { readSiteStructure } from './siteStructure'
import { renderError, renderLayout, type PageLink, type SearchResults } from './layout'
import { renderMarkdown } from './markdown'
import {
  findPage,
  firstPage,
  locate,
  pageTreeOf,
  visibleStructure,
  type NavSiteSpace,
  type PageNode,
  type VisibleStructure
} from './navigation'
import { PREVIEW_PREFIX, previewPath } from './urls'
import { matchRedirect, redirectTarget, withSuffix, type RedirectDestination } from './redirects'
import { parseCookies, resolveVisitor } from './visitor'

export interface PreviewRequest {
  siteId: string
  /** Path segments under the site, decoded. */
  segments: string[]
  query: Record<string, unknown>
  cookieHeader: string | undefined
  /** A draft token the caller has checked (its user may edit the site): the site opens even unpublished. */
  draft?: string
}

export interface PreviewResponse {
  status: 200 | 307 | 308 | 401 | 404
  html: string
  setCookies: string[]
  /** Where a redirect of the site sends the reader (307/308). */
  location?: string
}

const fail = (status: 401 | 404): PreviewResponse => ({ status, html: renderError(status), setCookies: [] })

/**
 * Renders one page of a published site as its reader would see it. An unknown or unpublished site answers
 * 404 whatever the credentials; access then follows the site's visibility (see resolveVisitor), and the
 * navigation holds only the sections and site spaces whose conditions hold for the visitor's claims.
 */
export async function renderPreview(db: Db, request: PreviewRequest, now: Date): Promise<PreviewResponse> {
  const site = repository(db, siteRepository).get(request.siteId)
  if (!site || !(site.published || request.draft)) return fail(404)
  const access = await resolveVisitor(
    db,
    site,
    { query: request.query, cookies: parseCookies(request.cookieHeader), draft: request.draft },
    now
  )
  if (!access.ok) return fail(access.status)
  const redirect =
    request.segments[0] === SEARCH_SEGMENT ? undefined : siteRedirect(db, site, request.segments, access.carry, !!request.draft)
  if (redirect) return { ...redirect, html: '', setCookies: access.setCookies }
  const search = request.segments[0] === SEARCH_SEGMENT ? (buildSearchQuery(text(request.query.q) ?? '') ?? null) : undefined
  // A merge just before may have left the index to catch up: the results never lag the pages.
  if (search)
    ensureSearchIndex(
      db,
      readSiteStructure(db, site).siteSpaces.map((ss) => ss.space_id)
    )
  const scheme = request.query.scheme === 'dark' || request.query.scheme === 'light' ? request.query.scheme : undefined
  const options: RenderOptions = {
    claims: access.claims,
    carry: access.carry,
    draft: !!request.draft,
    scheme,
    search,
    searchText: text(request.query.q) ?? ''
  }
  // Everything a page shows is read in one snapshot.
  const page = db.transaction(() => renderSite(db, repository(db, siteRepository).get(site.id), request.segments, options)).deferred()
  return page ? { status: 200, html: page, setCookies: access.setCookies } : fail(404)
}

/**
 * A live redirect of the site for this path, as a published site answers it: 308 for a permanent redirect of a
 * public site, else 307 (share-link and visitor-auth sites and the draft preview are not public traffic). The
 * redirect wins over a page at the same path. Within the site, the visitor's share key or token comes along.
 */
function siteRedirect(
  db: Db,
  site: SiteRow,
  segments: string[],
  carry: Record<string, string>,
  draft: boolean
): { status: 307 | 308; location: string } | undefined {
  if (!segments.length) return undefined
  const found = matchRedirect(db, site, `/${segments.join('/')}`)
  if (!found) return undefined
  const target = redirectTarget(db, site, JSON.parse(found.redirect.destination) as RedirectDestination)
  // A destination since removed from the site: the path answers as if there were no redirect.
  if (!target) return undefined
  const resolved = withSuffix(target, found.redirect.capture_wildcard ? found.suffix : '')
  const query = new URLSearchParams(carry).toString()
  const location = 'url' in resolved ? resolved.url : `${previewPath(site.id, resolved.segments)}${query ? `?${query}` : ''}`
  const isPublic = !draft && (site.visibility === 'public' || site.visibility === 'unlisted')
  return { status: isPublic && found.redirect.permanent ? 308 : 307, location }
}

/** The segment after the site id of the search results page (`…/~search?q=`). */
export const SEARCH_SEGMENT = '~search'
/** The preview's script (preview/script.ts), under the site so it shares the preview's paths. */
export const SCRIPT_SEGMENTS = ['~assets', 'preview.js']

const text = (v: unknown) => (typeof v === 'string' ? v : undefined)

interface RenderOptions {
  claims: Parameters<typeof visibleStructure>[2]
  carry: Record<string, string>
  draft: boolean
  scheme?: 'light' | 'dark'
  /** On the search page: the query (null when the text has no word), else undefined. */
  search?: SearchQuery | null
  searchText: string
}

function renderSite(db: Db, site: SiteRow | undefined, segments: string[], options: RenderOptions): string | undefined {
  if (!site || !(site.published || options.draft)) return undefined
  const { carry } = options
  const structure = visibleStructure(db, site, options.claims)
  const query = new URLSearchParams(carry).toString()
  const href = (parts: string[]) => `${previewPath(site.id, parts)}${query ? `?${query}` : ''}`
  const customization = presentCustomization(site)
  const common = {
    site,
    customization,
    structure,
    href,
    carry,
    draft: options.draft,
    scheme: options.scheme,
    searchPath: previewPath(site.id, [SEARCH_SEGMENT]).replace(/\/$/, ''),
    scriptPath: previewPath(site.id, SCRIPT_SEGMENTS).replace(/\/$/, '')
  }
  if (options.search !== undefined) {
    const search = { query: options.searchText, hits: options.search ? searchSite(db, structure, options.search, href) : [] }
    return renderLayout({ ...common, located: locate(site, structure, []), pages: [], body: '', search })
  }
  const located = locate(site, structure, segments)
  if (!located) {
    // A site with nothing visible for this visitor still has a front page; any deeper path does not exist.
    return segments.length ? undefined : renderLayout({ ...common, pages: [], body: '' })
  }
  const pages = pageTreeOf(db, located.siteSpace.space)
  const current = located.rest.length ? findPage(pages, located.rest.join('/')) : firstPage(pages)
  if (located.rest.length && !current) return undefined
  const markdown = current ? readDocument(db, current.page.documentHash) : ''
  // Reusable contents are read only for a page that includes one.
  const revisionId = located.siteSpace.space.revision_id
  const includes =
    current && revisionId && markdown.includes('{% include')
      ? { contents: loadIncludeSources(db, revisionId), pagePath: current.page.props.git?.path }
      : undefined
  const files = revisionId ? siteFileUrls(site.id, located.siteSpace, loadFiles(db, revisionId), query) : undefined
  const rendered = current ? renderMarkdown(markdown, { includes, files, title: current.page.title }) : { html: '', outline: [] }
  const around = current ? neighbours(pages, current) : {}
  const pageLink = (node: PageNode | undefined): PageLink | undefined =>
    node && { href: href([...located.siteSpace.segments, ...node.path.split('/')]), title: node.page.title }
  return renderLayout({
    ...common,
    located,
    pages,
    current,
    body: rendered.html,
    outline: rendered.outline,
    previous: pageLink(around.previous),
    next: pageLink(around.next)
  })
}

/** The pages before and after one in reading order (depth first), of those with content. */
export function neighbours(pages: PageNode[], current: PageNode): { previous?: PageNode; next?: PageNode } {
  const order: PageNode[] = []
  const walk = (nodes: PageNode[]) => {
    for (const node of nodes) {
      if (node.page.type === 'document') order.push(node)
      walk(node.children)
    }
  }
  walk(pages)
  const at = order.findIndex((n) => n.page.id === current.page.id)
  return at < 0 ? {} : { previous: order[at - 1], next: order[at + 1] }
}

/** Results shown per site space. */
const SEARCH_LIMIT = 10

/** The search over the site spaces this visitor sees (their spaces' primary content), pages they list only. */
function searchSite(db: Db, structure: VisibleStructure, query: SearchQuery, href: (segments: string[]) => string): SearchResults['hits'] {
  return visibleSiteSpaces(structure).flatMap((ss) => {
    const visible = new Map<string, PageNode>()
    const collect = (nodes: PageNode[]) => nodes.forEach((n) => (visible.set(n.page.id, n), collect(n.children)))
    collect(pageTreeOf(db, ss.space))
    return searchSpace(db, ss.space.id, query, { limit: SEARCH_LIMIT }).items.flatMap((hit) => {
      const node = visible.get(hit.pageId)
      if (!node || node.page.type !== 'document') return []
      const section = hit.sections.find((s) => s.sectionId)
      const anchor = section?.sectionId ? `#${encodeURIComponent(section.sectionId)}` : ''
      return [
        {
          href: `${href([...ss.segments, ...node.path.split('/')])}${anchor}`,
          title: node.page.title,
          space: ss.space.title,
          excerpt: section?.body
        }
      ]
    })
  })
}

/** The segment after the site id that names a file rather than a section (section and site space paths are slugs). */
export const FILES_SEGMENT = '~files'

/** Path of a file of a site space's content in the preview: readers load a page's images from it. */
function siteFilePath(siteId: string, siteSpaceId: string, file: Pick<FileRecord, 'id' | 'name'>): string {
  return [PREVIEW_PREFIX, siteId, FILES_SEGMENT, siteSpaceId, file.id, file.name]
    .map((part, i) => (i === 0 ? part : encodeURIComponent(part)))
    .join('/')
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
  /** As on a page: a checked draft token opens an unpublished site. */
  draft?: string
}

export type SiteFileResponse = { status: 200; file: FileRecord; bytes: Buffer; setCookies: string[] } | { status: 401 | 404; html: string }

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
  if (!site || !(site.published || request.draft)) return missing
  const access = await resolveVisitor(
    db,
    site,
    { query: request.query, cookies: parseCookies(request.cookieHeader), draft: request.draft },
    now
  )
  if (!access.ok) return { status: access.status, html: renderError(access.status) }
  return db
    .transaction((): SiteFileResponse => {
      const current = repository(db, siteRepository).get(site.id)
      if (!current || !(current.published || request.draft)) return missing
      const siteSpace = visibleSiteSpaces(visibleStructure(db, current, access.claims)).find((ss) => ss.row.id === request.siteSpaceId)
      const revisionId = siteSpace?.space.revision_id
      const file = revisionId ? loadFile(db, revisionId, request.fileId) : undefined
      const bytes = file && readBlob(db, file.blobHash)
      return file && bytes ? { status: 200, file, bytes, setCookies: access.setCookies } : missing
    })
    .deferred()
}
