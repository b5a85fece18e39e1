import { useEffect, useEffectEvent, useMemo, useState } from 'react'
import { Badge, Button, Code, Drawer, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { IconChevronRight, IconDownload, IconHistory } from '@tabler/icons-react'
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import type { AuditEvent } from '../../api/types.ts'
import { useReportAppState } from '../../app/appState.ts'
import { notifyError, notifySuccess } from '../../app/notify.ts'
import { DataTable, tableCell, wideCell, type DataTableColumn, type RowPlacement } from '../common/DataTable.tsx'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { formatDate, formatTime } from '../common/format.ts'
import { saveFile } from '../common/saveFile.ts'
import { memberSearchQuery } from '../members/queries.ts'
import { auditCsv, payloadChanges, type AuditFilters } from './auditLog.ts'
import { auditActionsQuery, auditEventQuery, auditEventsQuery, fetchAllAuditEvents } from './queries.ts'

const COLUMNS: DataTableColumn[] = [
  { header: 'When' },
  { header: 'Action' },
  { header: 'Actor', wide: true },
  { header: 'Target' },
  { header: '' }
]
const TEMPLATE = '170px minmax(180px, 1.2fr) minmax(140px, 1fr) minmax(160px, 1.2fr) 24px'
/** Without the actor: a table under 860 px wide. */
const NARROW_TEMPLATE = '150px minmax(160px, 1fr) minmax(140px, 1fr) 24px'

/** The organization's audit log: every recorded write, newest first, filtered, with each event's details. */
export function AuditLogScreen({
  orgId,
  filters,
  onFiltersChange
}: {
  orgId: string
  filters: AuditFilters
  onFiltersChange(filters: AuditFilters): void
}) {
  const [target, setTarget] = useState(filters.target ?? '')
  const [debouncedTarget] = useDebouncedValue(target.trim(), 300)
  // Only the typed text drives this (an effect event reads the other filters): other filter changes keep the box as it is.
  const applyTarget = useEffectEvent((typed: string) => {
    if ((filters.target ?? '') !== typed) onFiltersChange({ ...filters, target: typed || undefined })
  })
  useEffect(() => applyTarget(debouncedTarget), [debouncedTarget])

  const query = useInfiniteQuery({ ...auditEventsQuery(orgId, filters), placeholderData: keepPreviousData })
  const actionsData = useQuery(auditActionsQuery(orgId)).data
  const actions = useMemo(() => actionsData ?? [], [actionsData])
  const labels = useMemo(() => new Map(actions.map((a) => [a.id, a.label])), [actions])
  const events = query.data?.pages.flatMap((p) => p.items)
  const total = query.data?.pages[0]?.count ?? 0
  useReportAppState(query.data ? 'ready' : 'loading')
  const [openId, setOpenId] = useState<string | null>(null)

  const [exporting, setExporting] = useState(false)
  const exportCsv = async () => {
    setExporting(true)
    try {
      const all = await fetchAllAuditEvents(orgId, filters)
      saveFile(auditCsv(all), `audit-log-${new Date().toISOString().slice(0, 10)}.csv`, 'text/csv')
      notifySuccess(`Exported ${all.length} ${all.length === 1 ? 'event' : 'events'}`)
    } catch (error) {
      notifyError(error)
    } finally {
      setExporting(false)
    }
  }

  const filtered = Object.values(filters).some(Boolean)
  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end">
        <ActorSelect orgId={orgId} value={filters.actor} onChange={(actor) => onFiltersChange({ ...filters, actor })} />
        <Select
          label="Action"
          aria-label="Filter by action"
          placeholder="All actions"
          searchable
          clearable
          data={actions.map((a) => ({ value: a.id, label: a.label }))}
          value={filters.action ?? null}
          onChange={(v) => onFiltersChange({ ...filters, action: v ?? undefined })}
          w={240}
          data-testid="audit-action-filter"
        />
        <TextInput
          label="Target id"
          aria-label="Filter by target id"
          placeholder="Any target"
          value={target}
          onChange={(e) => setTarget(e.currentTarget.value)}
          w={190}
        />
        <TextInput
          type="date"
          label="From"
          aria-label="From day"
          value={filters.fromDay ?? ''}
          onChange={(e) => onFiltersChange({ ...filters, fromDay: e.currentTarget.value || undefined })}
          w={150}
        />
        <TextInput
          type="date"
          label="To"
          aria-label="To day"
          value={filters.toDay ?? ''}
          onChange={(e) => onFiltersChange({ ...filters, toDay: e.currentTarget.value || undefined })}
          w={150}
        />
      </Group>
      <DataTable
        items={events}
        itemKey={(event) => event.id}
        columns={COLUMNS}
        template={TEMPLATE}
        narrowTemplate={NARROW_TEMPLATE}
        loadingRows={6}
        testId="audit-list"
        more={{ query, what: 'More events' }}
        empty={{
          icon: <IconHistory size={28} stroke={1.6} />,
          title: filtered ? 'No events match' : 'Nothing recorded yet',
          description: filtered
            ? 'Try other filters or a wider date range.'
            : 'Changes to the organization, its spaces and sites appear here.'
        }}
        toolbar={{
          start: filtered && (
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() => {
                setTarget('')
                onFiltersChange({})
              }}
            >
              Clear filters
            </Button>
          ),
          end: (
            <>
              <Text size="sm" c="dimmed" data-testid="audit-count">
                {total} {total === 1 ? 'event' : 'events'}
              </Text>
              <Button
                variant="default"
                leftSection={<IconDownload size={16} />}
                loading={exporting}
                disabled={total === 0}
                onClick={() => void exportCsv()}
              >
                Export CSV
              </Button>
            </>
          )
        }}
        renderRow={(event, placement) => (
          <AuditRow event={event} label={labels.get(event.action)} placement={placement} onOpen={() => setOpenId(event.id)} />
        )}
      />
      <EventDrawer orgId={orgId} eventId={openId} labels={labels} onClose={() => setOpenId(null)} />
    </Stack>
  )
}

function AuditRow({
  event,
  label,
  placement,
  onOpen
}: {
  event: AuditEvent
  label: string | undefined
  placement: RowPlacement
  onOpen(): void
}) {
  return (
    <div
      className={placement.className}
      style={{ ...placement.style, cursor: 'pointer' }}
      role="button"
      tabIndex={0}
      aria-label={`${label ?? event.action}: ${event.target.label ?? event.target.id}`}
      onClick={onOpen}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault()
          onOpen()
        }
      }}
      data-testid="audit-row"
      data-action={event.action}
    >
      <Stack gap={0} className={tableCell}>
        <Text size="sm">{formatDate(event.occurredAt)}</Text>
        <Text size="xs" c="dimmed">
          {formatTime(event.occurredAt)}
        </Text>
      </Stack>
      <Stack gap={0} className={tableCell}>
        <Text size="sm" fw={500} truncate>
          {label ?? event.action}
        </Text>
        <Text size="xs" c="dimmed" truncate ff="monospace">
          {event.action}
        </Text>
      </Stack>
      <Text size="sm" truncate className={`${tableCell} ${wideCell}`}>
        {event.actor.label ?? event.actor.id}
      </Text>
      <Stack gap={0} className={tableCell}>
        <Text size="sm" truncate>
          {event.target.label ?? event.target.id}
        </Text>
        <Text size="xs" c="dimmed" truncate>
          {event.target.type.replaceAll('_', ' ')}
        </Text>
      </Stack>
      <IconChevronRight size={16} color="var(--mantine-color-dimmed)" />
    </div>
  )
}

/** A member to filter by, searched by name or e-mail as the user types. */
function ActorSelect({ orgId, value, onChange }: { orgId: string; value: string | undefined; onChange(actor: string | undefined): void }) {
  const [search, setSearch] = useState('')
  const [debounced] = useDebouncedValue(search, 200)
  const results = useQuery({ ...memberSearchQuery(orgId, debounced), placeholderData: keepPreviousData })
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null)
  const data = useMemo(() => {
    const options = (results.data ?? []).map((m) => ({ value: m.id, label: m.user.displayName || m.user.email || m.id }))
    if (value && !options.some((o) => o.value === value)) options.unshift(picked?.value === value ? picked : { value, label: value })
    return options
  }, [results.data, value, picked])
  return (
    <Select
      label="Actor"
      aria-label="Filter by actor"
      placeholder="Anyone"
      searchable
      clearable
      data={data}
      value={value ?? null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(v, option) => {
        setPicked(option ?? null)
        onChange(v ?? undefined)
      }}
      nothingFoundMessage={results.isFetching ? 'Searching…' : 'No members found'}
      w={210}
    />
  )
}

function EventDrawer({
  orgId,
  eventId,
  labels,
  onClose
}: {
  orgId: string
  eventId: string | null
  labels: Map<string, string>
  onClose(): void
}) {
  const detail = useQuery({ ...auditEventQuery(orgId, eventId ?? ''), enabled: !!eventId })
  const event = eventId ? detail.data : undefined
  const changes = event ? payloadChanges(event.payload) : []
  return (
    <Drawer
      opened={!!eventId}
      onClose={onClose}
      position="right"
      size={480}
      title={event ? (labels.get(event.action) ?? event.action) : 'Audit event'}
    >
      {!event ? (
        detail.isError ? (
          <Text size="sm" c="red">
            {detail.error.message}
          </Text>
        ) : (
          <RowsSkeleton rows={4} />
        )
      ) : (
        <Stack gap="md" data-testid="audit-detail">
          <Table withRowBorders={false} verticalSpacing={4} layout="fixed">
            <Table.Tbody>
              <DetailRow name="When" value={`${formatDate(event.occurredAt)} ${formatTime(event.occurredAt)}`} />
              <DetailRow name="Action" value={<Code>{event.action}</Code>} />
              <DetailRow name="Actor" value={`${event.actor.label ?? event.actor.id} (${event.actor.type})`} />
              <DetailRow name="Source" value={event.source.toUpperCase()} />
              <DetailRow name="Target" value={`${event.target.label ?? event.target.id} (${event.target.type.replaceAll('_', ' ')})`} />
              <DetailRow name="Target id" value={<Code>{event.target.id}</Code>} />
              <DetailRow name="Event id" value={<Code>{event.id}</Code>} />
            </Table.Tbody>
          </Table>
          <Stack gap={6}>
            <Text fw={600} size="sm">
              Changes
            </Text>
            {changes.length === 0 ? (
              <Text size="sm" c="dimmed">
                No field values recorded for this action.
              </Text>
            ) : (
              <Table withTableBorder layout="fixed" data-testid="audit-changes">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Field</Table.Th>
                    <Table.Th>Before</Table.Th>
                    <Table.Th>After</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {changes.map((c) => (
                    <Table.Tr key={c.field}>
                      <Table.Td>{c.field}</Table.Td>
                      <Table.Td>
                        <Value value={c.before} />
                      </Table.Td>
                      <Table.Td>
                        <Value value={c.after} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Stack>
        </Stack>
      )}
    </Drawer>
  )
}

function DetailRow({ name, value }: { name: string; value: React.ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td w={100}>
        <Text size="sm" c="dimmed">
          {name}
        </Text>
      </Table.Td>
      <Table.Td style={{ wordBreak: 'break-word' }}>
        <Text size="sm" component="div">
          {value}
        </Text>
      </Table.Td>
    </Table.Tr>
  )
}

function Value({ value }: { value: unknown }) {
  if (value === undefined || value === null || value === '')
    return (
      <Badge size="xs" color="gray" variant="light">
        {value === '' ? 'empty' : 'none'}
      </Badge>
    )
  return (
    <Text size="sm" style={{ wordBreak: 'break-word' }}>
      {typeof value === 'string' ? value : JSON.stringify(value)}
    </Text>
  )
}
