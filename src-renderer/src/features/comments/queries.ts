import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type Query,
  type QueryClient,
  type QueryFilters,
  type QueryKey
} from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import { fetchAll } from '../../api/lists.ts'
import type { Comment, CommentReaction, CommentReply, Page } from '../../api/types.ts'
import { commentsPath, type CommentListFilters } from './filters.ts'
import type { ReactionChange } from './reactions.ts'

const COMMENTS_PAGE = 50

const commentsBase = (spaceId: string) => ['spaces', spaceId, 'comments'] as const
/** `/v1/spaces/{spaceId}/comments[/{more}…]` */
const path = (spaceId: string, ...more: string[]) =>
  `/v1/spaces/${encodeURIComponent(spaceId)}/comments${more.map((part) => `/${encodeURIComponent(part)}`).join('')}`

/** Comments of a space (or of one change request), page by page; the list asks for more as it scrolls. */
export const commentsQuery = (spaceId: string, filters: CommentListFilters) =>
  infiniteQueryOptions({
    queryKey: [...commentsBase(spaceId), filters],
    queryFn: ({ pageParam }) => api.request<Page<Comment>>('GET', commentsPath(spaceId, filters, COMMENTS_PAGE, pageParam)),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page
  })

/** A thread's replies, oldest first (threads are short: all of them at once). */
export const repliesQuery = (spaceId: string, commentId: string) =>
  queryOptions({
    queryKey: [...commentsBase(spaceId), commentId, 'replies'],
    queryFn: () => fetchAll<CommentReply>(path(spaceId, commentId, 'replies'))
  })

// --- cache helpers ---------------------------------------------------------------------------------------

type CommentPages = InfiniteData<Page<Comment>, string | undefined>

/** The comment lists of a space (`['spaces', id, 'comments', {filters}]`), not replies or single comments. */
const listFilter = (spaceId: string) => ({
  queryKey: commentsBase(spaceId),
  predicate: (q: Query) => q.queryKey.length === 4 && typeof q.queryKey[3] === 'object' && q.queryKey[3] !== null
})

/** Rewrites (or, returning null, removes) a comment wherever a cached list holds it. */
function mapCachedComments(
  client: QueryClient,
  spaceId: string,
  id: string,
  fn: (c: Comment, filters: CommentListFilters) => Comment | null
) {
  for (const query of client.getQueryCache().findAll(listFilter(spaceId))) {
    const filters = query.queryKey[3] as CommentListFilters
    const data = query.state.data as CommentPages | undefined
    const next = data?.pages && mapPages(data, id, (c) => fn(c, filters))
    if (next && next !== data) client.setQueryData(query.queryKey, next)
  }
}

function mapPages(data: CommentPages, id: string, fn: (c: Comment) => Comment | null): CommentPages {
  if (!data.pages.some((page) => page.items.some((c) => c.id === id))) return data
  let removed = 0
  const pages = data.pages.map((page) => ({
    ...page,
    items: page.items.flatMap((c) => {
      if (c.id !== id) return [c]
      const next = fn(c)
      if (!next) removed++
      return next ? [next] : []
    })
  }))
  // Every page carries the list's total.
  return { ...data, pages: pages.map((page) => ({ ...page, count: Math.max(0, page.count - removed) })) }
}

/** After a write that changes which comments a list holds or the space's open-comment counter. */
function invalidateLists(client: QueryClient, spaceId: string, changeRequest?: string) {
  void client.invalidateQueries(listFilter(spaceId))
  // The space header shows the open-comment count: the space itself, not everything under its key.
  void client.invalidateQueries({ queryKey: ['spaces', spaceId], exact: true })
  if (changeRequest) {
    // A change request's own `comments` counter: its list and detail queries, not its content or diffs.
    void client.invalidateQueries({ queryKey: ['spaces', spaceId, 'change-requests'], predicate: (q) => q.queryKey.length <= 4 })
  }
}

/** Snapshots the matching queries, so an optimistic change can be rolled back. */
function snapshot(client: QueryClient, filter: QueryFilters) {
  return client.getQueriesData(filter)
}
function restore(client: QueryClient, saved: [QueryKey, unknown][]) {
  for (const [key, data] of saved) client.setQueryData(key, data)
}

// --- comments ---------------------------------------------------------------------------------------------

export interface NewComment {
  markdown: string
  page?: string
  changeRequest?: string
  /** A passage of the page (`passages.ts`). */
  node?: { id: string; preview: string }
}

export function useCreateComment(spaceId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ markdown, page, changeRequest, node }: NewComment) =>
      api.request<Comment>('POST', path(spaceId), {
        body: { markdown },
        ...(page ? { page } : {}),
        ...(page && node ? { node } : {}),
        ...(changeRequest ? { changeRequest } : {})
      }),
    // The composer shows the API's message beside itself.
    meta: { inlineErrors: true },
    onSuccess: (_comment, { changeRequest }) => invalidateLists(client, spaceId, changeRequest)
  })
}

export function useResolveComment(spaceId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ comment, resolved }: { comment: Comment; resolved: boolean }) =>
      api.request<Comment>('PUT', path(spaceId, comment.id), { resolved }),
    onSuccess: (updated) => {
      // Out of the lists whose status it no longer has at once; the refetch then settles counts and order.
      const status = updated.status === 'resolved' ? 'resolved' : 'open'
      mapCachedComments(client, spaceId, updated.id, (_c, filters) =>
        filters.status === 'all' || filters.status === status ? updated : null
      )
      invalidateLists(client, spaceId, updated.target.changeRequest)
    }
  })
}

export function useEditComment(spaceId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ commentId, markdown }: { commentId: string; markdown: string }) =>
      api.request<Comment>('PUT', path(spaceId, commentId), { body: { markdown } }),
    meta: { inlineErrors: true },
    onSuccess: (updated) => mapCachedComments(client, spaceId, updated.id, () => updated)
  })
}

export function useDeleteComment(spaceId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (comment: Comment) => api.request<void>('DELETE', path(spaceId, comment.id)),
    onSuccess: (_void, comment) => {
      mapCachedComments(client, spaceId, comment.id, () => null)
      client.removeQueries({ queryKey: repliesQuery(spaceId, comment.id).queryKey })
      invalidateLists(client, spaceId, comment.target.changeRequest)
    }
  })
}

/**
 * Toggles the caller's reaction. The chip changes at once (optimistic) and rolls back if the API refuses;
 * the API's answer replaces the comment only when no other reaction of the space is still on its way.
 */
export function useReactToComment(spaceId: string) {
  const client = useQueryClient()
  const mutationKey = ['react', spaceId]
  return useMutation({
    mutationKey,
    mutationFn: ({ commentId, change }: { commentId: string; change: ReactionChange; reactions: CommentReaction[] }) =>
      api.request<Comment>('PUT', path(spaceId, commentId), change),
    onMutate: async ({ commentId, reactions }) => {
      await client.cancelQueries(listFilter(spaceId))
      const saved = snapshot(client, listFilter(spaceId))
      mapCachedComments(client, spaceId, commentId, (c) => ({ ...c, reactions }))
      return { saved }
    },
    onError: (_error, _vars, context) => context && restore(client, context.saved),
    onSuccess: (updated) => {
      if (client.isMutating({ mutationKey }) <= 1) mapCachedComments(client, spaceId, updated.id, () => updated)
    }
  })
}

// --- replies ----------------------------------------------------------------------------------------------

function mapCachedReplies(client: QueryClient, spaceId: string, commentId: string, fn: (replies: CommentReply[]) => CommentReply[]) {
  client.setQueryData<CommentReply[]>(repliesQuery(spaceId, commentId).queryKey, (replies) => replies && fn(replies))
}

export function useCreateReply(spaceId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ commentId, markdown }: { commentId: string; markdown: string }) =>
      api.request<CommentReply>('POST', path(spaceId, commentId, 'replies'), { body: { markdown } }),
    meta: { inlineErrors: true },
    onSuccess: (reply, { commentId }) => {
      mapCachedReplies(client, spaceId, commentId, (replies) => (replies.some((r) => r.id === reply.id) ? replies : [...replies, reply]))
      mapCachedComments(client, spaceId, commentId, (c) => ({ ...c, replies: c.replies + 1 }))
      void client.invalidateQueries({ queryKey: repliesQuery(spaceId, commentId).queryKey })
    }
  })
}

export function useEditReply(spaceId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ commentId, replyId, markdown }: { commentId: string; replyId: string; markdown: string }) =>
      api.request<CommentReply>('PUT', path(spaceId, commentId, 'replies', replyId), { body: { markdown } }),
    meta: { inlineErrors: true },
    onSuccess: (reply, { commentId }) =>
      mapCachedReplies(client, spaceId, commentId, (replies) => replies.map((r) => (r.id === reply.id ? reply : r)))
  })
}

export function useDeleteReply(spaceId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ commentId, replyId }: { commentId: string; replyId: string }) =>
      api.request<void>('DELETE', path(spaceId, commentId, 'replies', replyId)),
    onSuccess: (_void, { commentId, replyId }) => {
      mapCachedReplies(client, spaceId, commentId, (replies) => replies.filter((r) => r.id !== replyId))
      mapCachedComments(client, spaceId, commentId, (c) => ({ ...c, replies: Math.max(0, c.replies - 1) }))
    }
  })
}

export function useReactToReply(spaceId: string) {
  const client = useQueryClient()
  const mutationKey = ['react-reply', spaceId]
  return useMutation({
    mutationKey,
    mutationFn: ({
      commentId,
      replyId,
      change
    }: {
      commentId: string
      replyId: string
      change: ReactionChange
      reactions: CommentReaction[]
    }) => api.request<CommentReply>('PUT', path(spaceId, commentId, 'replies', replyId), change),
    onMutate: async ({ commentId, replyId, reactions }) => {
      const key = repliesQuery(spaceId, commentId).queryKey
      await client.cancelQueries({ queryKey: key, exact: true })
      const saved = snapshot(client, { queryKey: key })
      mapCachedReplies(client, spaceId, commentId, (replies) => replies.map((r) => (r.id === replyId ? { ...r, reactions } : r)))
      return { saved }
    },
    onError: (_error, _vars, context) => context && restore(client, context.saved),
    onSuccess: (reply, { commentId }) => {
      if (client.isMutating({ mutationKey }) <= 1)
        mapCachedReplies(client, spaceId, commentId, (replies) => replies.map((r) => (r.id === reply.id ? reply : r)))
    }
  })
}
