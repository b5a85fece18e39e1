import { useEffect, useMemo, useState, type KeyboardEvent } from 'react'
import { Alert, Badge, EmptyState, Group, SegmentedControl, Skeleton, Stack, Text, Title, Tooltip } from '@mantine/core'
import {
  IconAlertTriangle,
  IconArrowRight,
  IconArrowsMove,
  IconExternalLink,
  IconFileOff,
  IconFilePlus,
  IconFileText,
  IconPencil
} from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { useVirtualizer } from '@tanstack/react-virtual'
import { ApiError } from '../../api/client.ts'
import { AttributeRows } from '../common/AttributeRows.tsx'
import { attributeRows } from '../common/changeAttributes.ts'
import { RouterAnchor } from '../common/links.tsx'
import {
  changeKey,
  changeRows,
  conflictAdvice,
  groupChanges,
  groupOf,
  pickSelection,
  type GroupKey,
  type MergeConflict,
  type PageChange
} from './changes.ts'
import { DiffView, DocumentView, SideLabels } from './DiffView.tsx'
import { mainPageQuery } from './queries.ts'
import classes from './ChangeRequests.module.css'

const GROUP_ICONS: Record<GroupKey, { icon: typeof IconFileText; color: string; label: string }> = {
  added: { icon: IconFilePlus, color: 'var(--mantine-color-green-7)', label: 'Added' },
  edited: { icon: IconPencil, color: 'var(--mantine-color-blue-7)', label: 'Edited' },
  moved: { icon: IconArrowsMove, color: 'var(--mantine-color-grape-7)', label: 'Moved' },
  removed: { icon: IconFileOff, color: 'var(--mantine-color-red-7)', label: 'Removed' }
}

export type Conflicts = ReadonlyMap<string, MergeConflict['reason'] | undefined>

/**
 * What the change request changes, page by page: a list grouped Added / Edited / Moved / Removed beside the
 * selected page's view (side-by-side diff, whole document, or from → to). Pages in conflict with main are
 * marked and get a second view: main's current text beside the change request's.
 */
export function ChangesPanel({
  spaceId,
  number,
  changes,
  conflicts,
  conflictFirst,
  selectedKey,
  onSelect
}: {
  spaceId: string
  number: string
  changes: PageChange[]
  conflicts: Conflicts
  /** The last merge or update answered conflicts: open conflicting pages on their conflict view. */
  conflictFirst: boolean
  selectedKey?: string
  onSelect(key: string): void
}) {
  const groups = useMemo(() => groupChanges(changes), [changes])
  const rows = useMemo(() => changeRows(groups), [groups])
  const selected = pickSelection(groups, selectedKey, conflicts)
  const selectedIndex = selected ? rows.findIndex((r) => r.kind === 'change' && r.key === changeKey(selected)) : -1

  const [listEl, setListEl] = useState<HTMLDivElement | null>(null)
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => listEl,
    estimateSize: (i) => (rows[i]!.kind === 'group' ? 30 : 48),
    getItemKey: (i) => {
      const row = rows[i]!
      return row.kind === 'group' ? `group:${row.group.key}` : row.key
    },
    overscan: 12
  })
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' })
    // The virtualizer is one object for the component's life.
  }, [selectedIndex, virtualizer])

  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0
    if (!step) return
    e.preventDefault()
    for (let i = selectedIndex + step; i >= 0 && i < rows.length; i += step) {
      const row = rows[i]!
      if (row.kind === 'change') return onSelect(row.key)
    }
  }

  if (changes.length === 0)
    return (
      <EmptyState
        variant="light"
        py={40}
        icon={<IconFileText size={28} stroke={1.6} />}
        title="No page changes yet"
        description="Pages added, edited, moved or removed in this change request show up here, each with its diff against main."
        data-testid="changes-empty"
      />
    )

  return (
    <div className={classes.changes}>
      <div
        ref={setListEl}
        className={classes.changeList}
        role="listbox"
        aria-label="Changed pages"
        aria-activedescendant={selected ? `change-${changeKey(selected)}` : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
        data-testid="change-list"
      >
        <div className={classes.changeRows} style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!
            if (row.kind === 'group')
              return (
                <div
                  key={item.key}
                  className={classes.groupRow}
                  style={{ transform: `translateY(${item.start}px)` }}
                  data-testid="change-group"
                  data-group={row.group.key}
                >
                  <span style={{ flex: 1 }}>{row.group.label}</span>
                  <span data-testid="change-group-count">{row.group.changes.length}</span>
                </div>
              )
            const { change } = row
            const kind = GROUP_ICONS[groupOf(change)]
            const inConflict = conflicts.has(change.page.id) && change.type !== 'page_moved'
            return (
              <div
                key={item.key}
                id={`change-${row.key}`}
                className={classes.changeRow}
                style={{ transform: `translateY(${item.start}px)` }}
                role="option"
                aria-selected={selected ? changeKey(selected) === row.key : false}
                onClick={() => onSelect(row.key)}
                data-testid="change-row"
                data-type={change.type}
                data-conflict={inConflict || undefined}
              >
                <kind.icon size={16} color={kind.color} style={{ flex: 'none' }} aria-label={kind.label} />
                <div className={classes.changeText}>
                  <Text size="sm" fw={500} truncate data-testid="change-title">
                    {change.page.title || 'Untitled page'}
                  </Text>
                  <Text size="xs" c="dimmed" truncate ff="monospace">
                    {change.page.path}
                  </Text>
                </div>
                {inConflict && (
                  <Badge size="xs" color="red" variant="light" data-testid="change-conflict">
                    Conflict
                  </Badge>
                )}
              </div>
            )
          })}
        </div>
      </div>
      <div className={classes.viewer}>
        {selected && (
          <PageChangeView
            key={changeKey(selected)}
            spaceId={spaceId}
            number={number}
            change={selected}
            inConflict={conflicts.has(selected.page.id) && selected.type !== 'page_moved'}
            reason={conflicts.get(selected.page.id)}
            conflictFirst={conflictFirst}
          />
        )}
      </div>
    </div>
  )
}

function PageChangeView({
  spaceId,
  number,
  change,
  inConflict,
  reason,
  conflictFirst
}: {
  spaceId: string
  number: string
  change: PageChange
  inConflict: boolean
  reason: MergeConflict['reason'] | undefined
  conflictFirst: boolean
}) {
  const [view, setView] = useState<'changes' | 'conflict'>(inConflict && conflictFirst ? 'conflict' : 'changes')
  useEffect(() => {
    // A merge that just answered conflicts switches the open page to what blocks it.
    if (inConflict && conflictFirst) setView('conflict')
  }, [inConflict, conflictFirst])
  const kind = GROUP_ICONS[groupOf(change)]
  const exists = change.type !== 'page_deleted'

  return (
    <Stack gap="sm" data-testid="change-view" data-type={change.type}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap={8} wrap="nowrap">
            <kind.icon size={18} color={kind.color} style={{ flex: 'none' }} />
            <Title order={4} style={{ overflowWrap: 'anywhere' }} data-testid="change-view-title">
              {change.page.title || 'Untitled page'}
            </Title>
            <Badge size="sm" variant="light" color="gray" style={{ flex: 'none' }}>
              {kind.label}
            </Badge>
            {inConflict && (
              <Badge size="sm" color="red" variant="light" style={{ flex: 'none' }}>
                Conflict
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed" ff="monospace">
            {change.page.path}
          </Text>
        </Stack>
        {exists && (
          <RouterAnchor
            to="/spaces/$spaceId/change-requests/$number/pages/$pageId"
            params={{ spaceId, number, pageId: change.page.id }}
            size="sm"
            style={{ flex: 'none', display: 'inline-flex', alignItems: 'center', gap: 4 }}
            data-testid="open-in-editor"
          >
            Open in editor <IconExternalLink size={14} />
          </RouterAnchor>
        )}
      </Group>

      {inConflict && (
        <SegmentedControl
          size="xs"
          style={{ alignSelf: 'flex-start' }}
          data={[
            { value: 'changes', label: 'Changes' },
            { value: 'conflict', label: 'Conflict with main' }
          ]}
          value={view}
          onChange={(v) => setView(v as 'changes' | 'conflict')}
          data-testid="change-view-toggle"
        />
      )}

      {inConflict && view === 'conflict' ? (
        <ConflictView spaceId={spaceId} change={change} reason={reason} />
      ) : (
        <ChangeBody change={change} />
      )}
    </Stack>
  )
}

function ChangeBody({ change }: { change: PageChange }) {
  const { before, after } = change
  switch (change.type) {
    case 'page_created':
      return (
        <>
          <Text size="xs" fw={600} c="dimmed">
            New page in this change request
          </Text>
          <DocumentView text={after?.markdown ?? ''} tone="added" testId="added-document" />
        </>
      )
    case 'page_deleted':
      return (
        <>
          <Text size="xs" fw={600} c="dimmed">
            Removed by this change request; merging deletes this text from main
          </Text>
          <DocumentView text={before?.markdown ?? ''} tone="removed" testId="removed-document" />
        </>
      )
    case 'page_moved':
      return (
        <div className={classes.moveBox} data-testid="move-paths">
          <Text className={classes.path} c="dimmed" data-testid="move-from">
            /{before?.path ?? ''}
          </Text>
          <IconArrowRight size={16} style={{ flex: 'none' }} />
          <Text className={classes.path} fw={500} data-testid="move-to">
            /{after?.path ?? change.page.path}
          </Text>
        </div>
      )
    case 'page_edited': {
      const rows = attributeRows(change.attributes)
      const sameText = (before?.markdown ?? '') === (after?.markdown ?? '') || !change.attributes?.document
      return (
        <>
          <AttributeRows rows={rows} testId="changed-attributes" />
          {sameText ? (
            <Text size="sm" c="dimmed">
              The text is unchanged.
            </Text>
          ) : (
            <>
              <SideLabels
                left={
                  <Tooltip label="Main as it was when this change request started, or last pulled main in" openDelay={300}>
                    <span>Before · main at the base</span>
                  </Tooltip>
                }
                right="After · this change request"
              />
              <DiffView before={before?.markdown ?? ''} after={after?.markdown ?? ''} />
            </>
          )}
        </>
      )
    }
  }
}

/** Main's current text beside the change request's, with what to do about it. */
function ConflictView({ spaceId, change, reason }: { spaceId: string; change: PageChange; reason: MergeConflict['reason'] | undefined }) {
  const main = useQuery({ ...mainPageQuery(spaceId, change.page.id), retry: false })
  const mainGone = main.error instanceof ApiError && main.error.status === 404
  if (main.isPending)
    return (
      <Stack gap={8}>
        <Skeleton height={40} />
        <Skeleton height={180} />
      </Stack>
    )
  if (main.error && !mainGone)
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
        Main’s version of this page could not be read: {main.error.message}
      </Alert>
    )
  const advice = conflictAdvice(change, reason, { title: main.data?.title, exists: !mainGone })
  const crText = change.type === 'page_deleted' ? '' : (change.after?.markdown ?? '')
  return (
    <Stack gap="sm" data-testid="conflict-view">
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="conflict-advice">
        {advice}
      </Alert>
      <SideLabels
        left={
          mainGone
            ? 'Main now · page removed'
            : `Main now${main.data && change.after && main.data.title !== change.after.title ? ` · “${main.data.title}”` : ''}`
        }
        right={change.type === 'page_deleted' ? 'This change request · page removed' : 'This change request'}
      />
      <DiffView before={main.data?.markdown ?? ''} after={crText} testId="conflict-diff" />
    </Stack>
  )
}
