import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { entityTag } from '../../../../src-shared/entityTags.ts'
import { ApiError, api, withQuery } from '../../api/client.ts'
import { fetchPage } from '../../api/lists.ts'
import type {
  ChangeRequest,
  ChangeRequestLink,
  ChangeRequestReview,
  ChangeRequestStatus,
  MergeStatus,
  Page,
  RequestedReviewer,
  ReviewStatus
} from '../../api/types.ts'
import { fetchAll } from '../../api/lists.ts'
import { pageQuery } from '../pages/queries.ts'
import type { MergeResult, PageChange, Resolution } from './changes.ts'

export interface ChangeRequestFilters {
  status: ChangeRequestStatus
  /** User id: change requests this person created or edited. */
  contributor?: string
}

const PAGE_SIZE = 100

// Keys mirror API paths after /v1: `/v1/spaces/{id}/change-requests/{number}/changes` →
// ['spaces', id, 'change-requests', number, 'changes']; the list's filters go last as an object.
const base = (spaceId: string) => ['spaces', spaceId, 'change-requests'] as const
const crPath = (spaceId: string, ref: string) => `/v1/spaces/${spaceId}/change-requests/${ref}`

/** Change requests of a space with one status, newest first, page by page (the list asks for more as it scrolls). */
export const changeRequestsQuery = (spaceId: string, filters: ChangeRequestFilters) =>
  infiniteQueryOptions({
    queryKey: [...base(spaceId), filters],
    queryFn: ({ pageParam }) =>
      fetchPage<ChangeRequest>(`/v1/spaces/${spaceId}/change-requests`, { ...filters, limit: PAGE_SIZE }, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page
  })

/** One change request by its number in the space (the form of its `urls.app` address). */
export const changeRequestQuery = (spaceId: string, number: string) =>
  queryOptions({
    queryKey: [...base(spaceId), number],
    queryFn: () => api.request<ChangeRequest>('GET', crPath(spaceId, number))
  })

/** Pages added, removed, edited and moved against the merge base, with both sides' markdown. */
export const changeRequestChangesQuery = (spaceId: string, number: string) =>
  queryOptions({
    queryKey: [...base(spaceId), number, 'changes'],
    queryFn: () => api.request<{ changes: PageChange[] }>('GET', `${crPath(spaceId, number)}/changes`).then((r) => r.changes)
  })

/** `GET …/change-requests/{n}/links`: a page of links and `stats` over the whole list. */
export interface ChangeRequestLinkList extends Page<ChangeRequestLink> {
  stats: { total: number; broken: { total: number; changeRequest: number } }
}

/** The merge guard shows this many of the links a change request breaks, and counts the rest. */
export const GUARD_LIMIT = 50

/** The links merging the change request would break (`introduced=true`): broken after the merge, working on main. */
export const introducedLinksQuery = (spaceId: string, number: string) =>
  queryOptions({
    queryKey: [...base(spaceId), number, 'links', { introduced: true }],
    queryFn: () =>
      api.request<ChangeRequestLinkList>('GET', withQuery(`${crPath(spaceId, number)}/links`, { introduced: true, limit: GUARD_LIMIT }))
  })

/** The fields of a page (`GET …/content/page/{id}`) the conflict view reads. */
export interface PageContent {
  id: string
  title: string
  path: string
  markdown?: string
}

/** A page of the space's main content, as it is now, with the revision it was read at (`readAt`). */
export const mainPageQuery = (spaceId: string, pageId: string) => pageQuery({ spaceId }, pageId)

function invalidateChangeRequests(client: QueryClient, spaceId: string) {
  void client.invalidateQueries({ queryKey: base(spaceId) })
  // The space's counters (open, drafts) change with a status.
  void client.invalidateQueries({ queryKey: ['spaces', spaceId], exact: true })
}

export function useCreateChangeRequest(spaceId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: { subject: string }) => api.request<ChangeRequest>('POST', `/v1/spaces/${spaceId}/change-requests`, body),
    meta: { inlineErrors: true },
    onSuccess: (cr) => {
      client.setQueryData(changeRequestQuery(spaceId, String(cr.number)).queryKey, cr)
      invalidateChangeRequests(client, spaceId)
    }
  })
}

function useUpdateChangeRequest(spaceId: string, number: string, inlineErrors: boolean) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: { subject?: string; status?: ChangeRequestStatus }) =>
      api.request<ChangeRequest>('PATCH', crPath(spaceId, number), body),
    meta: { inlineErrors },
    onSuccess: (cr) => {
      client.setQueryData(changeRequestQuery(spaceId, number).queryKey, cr)
      invalidateChangeRequests(client, spaceId)
    }
  })
}

/** Renames (the subject field shows the error itself). */
export const useRenameChangeRequest = (spaceId: string, number: string) => useUpdateChangeRequest(spaceId, number, true)
/** Status moves (a refused move toasts the API's reason). */
export const useMoveChangeRequest = (spaceId: string, number: string) => useUpdateChangeRequest(spaceId, number, false)

/**
 * Merges into main. A clean merge changes the space's content, so everything under the space refreshes; an
 * answer of conflicts changed nothing, but the conflict flags of `/changes` may be newer than what is shown.
 * `reviewed`: the revision the screen showed, sent as If-Match: if someone edited the change request since, the
 * merge is refused (412) and the screen reloads it, so what merges is what was reviewed.
 */
export function useMergeChangeRequest(spaceId: string, number: string) {
  const client = useQueryClient()
  return useMutation({
    // `bypass`: merge past unmet merge rules (for the users the rules allow to).
    mutationFn: ({ reviewed, bypass }: { reviewed?: string; bypass?: boolean } = {}) =>
      api.request<MergeResult>(
        'POST',
        `${crPath(spaceId, number)}/merge`,
        bypass ? { bypassMergeRules: true } : undefined,
        reviewed ? { headers: { 'if-match': entityTag(reviewed) } } : undefined
      ),
    onSuccess: (result) => {
      if (result.result === 'merge') void client.invalidateQueries({ queryKey: ['spaces', spaceId] })
      else void client.invalidateQueries({ queryKey: [...base(spaceId), number] })
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 412) void client.invalidateQueries({ queryKey: [...base(spaceId), number] })
    }
  })
}

/**
 * Pulls main's newer revisions into the change request (a three-way merge the other way round). `resolutions`
 * (the merge editor's) give conflicting pages the text (and title) they are to have over main's.
 */
export function useUpdateFromMain(spaceId: string, number: string) {
  const client = useQueryClient()
  return useMutation({
    // `against`: the revisions the resolutions were written against (main's as read, the change request's), sent
    // as If-Match: if either moved on since, the update is refused (412) instead of replacing what changed.
    mutationFn: ({ resolutions, against }: { resolutions?: Resolution[]; against?: string[] } = {}) =>
      api.request<MergeResult>(
        'POST',
        `${crPath(spaceId, number)}/update`,
        resolutions?.length ? { resolutions } : undefined,
        against?.length ? { headers: { 'if-match': against.map(entityTag).join(', ') } } : undefined
      ),
    // The list shows "Outdated" badges; the change request's own content lives under its key.
    onSuccess: () => void client.invalidateQueries({ queryKey: base(spaceId) })
  })
}

/** Every review of the change request, newest first (a change request has few). */
export const reviewsQuery = (spaceId: string, number: string) =>
  queryOptions({
    queryKey: [...base(spaceId), number, 'reviews'],
    queryFn: () => fetchAll<ChangeRequestReview>(`${crPath(spaceId, number)}/reviews`)
  })

/** The users asked to review, in the order asked. */
export const requestedReviewersQuery = (spaceId: string, number: string) =>
  queryOptions({
    queryKey: [...base(spaceId), number, 'requested-reviewers'],
    queryFn: () => fetchAll<RequestedReviewer>(`${crPath(spaceId, number)}/requested-reviewers`)
  })

/** The merge rules that apply, and those a merge by the signed-in user would not meet now. */
export const mergeStatusQuery = (spaceId: string, number: string) =>
  queryOptions({
    queryKey: [...base(spaceId), number, 'merge-rules'],
    queryFn: () => api.request<MergeStatus>('GET', `${crPath(spaceId, number)}/merge-rules`)
  })

/** Reviews, requests and the merge status move together: one invalidation for all of them. */
const invalidateReviews = (client: QueryClient, spaceId: string, number: string) =>
  client.invalidateQueries({ queryKey: [...base(spaceId), number] })

export function useSubmitReview(spaceId: string, number: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: { status: ReviewStatus; comment?: string }) =>
      api.request<ChangeRequestReview>('POST', `${crPath(spaceId, number)}/reviews`, {
        status: body.status,
        ...(body.comment?.trim() ? { comment: { markdown: body.comment.trim() } } : {})
      }),
    onSuccess: () => invalidateReviews(client, spaceId, number)
  })
}

export function useRequestReviewers(spaceId: string, number: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (users: string[]) =>
      api.request<{ users: RequestedReviewer[] }>('POST', `${crPath(spaceId, number)}/requested-reviewers`, { users }),
    onSuccess: () => invalidateReviews(client, spaceId, number)
  })
}

export function useRemoveRequestedReviewer(spaceId: string, number: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (userId: string) => api.request<null>('DELETE', `${crPath(spaceId, number)}/requested-reviewers/${userId}`),
    onSuccess: () => invalidateReviews(client, spaceId, number)
  })
}
