import { useEffect, useMemo, useRef, useState } from 'react'
import { ActionIcon, Button, Paper, SegmentedControl, Select, Text, Tooltip, type ComboboxItem, type SelectProps } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { IconSortAscending, IconSortDescending } from '@tabler/icons-react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { User } from '../../api/types.ts'
import { useReportAppState } from '../../app/appState.ts'
import { notifySuccess } from '../../app/notify.ts'
import { usePageVirtualizer } from '../common/usePageVirtualizer.ts'
import { spaceQuery } from '../content/queries.ts'
import { memberSearchQuery } from '../members/queries.ts'
import { userQuery } from '../orgs/queries.ts'
import { pagesQuery } from '../pages/queries.ts'
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
import { flattenPageTree, listFilters, ME, STATUS_OPTIONS, type CommentSearch, type PageOption } from './filters.ts'
import { emptyMessage, plural } from './messages.ts'
import { useCreateComment } from './queries.ts'
import classes from './Comments.module.css'
import { withEmoji } from '../common/emoji.ts'

/**
 * The space's Comments tab: every discussion of the space's primary content, filtered by status, page and
 * author (kept in the address when the route passes `search`), with a composer that can aim at a page.
 */
export function SpaceCommentsScreen({
  spaceId,
  search: controlled,
  onSearchChange
}: {
  spaceId: string
  search?: CommentSearch
  onSearchChange?(search: CommentSearch): void
}) {
  const [local, setLocal] = useState<CommentSearch>({})
  const search = controlled ?? local
  const setSearch = onSearchChange ?? setLocal
  const me = useQuery(userQuery()).data
  const space = useQuery(spaceQuery(spaceId)).data
  const orgId = space?.organization
  // Readers see the space's counters but not its discussions (the `comment` role reads and writes them).
  const canComment = space?.permissions.comment !== false
  // The pages screen's own query (same cache entry), flattened for the pickers.
  const pages = useQuery({ ...pagesQuery({ spaceId }), select: flattenPageTree }).data

  const status = search.status ?? 'open'
  const filters = listFilters({ status, order: search.order, page: search.page, author: search.author, meId: me?.id })
  // "Mine" needs to know who I am before it can ask; asking without would briefly list everyone's.
  const { query, comments, total } = useCommentThreads(spaceId, filters, search.author !== ME || !!me)
  useReportAppState(query.data ? 'ready' : query.isError ? 'error' : 'loading')
  const ui = useThreadUi()
  const { listRef, virtualizer, scrollMargin } = usePageVirtualizer({
    count: comments.length,
    rowHeight: THREAD_ESTIMATE,
    getItemKey: (i) => comments[i]!.id,
    overscan: 4
  })

  const create = useCreateComment(spaceId)
  // A new comment is on the page being looked at (the page filter), unless the user picks another or none.
  const [targetPage, setTargetPage] = useState<string | null>(search.page ?? null)
  useEffect(() => setTargetPage(search.page ?? null), [search.page])

  const narrowed = !!(search.page || search.author)
  const empty = emptyMessage({ status, narrowed, on: 'space', composer: canComment ? 'above' : 'none' })
  const order = search.order ?? 'desc'
  const noun = status === 'all' ? 'comment' : `${status} comment`
  return (
    <div>
      <div className={classes.toolbar}>
        <SegmentedControl
          size="xs"
          data={STATUS_OPTIONS}
          value={status}
          onChange={(v) => setSearch({ ...search, status: v === 'open' ? undefined : (v as CommentSearch['status']) })}
          data-testid="comments-status"
          aria-label="Status"
        />
        <PageSelect
          pages={pages}
          value={search.page ?? null}
          onChange={(page) => setSearch({ ...search, page: page ?? undefined })}
          placeholder="All pages"
          aria-label="Filter by page"
          data-testid="comments-page-filter"
          w={220}
        />
        <AuthorFilter orgId={orgId} me={me} value={search.author} onChange={(author) => setSearch({ ...search, author })} />
        <Tooltip label={order === 'desc' ? 'Newest first' : 'Oldest first'}>
          <ActionIcon
            variant="default"
            size={30}
            aria-label="Toggle sort order"
            onClick={() => setSearch({ ...search, order: order === 'desc' ? 'asc' : undefined })}
            data-testid="comments-order"
          >
            {order === 'desc' ? <IconSortDescending size={16} /> : <IconSortAscending size={16} />}
          </ActionIcon>
        </Tooltip>
        <span className={classes.spacer} />
        {query.data && (
          <Text size="sm" c="dimmed" data-testid="comments-count">
            {plural(total, noun)}
          </Text>
        )}
      </div>

      {canComment && (
        <Paper p="sm" className={classes.composerCard}>
          <CommentComposer
            spaceId={spaceId}
            noun="Comment"
            placeholder="Write a comment…"
            submitLabel="Comment"
            testId="comment-composer"
            footer={
              <PageSelect
                pages={pages}
                value={targetPage}
                onChange={setTargetPage}
                placeholder="On the whole space"
                aria-label="Page the comment is on"
                data-testid="composer-page"
                w={240}
              />
            }
            onSubmit={async (markdown) => {
              await create.mutateAsync({ markdown, page: targetPage ?? undefined })
              notifySuccess('Comment posted')
              // The next comment starts from the page being looked at again, not silently from this one's.
              setTargetPage(search.page ?? null)
            }}
          />
        </Paper>
      )}

      {!query.data && query.isError ? (
        <ThreadsError error={query.error} onRetry={() => void query.refetch()} />
      ) : !query.data ? (
        <ThreadsSkeleton />
      ) : comments.length === 0 ? (
        <ThreadsEmpty
          title={empty.title}
          hint={empty.hint}
          action={
            narrowed && (
              <Button variant="default" size="xs" mt="xs" onClick={() => setSearch({ ...search, page: undefined, author: undefined })}>
                Clear filters
              </Button>
            )
          }
        />
      ) : (
        <ThreadRows
          spaceId={spaceId}
          comments={comments}
          virtualizer={virtualizer}
          scrollMargin={scrollMargin}
          listRef={listRef}
          me={me}
          ui={ui}
          target="link"
          stale={query.isPlaceholderData}
          hasNextPage={query.hasNextPage}
          isFetchingNextPage={query.isFetchingNextPage}
          nextPageError={query.isFetchNextPageError ? query.error : undefined}
          fetchNextPage={() => void query.fetchNextPage()}
        />
      )}
    </div>
  )
}

/** The space's pages as a searchable, indented select. */
function PageSelect({
  pages,
  value,
  onChange,
  ...props
}: { pages?: PageOption[]; value: string | null; onChange(id: string | null): void } & Omit<SelectProps, 'data' | 'value' | 'onChange'>) {
  const depth = useMemo(() => new Map(pages?.map((p) => [p.id, p.depth])), [pages])
  const data = useMemo(() => pages?.map((p) => ({ value: p.id, label: withEmoji(p.emoji, p.title) })) ?? [], [pages])
  return (
    <Select
      size="xs"
      searchable
      clearable
      data={data}
      value={value}
      onChange={onChange}
      nothingFoundMessage={pages ? 'No pages match' : 'Loading pages…'}
      renderOption={({ option }) => <span style={{ paddingLeft: (depth.get(option.value) ?? 0) * 14 }}>{option.label}</span>}
      comboboxProps={{ withinPortal: true }}
      {...props}
    />
  )
}

const ANYONE = 'anyone'

/** Anyone, me, or one member (searched in the organization as the user types). */
function AuthorFilter({
  orgId,
  me,
  value,
  onChange
}: {
  orgId?: string
  me?: User
  value?: string
  onChange(author: string | undefined): void
}) {
  const labels = useRef(new Map<string, string>())
  const selected = value ?? ANYONE
  const selectedLabel = selected === ANYONE ? 'Anyone' : selected === ME ? 'Me' : (labels.current.get(selected) ?? 'Selected author')
  const [search, setSearch] = useState(selectedLabel)
  useEffect(() => setSearch(selectedLabel), [selectedLabel])
  // Opening the select shows the chosen label as its search text: that is not a search for members.
  const [debounced] = useDebouncedValue(search === selectedLabel ? '' : search, 200)
  const results = useQuery({ ...memberSearchQuery(orgId ?? '', debounced), enabled: !!orgId, placeholderData: keepPreviousData })
  for (const m of results.data ?? []) labels.current.set(m.id, m.user.displayName || m.user.email || m.id)

  const data = useMemo(() => {
    const items: ComboboxItem[] = [
      { value: ANYONE, label: 'Anyone' },
      { value: ME, label: 'Me' }
    ]
    const seen = new Set<string>()
    for (const m of results.data ?? []) {
      if (m.id === me?.id) continue
      seen.add(m.id)
      items.push({ value: m.id, label: labels.current.get(m.id)! })
    }
    if (selected !== ANYONE && selected !== ME && !seen.has(selected)) items.push({ value: selected, label: selectedLabel })
    return items
  }, [results.data, me?.id, selected, selectedLabel])

  return (
    <Select
      size="xs"
      w={180}
      searchable
      data={data}
      value={selected}
      onChange={(v) => onChange(!v || v === ANYONE ? undefined : v)}
      searchValue={search}
      onSearchChange={setSearch}
      // The API already matched members by name or e-mail; "Anyone" and "Me" are matched here.
      filter={({ options, search: text }) =>
        options.filter(
          (o) => !('value' in o) || (o.value !== ANYONE && o.value !== ME) || o.label.toLowerCase().includes(text.toLowerCase().trim())
        )
      }
      nothingFoundMessage={results.isFetching ? 'Searching…' : 'No members found'}
      aria-label="Filter by author"
      data-testid="comments-author-filter"
      comboboxProps={{ withinPortal: true }}
    />
  )
}
