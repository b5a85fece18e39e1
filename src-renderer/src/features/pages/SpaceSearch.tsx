import { useMemo, useRef, type KeyboardEvent, type ReactNode } from 'react'
import { Button, CloseButton, Loader, Text, TextInput } from '@mantine/core'
import { useDebouncedValue, useHotkeys } from '@mantine/hooks'
import { IconFileText, IconHash, IconSearch } from '@tabler/icons-react'
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query'
import type { SearchPage } from '../../api/types.ts'
import { usePagesUi } from './pagesUiStore.ts'
import { spaceSearchQuery } from './queries.ts'
import { highlight, searchPattern } from './searchHighlight.ts'
import classes from './SpaceSearch.module.css'

/** Searching starts from this many characters (one letter matches too much to be worth a request). */
const MIN_QUERY = 2

/**
 * The space's full-text search above its page tree: typing (from 2 characters) swaps the tree for the pages
 * whose text matches, best first, each with its best sections and the typed words marked; choosing a section
 * opens the page at that heading. Ctrl/Cmd+Shift+F focuses the box; ↓ moves into the results, Esc comes back
 * and then clears. Search covers the space's main content (a change request's edits are found once merged).
 */
export function SpaceSearch({
  spaceId,
  openPageId,
  inChangeRequest,
  onOpen,
  children
}: {
  spaceId: string
  /** The page the editor shows: its result is marked as open. */
  openPageId: string | undefined
  inChangeRequest: boolean
  onOpen(pageId: string, sectionId?: string): void
  children: ReactNode
}) {
  const text = usePagesUi((s) => s.searchText[spaceId] ?? '')
  const setText = usePagesUi((s) => s.setSearchText)
  const input = useRef<HTMLInputElement>(null)
  const list = useRef<HTMLDivElement>(null)
  useHotkeys(
    [
      [
        'mod+shift+F',
        () => {
          input.current?.focus()
          input.current?.select()
        }
      ]
    ],
    [],
    true
  )
  const active = text.trim().length >= MIN_QUERY
  const [query] = useDebouncedValue(text, 200)
  const searching = query.trim().length >= MIN_QUERY && active

  const results = () => list.current?.querySelectorAll<HTMLElement>('[data-result]') ?? []
  const onInputKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape' && text) {
      e.preventDefault()
      setText(spaceId, '')
    } else if (e.key === 'ArrowDown' && active) {
      e.preventDefault()
      results()[0]?.focus()
    } else if (e.key === 'Enter' && active) {
      e.preventDefault()
      results()[0]?.click()
    }
  }
  // ↑/↓ move between results (the first ↑ goes back to the box), Home/End to the ends, Esc back to the box.
  const onListKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...results()]
    const at = items.indexOf(document.activeElement as HTMLElement)
    if (at < 0) return
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[e.key]
    if (to !== undefined) {
      e.preventDefault()
      if (to < 0) input.current?.focus()
      else items[Math.min(to, items.length - 1)]?.focus()
    } else if (e.key === 'Escape') {
      e.preventDefault()
      input.current?.focus()
    }
  }

  return (
    <div className={classes.pane}>
      <div className={classes.box}>
        <TextInput
          ref={input}
          size="xs"
          value={text}
          onChange={(e) => setText(spaceId, e.currentTarget.value)}
          onKeyDown={onInputKey}
          placeholder="Search this space"
          aria-label="Search this space"
          maxLength={512}
          leftSection={<IconSearch size={14} />}
          rightSection={text ? <CloseButton size="sm" aria-label="Clear search" onClick={() => setText(spaceId, '')} /> : null}
          data-testid="space-search-input"
        />
      </div>
      {active ? (
        <div ref={list} className={classes.results} onKeyDown={onListKey} data-testid="space-search-results">
          {inChangeRequest && (
            <Text size="xs" c="dimmed" className={classes.note}>
              Searching the space's main content; this change request's edits are found once merged.
            </Text>
          )}
          {searching ? <Results spaceId={spaceId} query={query.trim()} openPageId={openPageId} onOpen={onOpen} /> : <Searching />}
        </div>
      ) : (
        <div className={classes.rest}>{children}</div>
      )}
    </div>
  )
}

function Searching() {
  return (
    <div className={classes.status} aria-live="polite">
      <Loader size={14} />
      <Text size="sm" c="dimmed">
        Searching…
      </Text>
    </div>
  )
}

function Results({
  spaceId,
  query,
  openPageId,
  onOpen
}: {
  spaceId: string
  query: string
  openPageId: string | undefined
  onOpen(pageId: string, sectionId?: string): void
}) {
  const search = useInfiniteQuery({ ...spaceSearchQuery(spaceId, query), placeholderData: keepPreviousData, retry: false })
  const pattern = useMemo(() => searchPattern(query), [query])
  if (search.isPending) return <Searching />
  if (search.isError) {
    return (
      <Text size="sm" c="red" className={classes.status} role="alert">
        Search failed: {search.error.message}
      </Text>
    )
  }
  const pages = search.data.pages.flatMap((p) => p.items)
  const count = search.data.pages[0]?.count ?? 0
  return (
    <>
      <Text size="xs" c="dimmed" className={classes.count} aria-live="polite" data-testid="space-search-count">
        {count === 0 ? `No page matches “${query}”` : `${count} ${count === 1 ? 'page' : 'pages'}`}
        {search.isFetching && !search.isFetchingNextPage && <Loader size={10} ml={6} />}
      </Text>
      {pages.map((page) => (
        <Result key={page.id} page={page} open={page.id === openPageId} pattern={pattern} onOpen={onOpen} />
      ))}
      {search.hasNextPage && (
        <Button
          variant="subtle"
          size="compact-xs"
          className={classes.more}
          loading={search.isFetchingNextPage}
          onClick={() => void search.fetchNextPage()}
          data-testid="space-search-more"
        >
          Show more results
        </Button>
      )}
    </>
  )
}

function Marked({ text, pattern }: { text: string; pattern: RegExp | null }) {
  return <>{highlight(text, pattern).map((part, i) => (part.hit ? <mark key={i}>{part.text}</mark> : part.text))}</>
}

function Result({
  page,
  open,
  pattern,
  onOpen
}: {
  page: SearchPage
  open: boolean
  pattern: RegExp | null
  onOpen(pageId: string, sectionId?: string): void
}) {
  const title = page.title || 'Untitled page'
  // The text before a page's first heading has no id: it opens the page at its top.
  const sections = page.sections.filter((s) => s.id || s.body)
  return (
    <div className={classes.result} data-testid="space-search-result" data-page-id={page.id}>
      <button
        type="button"
        className={classes.page}
        data-result
        data-open={open || undefined}
        aria-current={open ? 'page' : undefined}
        onClick={() => onOpen(page.id)}
        title={page.path}
      >
        <IconFileText size={14} className={classes.icon} aria-hidden />
        <span className={classes.pageTitle}>
          <Marked text={title} pattern={pattern} />
        </span>
      </button>
      {sections.map((section) => (
        <button
          key={section.id || '(top)'}
          type="button"
          className={classes.section}
          data-result
          data-section-id={section.id}
          onClick={() => onOpen(page.id, section.id || undefined)}
          data-testid="space-search-section"
        >
          {section.id && section.title !== page.title && (
            <span className={classes.sectionTitle}>
              <IconHash size={12} className={classes.icon} aria-hidden />
              <span>
                <Marked text={section.title} pattern={pattern} />
              </span>
            </span>
          )}
          {section.body && (
            <span className={classes.excerpt}>
              <Marked text={section.body} pattern={pattern} />
            </span>
          )}
        </button>
      ))}
    </div>
  )
}
