import { useEffect, useMemo, useState, type KeyboardEvent, type MouseEvent } from 'react'
import { Alert, Button, Checkbox, EmptyState, Group, SegmentedControl, Skeleton, Stack, Text, Title } from '@mantine/core'
import { IconAlertTriangle, IconArrowsDiff, IconFileText, IconFolder, IconLink, IconRestore } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { useVirtualizer } from '@tanstack/react-virtual'
import type { ContentFile, ContentPage, Revision } from '../../api/types.ts'
import { useReportAppState } from '../../app/appState.ts'
import { DocumentView } from '../changeRequests/DiffView.tsx'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { renderMarkdown, type PreviewFile, type PreviewIncludes } from '../pages/markdownPreview.ts'
import { pageLinkContext, resolvePageLink } from '../pages/pageLinks.ts'
import { includeSources } from '../pages/reusableContents.ts'
import { pageRows, pickPage, toggled } from './history.ts'
import { revisionPageQuery, revisionQuery } from './queries.ts'
import {
  CURRENT_REVISION_HINT,
  HistoryBackLink,
  RevisionHeader,
  RouterButton,
  useCanRestore,
  useIsCurrentRevision,
  useRestoreConfirm
} from './RevisionHeader.tsx'
import classes from './History.module.css'
import preview from '../pages/PageEditor.module.css'
import { emojiText } from '../common/emoji.ts'
import { onPreviewClick } from '../pages/previewClicks.ts'

const ROW_HEIGHT = 34

export type RevisionView = 'preview' | 'source'

/**
 * One revision of the space, read-only: its page tree beside the selected page, rendered as the editor's preview
 * does or as its markdown source. Pages ticked in the tree are restored alone; with none ticked, the whole revision.
 */
export function RevisionScreen({
  spaceId,
  revisionId,
  pageId,
  view,
  onSelect
}: {
  spaceId: string
  revisionId: string
  pageId?: string
  view: RevisionView
  onSelect(next: { page?: string; view: RevisionView }): void
}) {
  const revision = useQuery(revisionQuery(spaceId, revisionId))
  const rows = useMemo(() => pageRows(revision.data?.pages ?? []), [revision.data])
  const selected = pickPage(rows, pageId)
  const canRestore = useCanRestore(spaceId)
  const isCurrent = useIsCurrentRevision(spaceId, revisionId)
  const restore = useRestoreConfirm(spaceId)
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set())
  useReportAppState(revision.data || revision.error ? 'ready' : 'loading')

  const tickedPages = rows.filter((r) => ticked.has(r.page.id)).map((r) => ({ id: r.page.id, title: r.page.title }))
  const toggle = (id: string) => setTicked((prev) => toggled(prev, id))

  return (
    <Stack gap={0}>
      <HistoryBackLink spaceId={spaceId} />
      <RevisionHeader
        spaceId={spaceId}
        revisionId={revisionId}
        createdAt={revision.data?.createdAt}
        label="Revision"
        actions={
          <>
            {!!revision.data?.parents.length && (
              <RouterButton
                to="/spaces/$spaceId/history/$revisionId/compare"
                params={{ spaceId, revisionId }}
                variant="default"
                leftSection={<IconArrowsDiff size={16} />}
                data-testid="revision-compare"
              >
                Compare…
              </RouterButton>
            )}
            {canRestore && revision.data && (
              <Button
                leftSection={<IconRestore size={16} />}
                onClick={() => restore(revisionId, revision.data.createdAt, tickedPages.length ? tickedPages : undefined)}
                disabled={isCurrent}
                title={isCurrent ? CURRENT_REVISION_HINT : undefined}
                data-testid="revision-restore"
              >
                {tickedPages.length
                  ? `Restore ${tickedPages.length === 1 ? '1 page' : `${tickedPages.length} pages`}…`
                  : 'Restore this revision…'}
              </Button>
            )}
          </>
        }
      />
      {revision.error ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="revision-error">
          This revision could not be read: {revision.error.message}
        </Alert>
      ) : !revision.data ? (
        <RowsSkeleton rows={6} />
      ) : rows.length === 0 ? (
        <EmptyState
          variant="light"
          py={40}
          icon={<IconFileText size={28} stroke={1.6} />}
          title="No pages"
          description="The space had no pages at this revision."
        />
      ) : (
        <div className={classes.split}>
          <PageList
            rows={rows}
            selected={selected?.id}
            ticked={canRestore ? ticked : undefined}
            onToggle={toggle}
            onSelect={(id) => onSelect({ page: id, view })}
          />
          <div className={classes.viewer}>
            {selected && (
              <RevisionPage
                key={selected.id}
                spaceId={spaceId}
                revisionId={revisionId}
                page={selected}
                pages={revision.data.pages}
                files={revision.data.files}
                includes={revision.data.reusableContents}
                view={view}
                onView={(next) => onSelect({ page: selected.id, view: next })}
                onOpenPage={(id) => onSelect({ page: id, view })}
              />
            )}
          </div>
        </div>
      )}
    </Stack>
  )
}

/** The revision's pages as a virtualized tree; a checkbox (for those who may restore) ticks a page for a restore. */
function PageList({
  rows,
  selected,
  ticked,
  onToggle,
  onSelect
}: {
  rows: ReturnType<typeof pageRows>
  selected?: string
  ticked?: ReadonlySet<string>
  onToggle(id: string): void
  onSelect(id: string): void
}) {
  const [listEl, setListEl] = useState<HTMLDivElement | null>(null)
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => listEl,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (i) => rows[i]!.page.id,
    overscan: 12
  })
  const selectedIndex = rows.findIndex((r) => r.page.id === selected)
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' })
    // The virtualizer is one object for the component's life.
  }, [selectedIndex, virtualizer])
  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0
    const next = rows[selectedIndex + step]
    if (!step || !next) return
    e.preventDefault()
    onSelect(next.page.id)
  }
  return (
    <div
      ref={setListEl}
      className={classes.side}
      role="listbox"
      aria-label="Pages at this revision"
      aria-activedescendant={selected ? `revision-page-${selected}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid="revision-pages"
    >
      <div className={classes.rows} style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const { page, depth } = rows[item.index]!
          const Icon = page.type === 'group' ? IconFolder : page.type === 'link' ? IconLink : IconFileText
          return (
            <div
              key={item.key}
              id={`revision-page-${page.id}`}
              className={classes.row}
              style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT, paddingLeft: 12 + depth * 16 }}
              role="option"
              aria-selected={page.id === selected}
              onClick={() => onSelect(page.id)}
              data-testid="revision-page"
              data-page={page.id}
            >
              {ticked && (
                <Checkbox
                  size="xs"
                  checked={ticked.has(page.id)}
                  onChange={() => onToggle(page.id)}
                  onClick={(e) => e.stopPropagation()}
                  aria-label={`Restore ${page.title || 'Untitled page'}`}
                  data-testid="revision-page-tick"
                />
              )}
              <Icon size={15} stroke={1.6} style={{ flex: 'none', color: 'var(--mantine-color-dimmed)' }} />
              {page.emoji && <span style={{ flex: 'none' }}>{emojiText(page.emoji)}</span>}
              <Text size="sm" truncate className={classes.rowText} data-testid="revision-page-title">
                {page.title || 'Untitled page'}
              </Text>
            </div>
          )
        })}
      </div>
    </div>
  )
}

/** One page of the revision: rendered, or its markdown source. */
function RevisionPage({
  spaceId,
  revisionId,
  page,
  pages,
  files,
  includes,
  view,
  onView,
  onOpenPage
}: {
  spaceId: string
  revisionId: string
  page: ContentPage
  pages: ContentPage[]
  files: ContentFile[]
  includes: Revision['reusableContents']
  view: RevisionView
  onView(view: RevisionView): void
  onOpenPage(pageId: string): void
}) {
  const isDocument = page.type === 'document'
  const full = useQuery({ ...revisionPageQuery(spaceId, revisionId, page.id), enabled: isDocument })
  const markdown = full.data?.markdown ?? ''
  const fileMap = useMemo(() => new Map<string, PreviewFile>(files.map((f) => [f.id, f])), [files])
  const previewIncludes = useMemo<PreviewIncludes | undefined>(
    () => (markdown.includes('{% include') ? { contents: includeSources(includes), pagePath: page.git?.path } : undefined),
    [markdown, includes, page.git?.path]
  )
  const html = useMemo(
    () => (view === 'preview' && full.data ? renderMarkdown(markdown, fileMap, previewIncludes) : ''),
    [view, full.data, markdown, fileMap, previewIncludes]
  )

  // Links to pages of this revision show them here (a link the space resolves otherwise does nothing).
  const onClick = (e: MouseEvent<HTMLDivElement>) =>
    onPreviewClick(e, e.currentTarget, (href) => {
      const target = resolvePageLink(href, pageLinkContext(pages, page.id))
      if (target && 'pageId' in target) onOpenPage(target.pageId)
      return !!target
    })

  return (
    <Stack gap="sm" data-testid="revision-page-view" data-page={page.id}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Title order={3} style={{ overflowWrap: 'anywhere' }} data-testid="revision-page-heading">
            {page.emoji ? `${emojiText(page.emoji)} ` : ''}
            {page.title || 'Untitled page'}
          </Title>
          <Text size="xs" c="dimmed" ff="monospace">
            /{page.path}
          </Text>
        </Stack>
        {isDocument && (
          <SegmentedControl
            size="xs"
            style={{ flex: 'none' }}
            aria-label="Show the page"
            data={[
              { value: 'preview', label: 'Preview' },
              { value: 'source', label: 'Markdown' }
            ]}
            value={view}
            onChange={(v) => onView(v as RevisionView)}
            data-testid="revision-view-toggle"
          />
        )}
      </Group>
      {!isDocument ? (
        <Text size="sm" c="dimmed">
          {page.type === 'group'
            ? 'A group of pages: it has no text of its own.'
            : `A link${page.href ? ` to ${page.href}` : ''}: it has no text of its own.`}
        </Text>
      ) : full.error ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
          This page could not be read: {full.error.message}
        </Alert>
      ) : !full.data ? (
        <Stack gap={8}>
          <Skeleton height={16} width="60%" />
          <Skeleton height={180} />
        </Stack>
      ) : view === 'source' ? (
        <DocumentView text={markdown} testId="revision-source" />
      ) : markdown.trim() ? (
        <div className={preview.markdown} data-testid="revision-preview" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <Text size="sm" c="dimmed">
          The page was empty.
        </Text>
      )}
    </Stack>
  )
}
