import { useState } from 'react'
import { Avatar, Button, EmptyState, Group, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core'
import { IconGitPullRequest, IconMessageCircle, IconPlus } from '@tabler/icons-react'
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { ChangeRequest, ChangeRequestStatus } from '../../api/types.ts'
import { useReportAppState } from '../../app/appState.ts'
import { formatRelative, initials } from '../common/format.ts'
import { RouterAnchor } from '../common/links.tsx'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { useLoadMoreNearEnd, usePageVirtualizer } from '../common/usePageVirtualizer.ts'
import { spaceQuery } from '../content/queries.ts'
import { userQuery } from '../orgs/queries.ts'
import { STATUS_FILTERS, STATUS_LABELS } from './moves.ts'
import { NewChangeRequestDialog } from './NewChangeRequestDialog.tsx'
import { changeRequestsQuery } from './queries.ts'
import { OutdatedBadge, StatusBadge } from './StatusBadge.tsx'
import table from '../common/DataTable.module.css'
import classes from './ChangeRequests.module.css'

const ROW_HEIGHT = 52
const COLUMNS = '56px minmax(220px, 1fr) 96px 170px 110px 56px'

export interface ChangeRequestListFilters {
  status: ChangeRequestStatus
  /** Only change requests the signed-in user created or edited. */
  mine: boolean
}

const EMPTY: Record<ChangeRequestStatus, { title: string; everyone: string; mine: string }> = {
  open: {
    title: 'No open change requests',
    everyone: 'Change requests ready for review show up here. Start one to propose edits without touching the live content.',
    mine: 'None of the change requests ready for review are yours. Start one, or look at everyone’s.',
  },
  draft: {
    title: 'No drafts',
    everyone: 'A new change request starts as a draft; mark it “Ready for review” when it is done.',
    mine: 'You have no drafts. A new change request starts as one.',
  },
  merged: {
    title: 'Nothing merged yet',
    everyone: 'Merged change requests stay here as a record of how the content changed.',
    mine: 'None of the merged change requests are yours.',
  },
  archived: {
    title: 'No archived change requests',
    everyone: 'Archive a change request to set it aside without merging; it can be reopened later.',
    mine: 'None of the archived change requests are yours.',
  },
}

/**
 * The change requests of a space, one status at a time (the API lists one status per request), mine or
 * everyone's. Without `filters` the screen keeps them itself; the route passes them from the address.
 */
export function ChangeRequestsScreen({
  spaceId,
  filters: controlled,
  onFiltersChange,
}: {
  spaceId: string
  filters?: ChangeRequestListFilters
  onFiltersChange?(filters: ChangeRequestListFilters): void
}) {
  const [own, setOwn] = useState<ChangeRequestListFilters>({ status: 'open', mine: false })
  const filters = controlled ?? own
  const setFilters = onFiltersChange ?? setOwn
  const navigate = useNavigate()
  const [creating, setCreating] = useState(false)

  const me = useQuery(userQuery()).data
  const space = useQuery(spaceQuery(spaceId)).data
  const contributor = filters.mine ? me?.id : undefined
  const query = useInfiniteQuery({
    ...changeRequestsQuery(spaceId, { status: filters.status, contributor }),
    enabled: !filters.mine || !!me,
    placeholderData: keepPreviousData,
  })
  const rows = query.data?.pages.flatMap((p) => p.items) ?? []
  const total = query.data?.pages[0]?.count ?? 0
  useReportAppState(query.data ? 'ready' : 'loading')

  const { listRef, virtualizer, scrollMargin } = usePageVirtualizer({ count: rows.length, rowHeight: ROW_HEIGHT, getItemKey: (i) => rows[i]!.id })
  const items = virtualizer.getVirtualItems()
  useLoadMoreNearEnd(items[items.length - 1]?.index, rows.length, query)

  const open = (cr: ChangeRequest) =>
    void navigate({ to: '/spaces/$spaceId/change-requests/$number', params: { spaceId, number: String(cr.number) } })
  const canEdit = space?.permissions.edit ?? false
  const empty = EMPTY[filters.status]

  return (
    <Stack gap="md">
      <Group gap="sm" wrap="nowrap">
        <SegmentedControl
          aria-label="Status"
          data={STATUS_FILTERS.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
          value={filters.status}
          onChange={(v) => setFilters({ ...filters, status: v as ChangeRequestStatus })}
          data-testid="cr-status-filter"
        />
        <SegmentedControl
          aria-label="Whose"
          data={[
            { value: 'everyone', label: 'Everyone' },
            { value: 'mine', label: 'Mine' },
          ]}
          value={filters.mine ? 'mine' : 'everyone'}
          onChange={(v) => setFilters({ ...filters, mine: v === 'mine' })}
          data-testid="cr-scope-filter"
        />
        <span style={{ flex: 1 }} />
        <Text size="sm" c="dimmed" data-testid="cr-count">
          {query.data ? `${total} ${total === 1 ? 'change request' : 'change requests'}` : ''}
        </Text>
        {canEdit && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} data-testid="new-cr">
            New change request
          </Button>
        )}
      </Group>

      {!query.data ? (
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
          {canEdit && (filters.status === 'open' || filters.status === 'draft') && (
            <EmptyState.Actions>
              <Button variant="default" leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
                New change request
              </Button>
            </EmptyState.Actions>
          )}
        </EmptyState>
      ) : (
        <div className={table.table} style={{ ['--columns' as string]: COLUMNS, opacity: query.isPlaceholderData ? 0.6 : 1 }}>
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
          {query.isFetchingNextPage && <div className={table.footer}>Loading more…</div>}
        </div>
      )}
      <NewChangeRequestDialog spaceId={spaceId} opened={creating} onClose={() => setCreating(false)} onCreated={open} />
    </Stack>
  )
}

function ChangeRequestRow({ spaceId, cr, top, onOpen }: { spaceId: string; cr: ChangeRequest; top: number; onOpen(cr: ChangeRequest): void }) {
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
