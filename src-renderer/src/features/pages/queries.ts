import { useMemo } from 'react'
import { infiniteQueryOptions, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query'
import { entityTag, revisionsOfTags } from '../../../../src-shared/entityTags.ts'
import { ApiError, api, withQuery } from '../../api/client.ts'
import { fetchAll, fetchPage } from '../../api/lists.ts'
import type {
  ChangeRequest,
  ContentChangeInput,
  ContentFile,
  ContentPage,
  ImportResult,
  ImportSource,
  Page,
  Revision,
  SearchPage
} from '../../api/types.ts'
import { userQuery } from '../orgs/queries.ts'
import { indexPages, updatePage } from './pageTreeModel.ts'
import { includeSources } from './reusableContents.ts'

/** Whose content a screen shows: the space's main content, or a change request's (by its number). */
export interface ContentScope {
  spaceId: string
  changeRequest?: number
}

// Keys mirror API paths after /v1: `/v1/spaces/{id}/change-requests/{n}/content/page/{pageId}` →
// ['spaces', id, 'change-requests', 'n', 'content', 'page', pageId]; main content drops the change request part.
export const scopeKey = ({ spaceId, changeRequest }: ContentScope) =>
  changeRequest === undefined ? ['spaces', spaceId] : ['spaces', spaceId, 'change-requests', String(changeRequest)]
/** The API path of a scope's content: the space's main content, or a change request's. */
export const scopePath = ({ spaceId, changeRequest }: ContentScope) =>
  changeRequest === undefined ? `/v1/spaces/${spaceId}` : `/v1/spaces/${spaceId}/change-requests/${changeRequest}`

/** The page tree (no documents). */
export const pagesQuery = (scope: ContentScope) =>
  queryOptions({
    queryKey: [...scopeKey(scope), 'content', 'pages'],
    queryFn: () => api.request<{ pages: ContentPage[] }>('GET', `${scopePath(scope)}/content/pages`).then((r) => r.pages)
  })

/** Page id → title over the space's main content (screens that name the pages their rows point at). */
export function usePageTitles(spaceId: string): ReadonlyMap<string, string> {
  const pages = useQuery(pagesQuery({ spaceId })).data
  return useMemo(() => new Map([...indexPages(pages ?? [])].map(([id, entry]) => [id, entry.page.title])), [pages])
}

/** A page as read, with the revision it was read at (the answer's ETag): writes send it back as If-Match. */
export type LoadedPage = ContentPage & { readAt?: string }

/** One page with its markdown. */
export const pageQuery = (scope: ContentScope, pageId: string) =>
  queryOptions({
    queryKey: [...scopeKey(scope), 'content', 'page', pageId],
    queryFn: async (): Promise<LoadedPage> => {
      let readAt: string | undefined
      const page = await api.request<ContentPage>('GET', `${scopePath(scope)}/content/page/${pageId}`, undefined, {
        onHeaders: (headers) => ([readAt] = revisionsOfTags(headers.etag))
      })
      return { ...page, readAt }
    }
  })

/** The revision's files (the preview resolves `/files/<id>` with their download URLs). */
export const filesQuery = (scope: ContentScope) =>
  queryOptions({
    queryKey: [...scopeKey(scope), 'content', 'files'],
    queryFn: () => fetchAll<ContentFile>(`${scopePath(scope)}/content/files`)
  })

/**
 * The revision's reusable contents, as the preview's `{% include %}` tags read them. They come with the whole
 * revision (the API has no narrower read), so the editor asks only for pages that include one.
 */
export const reusableContentsQuery = (scope: ContentScope) =>
  queryOptions({
    queryKey: [...scopeKey(scope), 'content', 'reusable-contents'],
    queryFn: () => api.request<Revision>('GET', `${scopePath(scope)}/content`).then((r) => includeSources(r.reusableContents))
  })

/**
 * Saves a PDF of the scope's content (`GET …/pdf`): the whole of it, a page with its subpages (`page`), or the
 * page alone (`only`). The API answers the PDF's address (signed, valid about an hour); the file is then
 * downloaded from it as the browser (or Electron) saves files.
 */
export async function downloadPdf(scope: ContentScope, page?: { id: string; only: boolean }, job?: string): Promise<void> {
  const { url } = await api.request<{ url: string }>(
    'GET',
    withQuery(`${scopePath(scope)}/pdf`, { page: page?.id, only: page?.only || undefined })
  )
  const link = document.createElement('a')
  // `job` lets the screen follow the rendering and cancel it (GET/DELETE /v1/jobs/{job}).
  link.href = job ? `${url}${url.includes('?') ? '&' : '?'}job=${encodeURIComponent(job)}` : url
  // Saved, not opened; the server names the file after the space or page.
  link.download = ''
  document.body.append(link)
  link.click()
  link.remove()
}

/**
 * Imports pages from a URL (`POST …/content/import`). Into a new change request by default, reviewed before
 * it goes live: the server opens it with the imported pages (`changeRequest` in the body), so a failed import
 * opens none. `into: 'space'` writes the space's main content directly.
 */
export async function importContent(
  spaceId: string,
  body: { url: string; source: ImportSource },
  into: 'change-request' | 'space',
  job?: string
): Promise<{ result: ImportResult; changeRequest?: ChangeRequest }> {
  // `job` lets the dialog follow the import and cancel it (GET/DELETE /v1/jobs/{job}).
  const path = withQuery(`/v1/spaces/${spaceId}/content/import`, { job })
  if (into === 'space') return { result: await api.request<ImportResult>('POST', path, body) }
  // The server opens the change request with the pages, in one write: a failed import leaves none behind.
  const subject = `Import from ${new URL(body.url).host}`.slice(0, 100)
  const result = await api.request<ImportResult>('POST', path, { ...body, changeRequest: { subject } })
  return { result, changeRequest: result.changeRequest }
}

/** Results per request of the space search: a pane's worth, more on demand. */
export const SEARCH_PAGE = 20

/**
 * Full-text search over the space's main content (`GET /v1/spaces/{id}/search`): pages best first, each with its
 * best matching sections. Under the space's key, so a merge (which invalidates the space) refreshes it.
 */
export const spaceSearchQuery = (spaceId: string, query: string) =>
  infiniteQueryOptions({
    queryKey: ['spaces', spaceId, 'search', { query }],
    queryFn: ({ pageParam }) => fetchPage<SearchPage>(`/v1/spaces/${spaceId}/search`, { query, limit: SEARCH_PAGE }, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page,
    staleTime: 10_000
  })

/** A change request by its number (the same key as the change requests screens use). */
export const changeRequestQuery = (spaceId: string, number: number) =>
  queryOptions({
    queryKey: ['spaces', spaceId, 'change-requests', String(number)],
    queryFn: () => api.request<ChangeRequest>('GET', `/v1/spaces/${spaceId}/change-requests/${number}`)
  })

/**
 * After a write to change request `number`: the change request lists (any filters), its `/changes` and its
 * `/links` (the merge guard) are stale. Nothing else under it is: this screen keeps the content it wrote up to
 * date itself, the change request comes from the answer, and its comments did not change (refetching those on
 * every autosave would be a storm).
 */
export function invalidateChangeRequestLists(client: QueryClient, spaceId: string, number: number) {
  const n = String(number)
  void client.invalidateQueries({
    queryKey: ['spaces', spaceId, 'change-requests'],
    predicate: ({ queryKey: key }) =>
      key.length === 3 || (key.length === 4 && typeof key[3] === 'object') || (key[3] === n && (key[4] === 'changes' || key[4] === 'links'))
  })
}

/** Applies a batch of content changes to a change request (all or nothing) and caches the answer. */
/**
 * Applies a batch to a change request. `readAt`: the revision the writer read the pages it overwrites at; the
 * server then refuses (412) to overwrite a page someone changed since.
 */
export async function applyChanges(
  client: QueryClient,
  spaceId: string,
  number: number,
  changes: ContentChangeInput[],
  readAt?: string
): Promise<ChangeRequest> {
  try {
    const headers = readAt ? { 'if-match': entityTag(readAt) } : undefined
    const cr = await api.request<ChangeRequest>('POST', `/v1/spaces/${spaceId}/change-requests/${number}/content`, { changes }, { headers })
    client.setQueryData(changeRequestQuery(spaceId, number).queryKey, cr)
    invalidateChangeRequestLists(client, spaceId, number)
    return cr
  } catch (error) {
    noteRefusal(client, spaceId, error, number)
    throw error
  }
}

/**
 * A write refused because of the space (locked, role taken away) or the change request (merged, archived):
 * fetch them again so the screen shows why (read-only banner, status) beside the message.
 */
export function noteRefusal(client: QueryClient, spaceId: string, error: unknown, number?: number) {
  if (!(error instanceof ApiError)) return
  if (error.status === 403 || error.status === 404) void client.invalidateQueries({ queryKey: ['spaces', spaceId], exact: true })
  if (error.status === 409 && number !== undefined)
    void client.invalidateQueries({ queryKey: changeRequestQuery(spaceId, number).queryKey, exact: true })
}

/** Keeps the cached page and tree in step with a page write, without asking the API again. */
export function rememberPageWrite(
  client: QueryClient,
  scope: ContentScope,
  pageId: string,
  patch: { title?: string; markdown?: string },
  written?: { updatedAt: string; revision: string }
) {
  client.setQueryData(pageQuery(scope, pageId).queryKey, (page) =>
    page ? { ...page, ...patch, ...(written ? { updatedAt: written.updatedAt, readAt: written.revision } : {}) } : page
  )
  if (patch.title !== undefined) {
    client.setQueryData(pagesQuery(scope).queryKey, (pages) => (pages ? updatePage(pages, pageId, { title: patch.title }) : pages))
    // A saved title may move the page's slug (one still made from the title follows it): paths are read again.
    if (written) void client.invalidateQueries({ queryKey: pagesQuery(scope).queryKey, exact: true })
  }
}

// One draft lookup at a time per space: a save and an upload starting together land in the same change request.
const resolving = new Map<string, Promise<ChangeRequest>>()
// Drafts this window created, by space: found again even before anything was written to them (the contributor
// filter only knows people who wrote content).
const createdHere = new Map<string, number>()

export interface DraftRequest {
  subject: string
  /** The page about to be written, as the writer last read it on main: a draft that already changed it otherwise is not reused. */
  page?: { id: string; title: string; markdown: string }
}

/**
 * The draft change request edits made on main go to: the caller's most recent draft in the space (the hosted
 * service's habit), unless that draft already holds a different version of the page being edited (writing over
 * it would lose that work), else a new draft.
 */
export function resolveDraft(client: QueryClient, spaceId: string, request: DraftRequest): Promise<ChangeRequest> {
  const pending = resolving.get(spaceId)
  if (pending) return pending
  const run = findOrCreateDraft(client, spaceId, request)
    .catch((error: unknown) => {
      noteRefusal(client, spaceId, error)
      throw error
    })
    .finally(() => resolving.delete(spaceId))
  resolving.set(spaceId, run)
  return run
}

async function findOrCreateDraft(client: QueryClient, spaceId: string, request: DraftRequest): Promise<ChangeRequest> {
  const me = await client.fetchQuery(userQuery())
  const mine = await api.request<Page<ChangeRequest>>(
    'GET',
    withQuery(`/v1/spaces/${spaceId}/change-requests`, { status: 'draft', contributor: me.id, limit: 1 })
  )
  let draft: ChangeRequest | undefined = mine.items[0]
  const made = createdHere.get(spaceId)
  if (made !== undefined && (!draft || draft.number < made)) {
    const cr = await api.request<ChangeRequest>('GET', `/v1/spaces/${spaceId}/change-requests/${made}`).catch(() => undefined)
    if (cr?.status === 'draft') draft = cr
  }
  if (draft && request.page && !(await holdsSamePage(spaceId, draft.number, request.page))) draft = undefined
  if (!draft) {
    draft = await api.request<ChangeRequest>('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: request.subject.slice(0, 100) })
    createdHere.set(spaceId, draft.number)
    // The space's counters (drafts) changed.
    void client.invalidateQueries({ queryKey: ['spaces', spaceId], exact: true })
  }
  client.setQueryData(changeRequestQuery(spaceId, draft.number).queryKey, draft)
  invalidateChangeRequestLists(client, spaceId, draft.number)
  return draft
}

async function holdsSamePage(spaceId: string, number: number, page: { id: string; title: string; markdown: string }): Promise<boolean> {
  try {
    const theirs = await api.request<ContentPage>('GET', `/v1/spaces/${spaceId}/change-requests/${number}/content/page/${page.id}`)
    return theirs.title === page.title && (theirs.markdown ?? '') === page.markdown
  } catch {
    return false
  }
}

/** Draft → open: the change request asks for review. */
export async function submitForReview(client: QueryClient, spaceId: string, number: number): Promise<ChangeRequest> {
  const cr = await api.request<ChangeRequest>('PATCH', `/v1/spaces/${spaceId}/change-requests/${number}`, { status: 'open' })
  client.setQueryData(changeRequestQuery(spaceId, number).queryKey, cr)
  invalidateChangeRequestLists(client, spaceId, number)
  void client.invalidateQueries({ queryKey: ['spaces', spaceId], exact: true })
  return cr
}
