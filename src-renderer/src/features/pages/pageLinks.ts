// What a click on a link in the editor's preview opens, when the link names a page of the space: the server's
// rule (src-shared/pagePaths.ts), so the preview follows the links the Links tab counts as working. Pure: tested
// in Node.
import { decodeLinkPath, pagePathCandidates } from '../../../../src-shared/pagePaths.ts'

/** The page a link names (and the heading it points at), or the path it names when no page has it. */
export type PageLinkTarget = { pageId: string; section?: string } | { missing: string }

/** The pages of the revision by path, and where the linking page is. */
export interface PageLinkContext {
  idsByPath: ReadonlyMap<string, string>
  pageIds: ReadonlySet<string>
  fromPath: string
  fromHasChildren: boolean
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i

/**
 * The page an `href` of the document names: `/pages/<id>`, or a path (absolute or relative, `.md` allowed).
 * Undefined for what is not a page link: URLs, `#anchors` of the same page, files (`/files/…`, a name with an
 * extension other than `.md`).
 */
export function resolvePageLink(href: string, context: PageLinkContext): PageLinkTarget | undefined {
  const link = href.trim()
  if (!link || link.startsWith('#') || link.startsWith('//') || SCHEME.test(link)) return undefined
  const hash = link.indexOf('#')
  const section = hash < 0 ? undefined : decodeLinkPath(link.slice(hash + 1)) || undefined
  const path = decodeLinkPath(link.split(/[?#]/, 1)[0]!)
  const segments = path.split('/')
  if (path.startsWith('/') && segments[1] === 'files') return undefined
  if (/\.([a-z0-9]{1,8})$/i.test(segments[segments.length - 1] ?? '') && !/\.md$/i.test(path)) return undefined
  if (path.startsWith('/') && segments[1] === 'pages' && segments.length === 3 && context.pageIds.has(segments[2]!)) {
    return { pageId: segments[2]!, section }
  }
  const candidates = pagePathCandidates(path, context.fromPath, context.fromHasChildren)
  for (const candidate of candidates) {
    const pageId = context.idsByPath.get(candidate)
    if (pageId) return { pageId, section }
  }
  return { missing: path }
}

/** A page tree as the links' context of one of its pages (the API's pages fit). */
export function pageLinkContext(pages: LinkedPage[], pageId: string): PageLinkContext {
  const idsByPath = new Map<string, string>()
  let from: LinkedPage | undefined
  const walk = (list: LinkedPage[]) => {
    for (const page of list) {
      idsByPath.set(page.path, page.id)
      if (page.id === pageId) from = page
      walk(page.pages)
    }
  }
  walk(pages)
  return { idsByPath, pageIds: new Set(idsByPath.values()), fromPath: from?.path ?? '', fromHasChildren: !!from?.pages.length }
}

interface LinkedPage {
  id: string
  path: string
  pages: LinkedPage[]
}
