// Comment list filters: the address's search parameters, the API's query, the page picker's options. Pure.
import { withQuery } from '../../api/paths.ts'

export type StatusFilter = 'open' | 'resolved' | 'all'
export type Order = 'asc' | 'desc'

export const STATUS_OPTIONS: { value: StatusFilter; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'all', label: 'All' }
]

/** The space Comments tab's search parameters; defaults (open, newest first, anyone, any page) are left out. */
export interface CommentSearch {
  status?: 'resolved' | 'all'
  /** Page id. */
  page?: string
  /** A user id, or `me`. */
  author?: string
  order?: 'asc'
}

export const ME = 'me'

export function parseCommentSearch(search: Record<string, unknown>): CommentSearch {
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 100 ? v : undefined)
  return {
    status: search.status === 'resolved' || search.status === 'all' ? search.status : undefined,
    page: str(search.page),
    author: str(search.author),
    order: search.order === 'asc' ? 'asc' : undefined
  }
}

/** What the list asks the API for; part of the query key, so only set fields appear. */
export interface CommentListFilters {
  status: StatusFilter
  order: Order
  targetPage?: string
  authors?: string[]
  changeRequest?: string
}

export function listFilters(options: {
  status?: StatusFilter
  order?: Order
  page?: string
  author?: string
  meId?: string
  changeRequest?: string
}): CommentListFilters {
  const filters: CommentListFilters = { status: options.status ?? 'open', order: options.order ?? 'desc' }
  if (options.page) filters.targetPage = options.page
  const author = options.author === ME ? options.meId : options.author
  if (author) filters.authors = [author]
  if (options.changeRequest) filters.changeRequest = options.changeRequest
  return filters
}

/** `GET /v1/spaces/{id}/comments` with the filters; `authors` repeats, as the API reads an array. */
export function commentsPath(spaceId: string, filters: CommentListFilters, limit: number, cursor?: string): string {
  const { authors = [], ...rest } = filters
  let path = withQuery(`/v1/spaces/${encodeURIComponent(spaceId)}/comments`, { ...rest, limit, page: cursor })
  for (const author of authors) path += `&authors=${encodeURIComponent(author)}`
  return path
}

export interface PageNode {
  id: string
  title: string
  emoji?: string
  type: string
  pages: PageNode[]
}

export interface PageOption {
  id: string
  title: string
  emoji?: string
  depth: number
}

/** The page tree depth first, in order, with each page's depth (for an indented picker). */
export function flattenPageTree(pages: PageNode[], depth = 0, out: PageOption[] = []): PageOption[] {
  for (const page of pages) {
    out.push({ id: page.id, title: page.title || 'Untitled page', emoji: page.emoji, depth })
    flattenPageTree(page.pages ?? [], depth + 1, out)
  }
  return out
}
