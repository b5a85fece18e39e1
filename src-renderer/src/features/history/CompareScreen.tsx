import { useEffect, useMemo, useState, type KeyboardEvent } from 'react'
import { Alert, Badge, Button, Checkbox, EmptyState, Group, Select, Skeleton, Stack, Text, Title } from '@mantine/core'
import {
  IconAlertTriangle,
  IconArrowRight,
  IconArrowsMove,
  IconFile,
  IconFileOff,
  IconFilePlus,
  IconFileText,
  IconPencil,
  IconRestore
} from '@tabler/icons-react'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useReportAppState } from '../../app/appState.ts'
import { AttributeRows } from '../common/AttributeRows.tsx'
import { attributeRows } from '../common/changeAttributes.ts'
import { DiffView, DocumentView, SideLabels } from '../changeRequests/DiffView.tsx'
import { plural } from '../common/format.ts'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import {
  compareGroupOf,
  compareKey,
  compareRows,
  exactTime,
  pagesToRestore,
  pickChange,
  restorable,
  revisionTitle,
  textChanged,
  toggled,
  type CompareGroupKey,
  type SemanticChange
} from './history.ts'
import { COMPARE_LIMIT, revisionChangesQuery, revisionPageQuery, revisionQuery, revisionsQuery } from './queries.ts'
import {
  CURRENT_REVISION_HINT,
  HistoryBackLink,
  RevisionHeader,
  useCanRestore,
  useIsCurrentRevision,
  useRestoreConfirm
} from './RevisionHeader.tsx'
import classes from './History.module.css'

const GROUP_ROW = 30
const CHANGE_ROW = 48

const KINDS: Record<CompareGroupKey, { icon: typeof IconFileText; color: string; label: string }> = {
  created: { icon: IconFilePlus, color: 'var(--mantine-color-green-7)', label: 'Created' },
  edited: { icon: IconPencil, color: 'var(--mantine-color-blue-7)', label: 'Edited' },
  moved: { icon: IconArrowsMove, color: 'var(--mantine-color-grape-7)', label: 'Moved' },
  deleted: { icon: IconFileOff, color: 'var(--mantine-color-red-7)', label: 'Deleted' },
  files: { icon: IconFile, color: 'var(--mantine-color-dimmed)', label: 'File' }
}

/**
 * Two revisions compared: what changed from a base (by default the revision before) to this one, page by page
 * (created, edited, moved, deleted; then files), each with a side-by-side diff of its text. Pages ticked in the
 * list are restored as this revision has them.
 */
export function CompareScreen({
  spaceId,
  revisionId,
  against,
  selectedKey,
  onChange
}: {
  spaceId: string
  revisionId: string
  /** The base revision; undefined: the revision's first parent. */
  against?: string
  selectedKey?: string
  onChange(next: { against?: string; change?: string }): void
}) {
  const target = useQuery(revisionQuery(spaceId, revisionId))
  const changes = useQuery(revisionChangesQuery(spaceId, revisionId, { against, limit: COMPARE_LIMIT }))
  const base = against ?? target.data?.parents[0]
  const rows = useMemo(() => compareRows(changes.data?.changes ?? []), [changes.data])
  const selected = pickChange(rows, selectedKey)
  const canRestore = useCanRestore(spaceId)
  const isCurrent = useIsCurrentRevision(spaceId, revisionId)
  const restore = useRestoreConfirm(spaceId)
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set())
  useReportAppState(changes.data || changes.error ? 'ready' : 'loading')

  const list = changes.data?.changes ?? []
  const toRestore = pagesToRestore(list, ticked)
  const titles = new Map(list.flatMap((c) => (c.page ? [[c.page.id, c.page.title] as const] : [])))
  const toggle = (id: string) => setTicked((prev) => toggled(prev, id))

  return (
    <Stack gap={0}>
      <HistoryBackLink spaceId={spaceId} />
      <RevisionHeader
        spaceId={spaceId}
        revisionId={revisionId}
        createdAt={target.data?.createdAt}
        label="Comparing"
        actions={
          canRestore &&
          target.data && (
            <Button
              leftSection={<IconRestore size={16} />}
              disabled={isCurrent || toRestore.length === 0}
              title={isCurrent ? CURRENT_REVISION_HINT : toRestore.length === 0 ? 'Tick the pages to restore in the list' : undefined}
              onClick={() =>
                restore(
                  revisionId,
                  target.data.createdAt,
                  toRestore.map((id) => ({ id, title: titles.get(id) ?? '' }))
                )
              }
              data-testid="compare-restore"
            >
              {toRestore.length ? `Restore ${plural(toRestore.length, 'page')}…` : 'Restore pages…'}
            </Button>
          )
        }
      />
      <Group gap="sm" mb="md" wrap="wrap">
        <Text size="sm" c="dimmed">
          Changes from
        </Text>
        <BaseSelect
          spaceId={spaceId}
          revisionId={revisionId}
          value={against}
          parent={target.data?.parents[0]}
          onChange={(next) => onChange({ against: next })}
        />
        <IconArrowRight size={14} />
        <Text size="sm" fw={500}>
          this revision
        </Text>
        {changes.data && (
          <Text size="sm" c="dimmed" data-testid="compare-count">
            · {plural(list.length + (changes.data.more ?? 0), 'change')}
            {changes.data.more ? ` (the first ${list.length} shown)` : ''}
          </Text>
        )}
      </Group>

      {changes.error ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="compare-error">
          The changes could not be read: {changes.error.message}
        </Alert>
      ) : !changes.data ? (
        <RowsSkeleton rows={5} />
      ) : rows.length === 0 ? (
        <EmptyState
          variant="light"
          py={40}
          icon={<IconFileText size={28} stroke={1.6} />}
          title="No changes"
          description="The pages and files are the same in both revisions."
          data-testid="compare-empty"
        />
      ) : (
        <div className={classes.split}>
          <ChangeList
            rows={rows}
            selected={selected}
            ticked={canRestore ? ticked : undefined}
            onToggle={toggle}
            onSelect={(key) => onChange({ against, change: key })}
          />
          <div className={classes.viewer}>
            {selected && <ChangeView key={compareKey(selected)} spaceId={spaceId} base={base} target={revisionId} change={selected} />}
          </div>
        </div>
      )}
    </Stack>
  )
}

/** The base to compare with: the revision before (default), or any revision of the history read so far. */
function BaseSelect({
  spaceId,
  revisionId,
  value,
  parent,
  onChange
}: {
  spaceId: string
  revisionId: string
  value?: string
  parent?: string
  onChange(next?: string): void
}) {
  const history = useInfiniteQuery(revisionsQuery(spaceId))
  const revisions = history.data?.pages.flatMap((p) => p.items) ?? []
  const data = [
    { value: '', label: parent ? 'The revision before' : 'An empty space (the first revision)' },
    ...revisions
      .filter((r) => r.id !== revisionId && r.id !== parent)
      .map((r) => ({ value: r.id, label: `${exactTime(r.createdAt)} · ${revisionTitle(r)}` }))
  ]
  // A base named in the address but not read yet still shows as chosen.
  if (value && !data.some((d) => d.value === value)) data.push({ value, label: `Revision ${value}` })
  return (
    <Select
      size="xs"
      w={360}
      aria-label="Compare with"
      data={data}
      value={value ?? ''}
      allowDeselect={false}
      searchable
      onChange={(next) => onChange(next || undefined)}
      data-testid="compare-base"
    />
  )
}

function ChangeList({
  rows,
  selected,
  ticked,
  onToggle,
  onSelect
}: {
  rows: ReturnType<typeof compareRows>
  selected?: SemanticChange
  ticked?: ReadonlySet<string>
  onToggle(pageId: string): void
  onSelect(key: string): void
}) {
  const [listEl, setListEl] = useState<HTMLDivElement | null>(null)
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => listEl,
    estimateSize: (i) => (rows[i]!.kind === 'group' ? GROUP_ROW : CHANGE_ROW),
    getItemKey: (i) => {
      const row = rows[i]!
      return row.kind === 'group' ? `group:${row.key}` : row.key
    },
    overscan: 12
  })
  const selectedKey = selected ? compareKey(selected) : undefined
  const selectedIndex = rows.findIndex((r) => r.kind === 'change' && r.key === selectedKey)
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

  return (
    <div
      ref={setListEl}
      className={classes.side}
      role="listbox"
      aria-label="Changes"
      aria-activedescendant={selectedKey ? `compare-${selectedKey}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid="compare-list"
    >
      <div className={classes.rows} style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!
          if (row.kind === 'group')
            return (
              <div
                key={item.key}
                className={classes.groupRow}
                style={{ transform: `translateY(${item.start}px)` }}
                data-testid="compare-group"
                data-group={row.key}
              >
                <span style={{ flex: 1 }}>{row.label}</span>
                <span>{row.count}</span>
              </div>
            )
          const { change } = row
          const kind = KINDS[compareGroupOf(change)]
          const name = change.page ? change.page.title || 'Untitled page' : (change.file?.name ?? '')
          return (
            <div
              key={item.key}
              id={`compare-${row.key}`}
              className={classes.row}
              style={{ transform: `translateY(${item.start}px)`, height: CHANGE_ROW }}
              role="option"
              aria-selected={row.key === selectedKey}
              onClick={() => onSelect(row.key)}
              data-testid="compare-row"
              data-type={change.type}
            >
              {ticked &&
                (restorable(change) ? (
                  <Checkbox
                    size="xs"
                    checked={ticked.has(change.page!.id)}
                    onChange={() => onToggle(change.page!.id)}
                    onClick={(e) => e.stopPropagation()}
                    aria-label={`Restore ${name}`}
                    data-testid="compare-tick"
                  />
                ) : (
                  <span style={{ width: 16, flex: 'none' }} />
                ))}
              <kind.icon size={16} color={kind.color} style={{ flex: 'none' }} aria-label={kind.label} />
              <div className={classes.rowText}>
                <Text size="sm" fw={500} truncate data-testid="compare-title">
                  {name}
                </Text>
                <Text size="xs" c="dimmed" truncate ff="monospace">
                  {change.page ? `/${change.page.path}` : change.file?.contentType}
                </Text>
              </div>
            </div>
          )
        })}
      </div>
    </div>
  )
}

/** A page's markdown in one of the two revisions; `null` while it loads. */
function usePageText(spaceId: string, revisionId: string | undefined, pageId: string | undefined, enabled: boolean) {
  const query = useQuery({ ...revisionPageQuery(spaceId, revisionId ?? '', pageId ?? ''), enabled: enabled && !!revisionId && !!pageId })
  return { text: query.data ? (query.data.markdown ?? '') : null, error: query.error }
}

/** The selected change: a side-by-side diff for an edited text, the whole text of a created or deleted page, from → to for a move. */
function ChangeView({ spaceId, base, target, change }: { spaceId: string; base?: string; target: string; change: SemanticChange }) {
  const kind = KINDS[compareGroupOf(change)]
  const pageId = change.page?.id
  const needsBase = change.type === 'page_deleted' || textChanged(change)
  const needsTarget = change.type === 'page_created' || textChanged(change)
  const before = usePageText(spaceId, base, pageId, needsBase)
  const after = usePageText(spaceId, target, pageId, needsTarget)
  const attributes = attributeRows(change.attributes)
  const error = (needsBase && before.error) || (needsTarget && after.error)
  const loading = (needsBase && before.text === null) || (needsTarget && after.text === null)

  return (
    <Stack gap="sm" data-testid="compare-view" data-type={change.type}>
      <Stack gap={2}>
        <Group gap={8} wrap="nowrap">
          <kind.icon size={18} color={kind.color} style={{ flex: 'none' }} />
          <Title order={4} style={{ overflowWrap: 'anywhere' }} data-testid="compare-view-title">
            {change.page ? change.page.title || 'Untitled page' : change.file?.name}
          </Title>
          <Badge size="sm" variant="light" color="gray" style={{ flex: 'none' }}>
            {change.type.replace('_', ' ').replace(/^./, (c) => c.toUpperCase())}
          </Badge>
        </Group>
        {change.page && (
          <Text size="xs" c="dimmed" ff="monospace">
            /{change.page.path}
          </Text>
        )}
      </Stack>

      <AttributeRows rows={attributes} testId="compare-attributes" labelWidth={90} />

      {change.type === 'page_moved' && change.path && (
        <div className={classes.moveBox} data-testid="compare-move">
          <span style={{ color: 'var(--mantine-color-dimmed)' }}>/{change.path.before}</span>
          <IconArrowRight size={16} style={{ flex: 'none' }} />
          <span>/{change.path.after}</span>
        </div>
      )}

      {error ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
          The page could not be read: {error.message}
        </Alert>
      ) : loading ? (
        <Skeleton height={180} />
      ) : change.type === 'page_created' ? (
        <>
          <Text size="xs" fw={600} c="dimmed">
            New in this revision
          </Text>
          <DocumentView text={after.text ?? ''} tone="added" testId="compare-created" />
        </>
      ) : change.type === 'page_deleted' ? (
        <>
          <Text size="xs" fw={600} c="dimmed">
            Not in this revision; its text at the base
          </Text>
          <DocumentView text={before.text ?? ''} tone="removed" testId="compare-deleted" />
        </>
      ) : textChanged(change) ? (
        <>
          <SideLabels left="Before · the base" right="After · this revision" />
          <DiffView before={before.text ?? ''} after={after.text ?? ''} />
        </>
      ) : change.type === 'page_edited' ? (
        <Text size="sm" c="dimmed">
          The text is unchanged.
        </Text>
      ) : null}
    </Stack>
  )
}
