import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react'
import { Button, Stack, Text } from '@mantine/core'
import { IconAlertTriangle, IconLockAccess, IconMessageCircle } from '@tabler/icons-react'
import { ApiError } from '../../api/client.ts'
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query'
import type { Virtualizer } from '@tanstack/react-virtual'
import type { Comment, User } from '../../api/types.ts'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { NextPageStatus } from '../common/NextPageStatus.tsx'
import { useLoadMoreNearEnd } from '../common/usePageVirtualizer.ts'
import { CommentThread, type TargetDisplay, type ThreadUi } from './CommentThread.tsx'
import type { CommentListFilters } from './filters.ts'
import { commentsQuery } from './queries.ts'
import classes from './Comments.module.css'

/** A first guess at a thread's height; rows are measured once rendered. */
export const THREAD_ESTIMATE = 150

/** The comments matching `filters`, page by page; the previous rows stay (dimmed) while a new filter loads. */
export function useCommentThreads(spaceId: string, filters: CommentListFilters, enabled = true) {
  const query = useInfiniteQuery({ ...commentsQuery(spaceId, filters), placeholderData: keepPreviousData, enabled })
  const comments = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data])
  return { query, comments, total: query.data?.pages[0]?.count ?? 0 }
}

export function useThreadUi(): ThreadUi {
  const [expanded, setExpandedSet] = useState<ReadonlySet<string>>(() => new Set())
  const [focus, setFocus] = useState<ThreadUi['focus']>(null)
  const drafts = useRef(new Map<string, string>()).current
  const setExpanded = useCallback((id: string, open: boolean) => {
    setExpandedSet((prev) => {
      if (prev.has(id) === open) return prev
      const next = new Set(prev)
      if (open) next.add(id)
      else next.delete(id)
      return next
    })
  }, [])
  const focusReply = useCallback((id: string) => setFocus((prev) => ({ id, n: (prev?.n ?? 0) + 1 })), [])
  return useMemo(() => ({ expanded, setExpanded, drafts, focus, focusReply }), [expanded, setExpanded, drafts, focus, focusReply])
}

/**
 * The virtualized threads: rows have their own heights (measured, and re-measured as replies open), and the
 * next page loads as the last rows come into view.
 */
export function ThreadRows({
  spaceId,
  comments,
  virtualizer,
  scrollMargin,
  listRef,
  me,
  ui,
  target,
  focused,
  stale,
  hasNextPage,
  isFetchingNextPage,
  nextPageError,
  fetchNextPage
}: {
  spaceId: string
  comments: Comment[]
  virtualizer: Virtualizer<HTMLElement, Element>
  scrollMargin: number
  listRef?: (el: HTMLElement | null) => void
  me?: User
  ui: ThreadUi
  target: TargetDisplay
  /** The thread a click on its passage in the editor asked for. */
  focused?: string
  stale: boolean
  hasNextPage: boolean
  isFetchingNextPage: boolean
  /** Why the last request for the next page failed (then it is asked again only by the retry). */
  nextPageError?: Error | null
  fetchNextPage(): void
}) {
  const items = virtualizer.getVirtualItems()
  useLoadMoreNearEnd(
    items[items.length - 1]?.index,
    comments.length,
    { hasNextPage, isFetchingNextPage, isFetchNextPageError: !!nextPageError, fetchNextPage },
    10
  )

  return (
    <>
      <div
        ref={listRef}
        className={`${classes.list} ${stale ? classes.stale : ''}`}
        style={{ height: virtualizer.getTotalSize() }}
        data-testid="comment-list"
        aria-busy={stale || undefined}
      >
        {items.map((item) => (
          <div
            key={item.key}
            ref={virtualizer.measureElement}
            data-index={item.index}
            className={classes.row}
            style={{ transform: `translateY(${item.start - scrollMargin}px)` }}
          >
            <CommentThread
              spaceId={spaceId}
              comment={comments[item.index]!}
              me={me}
              ui={ui}
              target={target}
              focused={comments[item.index]!.id === focused}
            />
          </div>
        ))}
      </div>
      <NextPageStatus
        fetching={isFetchingNextPage}
        failed={!!nextPageError}
        error={nextPageError}
        what="More comments"
        retry={fetchNextPage}
      />
    </>
  )
}

export function ThreadsSkeleton({ rows = 3 }: { rows?: number }) {
  return (
    <Stack gap={10} aria-busy="true" aria-label="Loading comments" data-testid="comments-loading">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className={classes.thread}>
          <RowsSkeleton rows={2} />
        </div>
      ))}
    </Stack>
  )
}

export function ThreadsEmpty({ title, hint, action }: { title: string; hint: string; action?: ReactNode }) {
  return (
    <Stack align="center" gap={4} py={40} px="md" data-testid="comments-empty">
      <IconMessageCircle size={28} stroke={1.5} color="var(--mantine-color-dimmed)" />
      <Text fw={500} ta="center">
        {title}
      </Text>
      <Text size="sm" c="dimmed" ta="center">
        {hint}
      </Text>
      {action}
    </Stack>
  )
}

/** The list could not load: readers of a space may not see its discussions (403), or something failed. */
export function ThreadsError({ error, onRetry }: { error: Error; onRetry(): void }) {
  const denied = error instanceof ApiError && (error.status === 403 || error.status === 404)
  const Icon = denied ? IconLockAccess : IconAlertTriangle
  return (
    <Stack align="center" gap={4} py={40} px="md" role="alert" data-testid="comments-error">
      <Icon size={28} stroke={1.5} color="var(--mantine-color-dimmed)" />
      <Text fw={500} ta="center">
        {denied ? 'You cannot see these discussions' : 'Comments did not load'}
      </Text>
      <Text size="sm" c="dimmed" ta="center">
        {error.message}
      </Text>
      {!denied && (
        <Button variant="default" size="xs" mt="xs" onClick={onRetry}>
          Try again
        </Button>
      )}
    </Stack>
  )
}
