import { useEffect, useRef, useState } from 'react'
import { ActionIcon, CloseButton, Menu, SegmentedControl, Tooltip } from '@mantine/core'
import { IconCheck, IconFilter, IconSortAscending, IconSortDescending } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { useVirtualizer } from '@tanstack/react-virtual'
import { spaceQuery } from '../content/queries.ts'
import { userQuery } from '../orgs/queries.ts'
import { CommentComposer } from './CommentComposer.tsx'
import {
  THREAD_ESTIMATE,
  ThreadRows,
  ThreadsEmpty,
  ThreadsError,
  ThreadsSkeleton,
  useCommentThreads,
  useThreadUi
} from './CommentThreads.tsx'
import { listFilters, ME, STATUS_OPTIONS, type Order, type StatusFilter } from './filters.ts'
import { emptyMessage } from './messages.ts'
import { usePassageUi } from './passageStore.ts'
import { useCreateComment } from './queries.ts'
import classes from './Comments.module.css'

/**
 * Comments as a side panel (the page editor, a change request): fills its parent's height, scrolls its own
 * virtualized threads, and keeps the composer at the bottom. With `pageId` it lists and posts comments on that
 * page; with `changeRequest` (id or number) those of the change request instead of the primary content.
 * `onClose`: a close button at the end of its toolbar.
 */
export function CommentsPanel({
  spaceId,
  pageId,
  changeRequest,
  onClose
}: {
  spaceId: string
  pageId?: string
  changeRequest?: string
  onClose?: () => void
}) {
  const [status, setStatus] = useState<StatusFilter>('open')
  const [order, setOrder] = useState<Order>('desc')
  const [mine, setMine] = useState(false)
  const me = useQuery(userQuery()).data
  const canComment = useQuery(spaceQuery(spaceId)).data?.permissions.comment !== false
  const filters = listFilters({ status, order, page: pageId, author: mine ? ME : undefined, meId: me?.id, changeRequest })
  const { query, comments } = useCommentThreads(spaceId, filters, !mine || !!me)
  const ui = useThreadUi()
  const [scroller, setScroller] = useState<HTMLElement | null>(null)
  const virtualizer = useVirtualizer({
    count: comments.length,
    getScrollElement: () => scroller,
    estimateSize: () => THREAD_ESTIMATE,
    getItemKey: (i) => comments[i]!.id,
    overscan: 4
  })
  const create = useCreateComment(spaceId)
  // A passage chosen in the editor ("Comment" on a selection): the next comment is on it.
  const draft = usePassageUi((s) => (pageId && s.draft?.pageId === pageId ? s.draft.node : null))
  const clearDraft = usePassageUi((s) => s.clearDraft)
  // A passage clicked in the editor: show its thread (open comments, where passages are highlighted from).
  const focus = usePassageUi((s) => s.focus)
  const focusShown = useRef(0)
  useEffect(() => {
    // Once per ask: a later refetch of the list must not scroll back to it.
    if (!focus || focusShown.current === focus.n) return
    const index = comments.findIndex((c) => c.id === focus.commentId)
    if (index !== -1) {
      focusShown.current = focus.n
      virtualizer.scrollToIndex(index, { align: 'start' })
    } else setStatus('open') // (a no-op when it already is)
  }, [focus, comments, virtualizer])

  const empty = emptyMessage({
    status,
    narrowed: mine,
    on: pageId ? 'page' : changeRequest ? 'change request' : 'space',
    composer: canComment ? 'below' : 'none'
  })
  return (
    <section className={classes.panel} data-testid="comments-panel" aria-label="Comments">
      <div className={classes.panelToolbar}>
        <SegmentedControl
          size="xs"
          data={STATUS_OPTIONS}
          value={status}
          onChange={(v) => setStatus(v as StatusFilter)}
          data-testid="comments-status"
          aria-label="Status"
        />
        <span className={classes.spacer} />
        <Tooltip label={order === 'desc' ? 'Newest first' : 'Oldest first'}>
          <ActionIcon
            aria-label="Toggle sort order"
            onClick={() => setOrder(order === 'desc' ? 'asc' : 'desc')}
            data-testid="comments-order"
          >
            {order === 'desc' ? <IconSortDescending size={16} /> : <IconSortAscending size={16} />}
          </ActionIcon>
        </Tooltip>
        <Menu>
          <Menu.Target>
            <ActionIcon
              aria-label="Filter comments"
              variant={mine ? 'light' : 'subtle'}
              color={mine ? undefined : 'gray'}
              data-testid="comments-filter"
            >
              <IconFilter size={16} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={mine ? <IconCheck size={15} /> : <span style={{ width: 15 }} />} onClick={() => setMine(false)}>
              Everyone's comments
            </Menu.Item>
            <Menu.Item leftSection={!mine ? <IconCheck size={15} /> : <span style={{ width: 15 }} />} onClick={() => setMine(true)}>
              Only mine
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
        {onClose && (
          <Tooltip label="Close comments">
            <CloseButton aria-label="Close comments" onClick={onClose} data-testid="comments-close" />
          </Tooltip>
        )}
      </div>
      <div className={classes.panelScroll} ref={setScroller}>
        {!query.data && query.isError ? (
          <ThreadsError error={query.error} onRetry={() => void query.refetch()} />
        ) : !query.data ? (
          <ThreadsSkeleton rows={2} />
        ) : comments.length === 0 ? (
          <ThreadsEmpty title={empty.title} hint={empty.hint} />
        ) : (
          <ThreadRows
            spaceId={spaceId}
            comments={comments}
            virtualizer={virtualizer}
            scrollMargin={0}
            me={me}
            ui={ui}
            focused={focus?.commentId}
            // On one page the page is implied; pages of a change request are not at the primary content's address.
            target={pageId ? 'none' : changeRequest ? 'text' : 'link'}
            stale={query.isPlaceholderData}
            hasNextPage={query.hasNextPage}
            isFetchingNextPage={query.isFetchingNextPage}
            nextPageError={query.isFetchNextPageError ? query.error : undefined}
            fetchNextPage={() => void query.fetchNextPage()}
          />
        )}
      </div>
      {canComment && (
        <div className={classes.panelComposer}>
          {draft && (
            <div className={classes.passageDraft} data-testid="passage-draft">
              <div className={classes.quote}>{draft.preview}</div>
              <CloseButton size="sm" aria-label="Comment on the whole page instead" onClick={clearDraft} />
            </div>
          )}
          <CommentComposer
            spaceId={spaceId}
            noun="Comment"
            placeholder={draft ? 'Comment on the selected passage…' : pageId ? 'Comment on this page…' : 'Write a comment…'}
            focusSignal={draft ? draftSignal(draft) : 0}
            submitLabel="Comment"
            testId="comment-composer"
            onSubmit={async (markdown) => {
              await create.mutateAsync({ markdown, page: pageId, changeRequest, node: draft ?? undefined })
              if (draft) clearDraft()
              // The new thread lands at the top (newest first) or the bottom (oldest first): look there.
              scroller?.scrollTo({ top: order === 'desc' ? 0 : scroller.scrollHeight })
            }}
          />
        </div>
      )}
    </section>
  )
}

/** A focus signal that changes with each passage chosen (the composer takes the focus for it). */
const signals = new WeakMap<object, number>()
let nextSignal = 1
function draftSignal(node: object): number {
  if (!signals.has(node)) signals.set(node, nextSignal++)
  return signals.get(node)!
}
