import { Avatar, Badge, Button, EmptyState, Group, Stack, Text, Tooltip } from '@mantine/core'
import { IconArrowsDiff, IconHistory } from '@tabler/icons-react'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useReportAppState } from '../../app/appState.ts'
import { formatRelative, initials, plural } from '../common/format.ts'
import { RouterAnchor } from '../common/links.tsx'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { NextPageStatus } from '../common/NextPageStatus.tsx'
import { useLoadMoreNearEnd, usePageVirtualizer } from '../common/usePageVirtualizer.ts'
import { exactTime, revisionTitle, revisionTypeLabel } from './history.ts'
import { revisionsQuery, type RevisionSummary } from './queries.ts'
import { RouterButton } from './RevisionHeader.tsx'
import table from '../common/DataTable.module.css'
import classes from './History.module.css'

const ROW_HEIGHT = 56
const COLUMNS = 'minmax(90px, 0.6fr) minmax(160px, 2fr) minmax(90px, 0.6fr) minmax(110px, 1fr) 104px'

/**
 * The space's history, newest first: when (relative, exact on hover), what (the change request a merge took in,
 * linked, else the revision's type), who. Virtualized and read on as it scrolls, 100 revisions a request; a row
 * opens the revision read-only, "Compare" shows what it changed against the one before.
 */
export function HistoryScreen({ spaceId }: { spaceId: string }) {
  const query = useInfiniteQuery(revisionsQuery(spaceId))
  const rows = query.data?.pages.flatMap((p) => p.items) ?? []
  const total = query.data?.pages[0]?.count
  useReportAppState(query.data ? 'ready' : 'loading')

  const { listRef, virtualizer, scrollMargin } = usePageVirtualizer({
    count: rows.length,
    rowHeight: ROW_HEIGHT,
    getItemKey: (i) => rows[i]!.id
  })
  const items = virtualizer.getVirtualItems()
  useLoadMoreNearEnd(items[items.length - 1]?.index, rows.length, query)

  if (!query.data) return <RowsSkeleton rows={6} />
  if (rows.length === 0)
    return (
      <EmptyState
        mt={32}
        variant="light"
        icon={<IconHistory size={28} stroke={1.6} />}
        title="No history yet"
        description="Each merge, import or restore of the space’s content becomes a revision listed here."
        data-testid="history-empty"
      />
    )
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed" data-testid="history-count">
        {plural(total ?? rows.length, 'revision')} of the main content, newest first. Open one to read it as it was, compare it, or restore
        it.
      </Text>
      <div className={table.table} style={{ ['--columns' as string]: COLUMNS }}>
        <div className={table.head}>
          <span>When</span>
          <span>What</span>
          <span>Type</span>
          <span>By</span>
          <span />
        </div>
        <div
          ref={listRef}
          className={table.body}
          style={{ height: virtualizer.getTotalSize() }}
          data-testid="history-list"
          role="list"
          aria-label="Revisions"
        >
          {items.map((item) => (
            <RevisionRow key={item.key} spaceId={spaceId} revision={rows[item.index]!} top={item.start - scrollMargin} />
          ))}
        </div>
        {query.hasNextPage && (
          <div className={table.footer}>
            {query.isFetchingNextPage ? (
              'Loading more…'
            ) : query.isFetchNextPageError ? (
              <NextPageStatus fetching={false} failed error={query.error} what="Older revisions" retry={() => void query.fetchNextPage()} />
            ) : (
              <Button variant="subtle" size="compact-xs" onClick={() => void query.fetchNextPage()} data-testid="history-load-more">
                Load more
              </Button>
            )}
          </div>
        )}
      </div>
    </Stack>
  )
}

function RevisionRow({ spaceId, revision, top }: { spaceId: string; revision: RevisionSummary; top: number }) {
  const navigate = useNavigate()
  const author = revision.createdBy?.displayName
  const open = () => void navigate({ to: '/spaces/$spaceId/history/$revisionId', params: { spaceId, revisionId: revision.id } })
  return (
    <div
      className={`${table.row} ${classes.clickable}`}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      role="listitem"
      onClick={(e) => {
        // Links and buttons in the row do their own thing.
        if (!(e.target as HTMLElement).closest('a, button')) open()
      }}
      data-testid="revision-row"
      data-revision={revision.id}
    >
      <Tooltip label={exactTime(revision.createdAt)} openDelay={300}>
        <RouterAnchor
          to="/spaces/$spaceId/history/$revisionId"
          params={{ spaceId, revisionId: revision.id }}
          size="sm"
          c="var(--mantine-color-text)"
          className={table.cell}
          truncate
          data-testid="revision-when"
        >
          {formatRelative(revision.createdAt)}
        </RouterAnchor>
      </Tooltip>
      <div className={table.cell}>
        {revision.changeRequest ? (
          <RouterAnchor
            to="/spaces/$spaceId/change-requests/$number"
            params={{ spaceId, number: String(revision.changeRequest.number) }}
            size="sm"
            fw={500}
            truncate
            style={{ display: 'block' }}
            data-testid="revision-change-request"
          >
            {revisionTitle(revision)}
          </RouterAnchor>
        ) : (
          <Text size="sm" fw={500} truncate data-testid="revision-title">
            {revisionTitle(revision)}
          </Text>
        )}
      </div>
      <div className={table.cell}>
        <Badge
          size="sm"
          variant="light"
          color={revision.type === 'rollback' ? 'orange' : revision.type === 'merge' ? 'indigo' : 'gray'}
          data-testid="revision-type"
        >
          {revisionTypeLabel(revision.type)}
        </Badge>
      </div>
      <Group gap={8} wrap="nowrap" className={table.cell}>
        {author ? (
          <>
            <Avatar size={22} radius="xl" color="initials" name={author} src={revision.createdBy?.photoURL}>
              {initials(author)}
            </Avatar>
            <Text size="sm" truncate data-testid="revision-author">
              {author}
            </Text>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
      </Group>
      <div className={table.cell} style={{ justifySelf: 'end' }}>
        {revision.parents.length > 0 && (
          <RouterButton
            to="/spaces/$spaceId/history/$revisionId/compare"
            params={{ spaceId, revisionId: revision.id }}
            variant="subtle"
            size="compact-sm"
            leftSection={<IconArrowsDiff size={14} />}
            aria-label={`Compare ${revisionTitle(revision)} with the revision before`}
            data-testid="revision-compare"
          >
            Compare
          </RouterButton>
        )}
      </div>
    </div>
  )
}
