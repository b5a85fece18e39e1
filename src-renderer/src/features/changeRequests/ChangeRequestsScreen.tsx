import { useState } from 'react'
import { Avatar, Button, EmptyState, Group, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core'
import { IconGitPullRequest, IconMessageCircle, IconPlus } from '@tabler/icons-react'
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { ChangeRequest } from '../../api/types.ts'
import { useReportAppState } from '../../app/appState.ts'
import { formatRelative, initials } from '../common/format.ts'
import { RouterAnchor } from '../common/links.tsx'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { NextPageStatus } from '../common/NextPageStatus.tsx'
import { useLoadMoreNearEnd, usePageVirtualizer } from '../common/usePageVirtualizer.ts'
import { spaceQuery } from '../content/queries.ts'
import { userQuery } from '../orgs/queries.ts'
import { LIST_STATUS_LABELS, LIST_STATUSES, mergeNewestFirst, sourcesOf, type ListStatus } from './listFilters.ts'
import { NewChangeRequestDialog } from './NewChangeRequestDialog.tsx'
import { changeRequestsQuery } from './queries.ts'
import { OutdatedBadge, StatusBadge } from './StatusBadge.tsx'
import table from '../common/DataTable.module.css'
import classes from './ChangeRequests.module.css'
import { LockedNotice } from '../spaceSettings/SpaceSettingsScreen.tsx'

const ROW_HEIGHT = 52
const COLUMNS = '56px minmax(220px, 1fr) 96px 170px 110px 56px'

export interface ChangeRequestListFilters {
  /** `active`: the signed-in user's drafts and the open ones. */
  status: ListStatus
  /** Only change requests the signed-in user created or edited. */
  mine: boolean
}

const EMPTY: Record<ListStatus, { title: string; everyone: string; mine: string }> = {
  active: {
    title: 'Nothing in progress',
    everyone:
      'Your drafts and the change requests open for review show up here. Start one to propose edits without touching the live content.',
    mine: 'You have no drafts, and none of the open change requests are yours.'
  },
  open: {
    title: 'No open change requests',
    everyone: 'Change requests ready for review show up here. Start one to propose edits without touching the live content.',
    mine: 'None of the change requests ready for review are yours. Start one, or look at everyone’s.'
  },
  draft: {
    title: 'No drafts',
    everyone: 'A new change request starts as a draft; mark it “Ready for review” when it is done.',
    mine: 'You have no drafts. A new change request starts as one.'
  },
  merged: {
    title: 'Nothing merged yet',
    everyone: 'Merged change requests stay here as a record of how the content changed.',
    mine: 'None of the merged change requests are yours.'
  },
  archived: {
    title: 'No archived change requests',
    everyone: 'Archive a change request to set it aside without merging; it can be reopened later.',
    mine: 'None of the archived change requests are yours.'
  }
}

/**
 * The change requests of a space: by default the user's drafts and the open ones, else one status at a time (the
 * API lists one status per request); mine or everyone's. Without `filters` the screen keeps them itself; the
 * route passes them from the address.
 */
export function ChangeRequestsScreen({
  spaceId,
  filters: controlled,
  onFiltersChange
}: {
  spaceId: string
  filters?: ChangeRequestListFilters
  onFiltersChange?(filters: ChangeRequestListFilters): void
}) {
  const [own, setOwn] = useState<ChangeRequestListFilters>({ status: 'active', mine: false })
  const filters = controlled ?? own
  const setFilters = onFiltersChange ?? setOwn
  const navigate = useNavigate()
  const [creating, setCreating] = useState(false)

  const me = useQuery(userQuery()).data
  const space = useQuery(spaceQuery(spaceId)).data
  // One or two lists of the API (Active reads two), shown as one, newest first.
  const sources = sourcesOf(filters.status, filters.mine, me?.id)
  const waitsForMe = (filters.status === 'active' || filters.mine) && !me
  const first = useInfiniteQuery({ ...changeRequestsQuery(spaceId, sources[0]!), enabled: !waitsForMe, placeholderData: keepPreviousData })
  const second = useInfiniteQuery({
    ...changeRequestsQuery(spaceId, sources[1] ?? sources[0]!),
    enabled: !waitsForMe && sources.length > 1,
    placeholderData: keepPreviousData
  })
  const lists = [first, second].slice(0, sources.length)
  const loaded = lists.every((q) => q.data)
  const merged = loaded
    ? mergeNewestFirst(
        lists.map((q) => ({ items: q.data!.pages.flatMap((p) => p.items), more: q.hasNextPage })),
        (cr) => cr.number
      )
    : { items: [] as ChangeRequest[], next: undefined }
  const rows = merged.items
  const total = loaded ? lists.reduce((sum, q) => sum + (q.data!.pages[0]?.count ?? 0), 0) : 0
  const fetchingMore = lists.some((q) => q.isFetchingNextPage)
  const placeholder = lists.some((q) => q.isPlaceholderData)
  useReportAppState(loaded ? 'ready' : 'loading')

  const { listRef, virtualizer, scrollMargin } = usePageVirtualizer({
    count: rows.length,
    rowHeight: ROW_HEIGHT,
    getItemKey: (i) => rows[i]!.id
  })
  const items = virtualizer.getVirtualItems()
  const nextList = merged.next === undefined ? undefined : lists[merged.next]
  useLoadMoreNearEnd(items[items.length - 1]?.index, rows.length, {
    hasNextPage: merged.next !== undefined,
    isFetchingNextPage: fetchingMore,
    isFetchNextPageError: nextList?.isFetchNextPageError,
    fetchNextPage: () => nextList!.fetchNextPage()
  })

  const open = (cr: ChangeRequest) =>
    void navigate({ to: '/spaces/$spaceId/change-requests/$number', params: { spaceId, number: String(cr.number) } })
  const canEdit = space?.permissions.edit ?? false
  const empty = EMPTY[filters.status]

  return (
    <Stack gap="md">
      <LockedNotice spaceId={spaceId} what="No change request can be opened, edited or merged until then." />
      <Group gap="sm" wrap="nowrap">
        <SegmentedControl
          aria-label="Status"
          data={LIST_STATUSES.map((s) => ({ value: s, label: LIST_STATUS_LABELS[s] }))}
          value={filters.status}
          onChange={(v) => setFilters({ ...filters, status: v as ListStatus })}
          data-testid="cr-status-filter"
        />
        <SegmentedControl
          aria-label="Whose"
          data={[
            { value: 'everyone', label: 'Everyone' },
            { value: 'mine', label: 'Mine' }
          ]}
          value={filters.mine ? 'mine' : 'everyone'}
          onChange={(v) => setFilters({ ...filters, mine: v === 'mine' })}
          data-testid="cr-scope-filter"
        />
        <span style={{ flex: 1 }} />
        <Text size="sm" c="dimmed" data-testid="cr-count">
          {loaded ? `${total} ${total === 1 ? 'change request' : 'change requests'}` : ''}
        </Text>
        {canEdit && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} data-testid="new-cr">
            New change request
          </Button>
        )}
      </Group>

      {!loaded ? (
        <RowsSkeleton rows={5} />
      ) : rows.length === 0 ? (
        <EmptyState
          mt={32}
          variant="light"
          icon={<IconGitPullRequest size={28} stroke={1.6} />}
          title={empty.title}
          description={filters.mine ? empty.mine : empty.everyone}
          data-testid="cr-empty"
        >
          {canEdit && (filters.status === 'active' || filters.status === 'open' || filters.status === 'draft') && (
            <EmptyState.Actions>
              <Button variant="default" leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
                New change request
              </Button>
            </EmptyState.Actions>
          )}
        </EmptyState>
      ) : (
        <div className={table.table} style={{ ['--columns' as string]: COLUMNS, opacity: placeholder ? 0.6 : 1 }}>
          <div className={table.head}>
            <span>#</span>
            <span>Subject</span>
            <span>Status</span>
            <span>Author</span>
            <span>Updated</span>
            <span title="Open comments">
              <IconMessageCircle size={14} />
            </span>
          </div>
          <div ref={listRef} className={table.body} style={{ height: virtualizer.getTotalSize() }} data-testid="cr-list">
            {items.map((item) => (
              <ChangeRequestRow key={item.key} spaceId={spaceId} cr={rows[item.index]!} top={item.start - scrollMargin} onOpen={open} />
            ))}
          </div>
          <NextPageStatus
            className={table.footer}
            fetching={fetchingMore}
            failed={!!nextList?.isFetchNextPageError}
            error={nextList?.error}
            what="More change requests"
            retry={() => void nextList?.fetchNextPage()}
          />
        </div>
      )}
      <NewChangeRequestDialog spaceId={spaceId} opened={creating} onClose={() => setCreating(false)} onCreated={open} />
    </Stack>
  )
}

function ChangeRequestRow({
  spaceId,
  cr,
  top,
  onOpen
}: {
  spaceId: string
  cr: ChangeRequest
  top: number
  onOpen(cr: ChangeRequest): void
}) {
  const author = cr.createdBy?.displayName || cr.createdBy?.email || 'Unknown'
  const subject = cr.subject || 'Untitled change request'
  return (
    <div
      className={`${table.row} ${classes.clickableRow}`}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onClick={(e) => {
        // The subject is a real link (keyboard, middle click); a click elsewhere on the row opens it too.
        if (!(e.target as HTMLElement).closest('a')) onOpen(cr)
      }}
      data-testid="cr-row"
      data-number={cr.number}
    >
      <Text className={table.cell} c="dimmed" ff="monospace" data-testid="cr-number">
        #{cr.number}
      </Text>
      <Group gap={8} wrap="nowrap" className={table.cell}>
        <RouterAnchor
          to="/spaces/$spaceId/change-requests/$number"
          params={{ spaceId, number: String(cr.number) }}
          size="sm"
          fw={500}
          c="var(--mantine-color-text)"
          truncate
          data-testid="cr-subject"
        >
          {subject}
        </RouterAnchor>
        {cr.outdated && <OutdatedBadge size="xs" style={{ flex: 'none' }} />}
      </Group>
      <div className={table.cell}>
        <StatusBadge status={cr.status} size="sm" />
      </div>
      <Group gap={8} wrap="nowrap" className={table.cell}>
        <Avatar size={22} radius="xl" color="initials" name={author} src={cr.createdBy?.photoURL}>
          {initials(author)}
        </Avatar>
        <Text size="sm" truncate>
          {author}
        </Text>
      </Group>
      <Tooltip label={new Date(cr.updatedAt).toLocaleString()} openDelay={400}>
        <Text className={table.cell} c="dimmed">
          {formatRelative(cr.updatedAt)}
        </Text>
      </Tooltip>
      <Text className={table.cell} c={cr.comments ? undefined : 'dimmed'} data-testid="cr-comments">
        {cr.comments}
      </Text>
    </div>
  )
}
