// The history operations the History screens use: a space's revisions, one revision's content, what
// a revision changed, and restoring one (a change request to review and merge).
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import { fetchPage } from '../../api/lists.ts'
import type { ChangeRequest, ContentFile, ContentPage, Page, Revision } from '../../api/types.ts'
import type { RestoreInput, RevisionChanges, RevisionSummary } from '../../../../src-shared/schemas/history.ts'
import { historyPaths } from './paths.ts'

export type { RestoreInput, RevisionChanges, RevisionSummary }

const PAGE_SIZE = 100

// Keys mirror API paths after /v1: `/v1/spaces/{id}/revisions/{rev}/changes` → ['spaces', id, 'revisions', rev, 'changes'].
// Revisions never change, so what is read of one stays valid; only the list grows.
const base = (spaceId: string) => ['spaces', spaceId, 'revisions'] as const

/** The space's revisions, newest first, page by page. */
export const revisionsQuery = (spaceId: string) =>
  infiniteQueryOptions({
    queryKey: [...base(spaceId), 'list'],
    queryFn: ({ pageParam }) => fetchPage<RevisionSummary>(historyPaths.revisions(spaceId), { limit: PAGE_SIZE }, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page
  })

/** One revision's summary (who, when, type, the change request it merged): `GET …/revisions/{id}/summary`. */
export const revisionSummaryQuery = (spaceId: string, revisionId: string) =>
  queryOptions({
    queryKey: [...base(spaceId), revisionId, 'summary'],
    queryFn: () => api.request<RevisionSummary>('GET', historyPaths.summary(spaceId, revisionId)),
    staleTime: Infinity
  })

/** One revision whole (its page tree, files and reusable contents). */
export const revisionQuery = (spaceId: string, revisionId: string) =>
  queryOptions({
    queryKey: [...base(spaceId), revisionId],
    queryFn: () => api.request<Revision>('GET', historyPaths.revision(spaceId, revisionId)),
    staleTime: Infinity
  })

/** A revision's page tree, without documents. */
export const revisionPagesQuery = (spaceId: string, revisionId: string) =>
  queryOptions({
    queryKey: [...base(spaceId), revisionId, 'pages'],
    queryFn: () => api.request<{ pages: ContentPage[] }>('GET', historyPaths.pages(spaceId, revisionId)).then((r) => r.pages),
    staleTime: Infinity
  })

/** A page of a revision with its markdown. */
export const revisionPageQuery = (spaceId: string, revisionId: string, pageId: string) =>
  queryOptions({
    queryKey: [...base(spaceId), revisionId, 'page', pageId],
    queryFn: () => api.request<ContentPage>('GET', historyPaths.page(spaceId, revisionId, pageId, 'markdown')),
    staleTime: Infinity
  })

/** A page of a revision by its path (`guide/install`), with its markdown. */
export const revisionPageByPathQuery = (spaceId: string, revisionId: string, pagePath: string) =>
  queryOptions({
    queryKey: [...base(spaceId), revisionId, 'path', pagePath],
    queryFn: () => api.request<ContentPage>('GET', historyPaths.pageByPath(spaceId, revisionId, pagePath, 'markdown')),
    staleTime: Infinity
  })

/** A revision's files, page by page. */
export const revisionFilesQuery = (spaceId: string, revisionId: string) =>
  infiniteQueryOptions({
    queryKey: [...base(spaceId), revisionId, 'files'],
    queryFn: ({ pageParam }) => fetchPage<ContentFile>(historyPaths.files(spaceId, revisionId), { limit: PAGE_SIZE }, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: Page<ContentFile>) => last.next?.page,
    staleTime: Infinity
  })

/** One file of a revision. */
export const revisionFileQuery = (spaceId: string, revisionId: string, fileId: string) =>
  queryOptions({
    queryKey: [...base(spaceId), revisionId, 'files', fileId],
    queryFn: () => api.request<ContentFile>('GET', historyPaths.file(spaceId, revisionId, fileId)),
    staleTime: Infinity
  })

/** What a revision changed against its first parent, or against another revision of the space. */
/** Changes the compare screen asks for at most (the API's limit); `more` says how many were left out. */
export const COMPARE_LIMIT = 1000

export const revisionChangesQuery = (spaceId: string, revisionId: string, options: { against?: string; limit?: number } = {}) =>
  queryOptions({
    queryKey: [...base(spaceId), revisionId, 'changes', options],
    queryFn: () => api.request<RevisionChanges>('GET', historyPaths.changes(spaceId, revisionId, options)),
    staleTime: Infinity
  })

/**
 * Opens a change request holding a revision's content (or only some of its pages); nothing changes in the space
 * until it is merged. The space's change request lists and counters refresh.
 */
export function useRestoreRevision(spaceId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ revisionId, ...body }: RestoreInput & { revisionId: string }) =>
      api.request<ChangeRequest>('POST', historyPaths.restore(spaceId, revisionId), body),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['spaces', spaceId, 'change-requests'] })
      void client.invalidateQueries({ queryKey: ['spaces', spaceId], exact: true })
    }
  })
}
