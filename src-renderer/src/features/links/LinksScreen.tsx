import { useMemo } from 'react'
import { Badge, EmptyState, Group, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core'
import { IconCircleCheck, IconExternalLink, IconFile, IconFileText, IconLink, IconPhoto } from '@tabler/icons-react'
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import type { ContentLink } from '../../api/types.ts'
import { useReportAppState } from '../../app/appState.ts'
import { plural } from '../common/format.ts'
import { RouterAnchor } from '../common/links.tsx'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { NextPageStatus } from '../common/NextPageStatus.tsx'
import { useLoadMoreNearEnd, usePageVirtualizer } from '../common/usePageVirtualizer.ts'
import { filesQuery, usePageTitles } from '../pages/queries.ts'
import { describeTarget, LINK_FILTER_LABELS, LINK_FILTERS, type LinkFilter } from './links.ts'
import { linksQuery } from './queries.ts'
import table from '../common/DataTable.module.css'
import classes from './LinksScreen.module.css'

const ROW_HEIGHT = 56
const COLUMNS = '92px minmax(200px, 1.3fr) minmax(160px, 1fr)'

const STATUS_BADGE: Record<ContentLink['status'], { color: string; label: string }> = {
  ok: { color: 'green', label: 'OK' },
  broken: { color: 'red', label: 'Broken' },
  'in-app': { color: 'blue', label: 'In-app' }
}

const EMPTY: Record<LinkFilter, { title: string; description: string }> = {
  all: { title: 'No links yet', description: 'Links and images written in the pages are listed here, each checked against the space.' },
  broken: { title: 'No broken links', description: 'Every link to a page or file of this space leads somewhere.' },
  'in-app': {
    title: 'No in-app links',
    description: 'No page links to this app by its address; links between pages follow moves and renames.'
  },
  ok: { title: 'No working links', description: 'None of the links checks out yet.' }
}

/**
 * The links written in the space's pages (main content), checked against it: links to pages and files of the
 * space that lead nowhere are `broken`; a URL into this app is `in-app`. Totals over the whole space above a
 * virtualized list, one status at a time (in the address); each link names the page holding it, which opens.
 */
export function LinksScreen({
  spaceId,
  filter,
  onFilterChange
}: {
  spaceId: string
  filter: LinkFilter
  onFilterChange(filter: LinkFilter): void
}) {
  const query = useInfiniteQuery({ ...linksQuery(spaceId, filter === 'all' ? undefined : filter), placeholderData: keepPreviousData })
  const titles = usePageTitles(spaceId)
  const files = useQuery(filesQuery({ spaceId })).data
  const fileNames = useMemo(() => new Map((files ?? []).map((f) => [f.id, f.name])), [files])
  const rows = query.data?.pages.flatMap((p) => p.items) ?? []
  const stats = query.data?.pages[0]?.stats
  useReportAppState(query.data ? 'ready' : 'loading')

  const { listRef, virtualizer, scrollMargin } = usePageVirtualizer({ count: rows.length, rowHeight: ROW_HEIGHT })
  const items = virtualizer.getVirtualItems()
  useLoadMoreNearEnd(items[items.length - 1]?.index, rows.length, query)

  const empty = EMPTY[filter]
  return (
    <Stack gap="md">
      <Group gap="sm" wrap="nowrap">
        <SegmentedControl
          aria-label="Status"
          data={LINK_FILTERS.map((s) => ({ value: s, label: LINK_FILTER_LABELS[s] }))}
          value={filter}
          onChange={(v) => onFilterChange(v as LinkFilter)}
          data-testid="links-filter"
        />
        <span style={{ flex: 1 }} />
        {stats && (
          <Group gap={8} data-testid="links-stats">
            <Text size="sm" c="dimmed">
              {plural(stats.total, 'link')}
            </Text>
            {stats.broken.total > 0 ? (
              <Badge color="red" variant="light" data-testid="links-broken-count">
                {stats.broken.total} broken
              </Badge>
            ) : (
              stats.total > 0 && (
                <Badge color="green" variant="light" leftSection={<IconCircleCheck size={12} />} data-testid="links-broken-count">
                  None broken
                </Badge>
              )
            )}
          </Group>
        )}
      </Group>

      {!query.data ? (
        <RowsSkeleton rows={5} />
      ) : rows.length === 0 ? (
        <EmptyState
          mt={32}
          variant="light"
          icon={<IconLink size={28} stroke={1.6} />}
          title={empty.title}
          description={empty.description}
          data-testid="links-empty"
        />
      ) : (
        <div className={table.table} style={{ ['--columns' as string]: COLUMNS, opacity: query.isPlaceholderData ? 0.6 : 1 }}>
          <div className={table.head}>
            <span>Status</span>
            <span>Link</span>
            <span>In page</span>
          </div>
          <div ref={listRef} className={table.body} style={{ height: virtualizer.getTotalSize() }} data-testid="links-list">
            {items.map((item) => (
              <LinkRow
                key={item.key}
                spaceId={spaceId}
                link={rows[item.index]!}
                top={item.start - scrollMargin}
                titles={titles}
                fileNames={fileNames}
              />
            ))}
          </div>
          <NextPageStatus
            className={table.footer}
            fetching={query.isFetchingNextPage}
            failed={query.isFetchNextPageError}
            error={query.error}
            what="More links"
            retry={() => void query.fetchNextPage()}
          />
        </div>
      )}
    </Stack>
  )
}

function LinkRow({
  spaceId,
  link,
  top,
  titles,
  fileNames
}: {
  spaceId: string
  link: ContentLink
  top: number
  titles: ReadonlyMap<string, string>
  fileNames: ReadonlyMap<string, string>
}) {
  const target = describeTarget(link, titles, fileNames)
  const badge = STATUS_BADGE[link.status]
  const holder = link.locationReferences[0]?.page
  const TargetIcon =
    link.relation === 'image'
      ? IconPhoto
      : link.targetReference.kind === 'file'
        ? IconFile
        : link.targetReference.kind === 'url'
          ? IconExternalLink
          : IconFileText
  return (
    <div
      className={table.row}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      data-testid="link-row"
      data-status={link.status}
    >
      <div className={table.cell}>
        <Badge color={badge.color} variant="light" size="sm">
          {badge.label}
        </Badge>
      </div>
      <div className={`${table.cell} ${classes.target}`}>
        <Group gap={6} wrap="nowrap">
          <TargetIcon size={14} className={classes.icon} aria-label={link.relation === 'image' ? 'Image' : 'Link'} />
          {target.pageId && link.status === 'ok' ? (
            <RouterAnchor
              to="/spaces/$spaceId/pages/$pageId"
              params={{ spaceId, pageId: target.pageId }}
              size="sm"
              truncate
              data-testid="link-target"
            >
              {target.label}
            </RouterAnchor>
          ) : (
            <Text size="sm" truncate data-testid="link-target">
              {target.label}
            </Text>
          )}
        </Group>
        {/* Why it is broken (the link as written on hover), else the link as written when it differs from its target. */}
        {(target.note || link.href !== target.label) && (
          <Tooltip label={link.href} openDelay={400} disabled={!target.note}>
            <Text size="xs" c={link.status === 'broken' ? 'red' : 'dimmed'} truncate data-testid="link-note">
              {target.note ?? link.href}
            </Text>
          </Tooltip>
        )}
      </div>
      <div className={table.cell}>
        {holder ? (
          <RouterAnchor
            to="/spaces/$spaceId/pages/$pageId"
            params={{ spaceId, pageId: holder }}
            size="sm"
            c="var(--mantine-color-text)"
            truncate
            data-testid="link-page"
          >
            {titles.get(holder) || 'Untitled page'}
          </RouterAnchor>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
      </div>
    </div>
  )
}
