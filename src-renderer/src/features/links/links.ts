// The space's links report: the filter in the address and what a link points at, in words. Pure: tested in Node.
import type { ContentLink } from '../../api/types.ts'

/** A link's status, as the API filters by it (`all` sends no filter). */
export const LINK_FILTERS = ['all', 'broken', 'in-app', 'ok'] as const
export type LinkFilter = (typeof LINK_FILTERS)[number]

export const LINK_FILTER_LABELS: Record<LinkFilter, string> = { all: 'All', broken: 'Broken', 'in-app': 'In-app', ok: 'OK' }

/** `?status=` of the Links tab: a status the API knows, else every link. */
export function parseLinkSearch(search: Record<string, unknown>): { status?: Exclude<LinkFilter, 'all'> } {
  const status = search.status
  return typeof status === 'string' && (LINK_FILTERS as readonly string[]).includes(status) && status !== 'all'
    ? { status: status as Exclude<LinkFilter, 'all'> }
    : {}
}

export interface LinkTargetText {
  /** What the link points at: a page's title, a file's name, a URL. */
  label: string
  /** Why it is broken, or where an in-app link goes. */
  note?: string
  /** The page to open for a link to a page of the space. */
  pageId?: string
}

/** A link's target in words, from the space's pages and files (ids the list gives, titles it does not). */
export function describeTarget(
  link: ContentLink,
  pageTitles: ReadonlyMap<string, string>,
  fileNames: ReadonlyMap<string, string>
): LinkTargetText {
  const target = link.targetReference
  switch (target.kind) {
    case 'page': {
      if (link.status === 'broken') {
        return {
          label: target.path ? `/${target.path.replace(/^\/+/, '')}` : (target.page ?? link.href),
          note: target.page ? 'No page with this id' : 'No page at this path'
        }
      }
      const title = target.page ? pageTitles.get(target.page) : undefined
      return { label: title || 'Untitled page', pageId: target.page }
    }
    case 'file':
      if (link.status === 'broken') return { label: target.name ?? target.file ?? link.href, note: 'No such file in this space' }
      return { label: (target.file && fileNames.get(target.file)) || target.file || link.href }
    case 'url':
      return {
        label: target.url ?? link.href,
        note: link.status === 'in-app' ? 'Points into this app: link the page instead, so it follows moves' : undefined
      }
  }
}
