import { Fragment, type CSSProperties, type ReactNode } from 'react'
import { EmptyState, Group, Stack } from '@mantine/core'
import { NextPageStatus } from './NextPageStatus.tsx'
import { RowsSkeleton } from './Skeletons.tsx'
import { useLoadMoreNearEnd, usePageVirtualizer } from './usePageVirtualizer.ts'
import classes from './DataTable.module.css'

/** A cell's class, and the class of a cell (or heading) dropped when the table is narrow (under 860 px). */
export const tableCell = classes.cell
export const wideCell = classes.wide

export interface DataTableColumn {
  header: ReactNode
  /** Dropped, with its cells (`wideCell`), when the table is narrower than 860 px: give `narrowColumns` then. */
  wide?: boolean
}

/** Where a row goes: spread on the row's root element (which may add to `style`). */
export interface RowPlacement {
  className: string
  style: CSSProperties
}

/** An infinite list query (TanStack Query's `useInfiniteQuery` result): read on as the end comes into view. */
interface MorePages {
  hasNextPage: boolean
  isFetchingNextPage: boolean
  isFetchNextPageError: boolean
  error: Error | null
  fetchNextPage(): unknown
}

/**
 * A list screen's table: an optional toolbar (what the list is or its filters' state at the start, actions at the
 * end) and notices above it, then the table with its column headings and, in place of its rows, a skeleton while
 * `items` is undefined or an empty state when there are none. Rows are virtualized and scroll with the page
 * (`usePageVirtualizer`); with `more`, the next page is read as the end comes into view and its status (loading,
 * or why it failed with "Try again") shows below the rows. A div grid, not a <table>: a virtualizer cannot place
 * table rows.
 */
export function DataTable<T>({
  items,
  itemKey,
  renderRow,
  columns,
  template,
  narrowTemplate,
  rowHeight = 56,
  empty,
  loadingRows = 3,
  more,
  toolbar,
  notices,
  testId
}: {
  /** undefined while the first page loads. */
  items: T[] | undefined
  itemKey(item: T): string
  /** The row, with `placement` spread on its root element. */
  renderRow(item: T, placement: RowPlacement): ReactNode
  columns: DataTableColumn[]
  /** The columns' `grid-template-columns`, and the one used under 860 px (without the `wide` columns). */
  template: string
  narrowTemplate?: string
  rowHeight?: number
  empty: { icon: ReactNode; title: ReactNode; description: ReactNode; testId?: string }
  loadingRows?: number
  /** An infinite list: its query, and what its next page holds as an error says it ("More events"). */
  more?: { query: MorePages; what: string }
  toolbar?: { start?: ReactNode; end?: ReactNode }
  notices?: ReactNode
  /** The rows' container (the virtualized body). */
  testId?: string
}) {
  const rows = items ?? []
  const { listRef, virtualizer, scrollMargin } = usePageVirtualizer({
    count: rows.length,
    rowHeight,
    getItemKey: (i) => itemKey(rows[i]!)
  })
  const visible = virtualizer.getVirtualItems()
  useLoadMoreNearEnd(visible[visible.length - 1]?.index, rows.length, more?.query ?? NO_MORE)

  const style = { ['--columns' as string]: template, ...(narrowTemplate ? { ['--columns-narrow' as string]: narrowTemplate } : {}) }
  return (
    <Stack gap="md">
      {toolbar && (
        <Group justify="space-between" gap="sm" data-testid="table-toolbar">
          {toolbar.start || <span />}
          {toolbar.end && <Group gap="sm">{toolbar.end}</Group>}
        </Group>
      )}
      {notices}
      <div className={classes.table} style={style}>
        <div className={classes.head}>
          {columns.map((column, i) => (
            <span key={i} className={column.wide ? classes.wide : undefined}>
              {column.header}
            </span>
          ))}
        </div>
        {!items ? (
          <div className={classes.loading}>
            <RowsSkeleton rows={loadingRows} />
          </div>
        ) : rows.length === 0 ? (
          <EmptyState
            className={classes.empty}
            variant="light"
            icon={empty.icon}
            title={empty.title}
            description={empty.description}
            data-testid={empty.testId}
          />
        ) : (
          <div ref={listRef} className={classes.body} style={{ height: virtualizer.getTotalSize() }} data-testid={testId}>
            {visible.map((item) => (
              <Fragment key={item.key}>
                {renderRow(rows[item.index]!, {
                  className: classes.row,
                  style: { transform: `translateY(${item.start - scrollMargin}px)` }
                })}
              </Fragment>
            ))}
          </div>
        )}
        {more && (
          <NextPageStatus
            className={classes.footer}
            fetching={more.query.isFetchingNextPage}
            failed={more.query.isFetchNextPageError}
            error={more.query.error}
            what={more.what}
            retry={() => void more.query.fetchNextPage()}
          />
        )}
      </div>
    </Stack>
  )
}

const NO_MORE = { hasNextPage: false, isFetchingNextPage: false, isFetchNextPageError: false, fetchNextPage: () => undefined }
