import { Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { Button, EmptyState, Group, Modal, Skeleton, Stack, TextInput } from '@mantine/core'
import { IconFileText, IconPlus } from '@tabler/icons-react'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { ContentPage, Space } from '../../api/types.ts'
import { CommentsPanel } from '../comments/CommentsPanel.tsx'
import { usePassageFeed } from '../comments/usePassageFeed.ts'
import { spaceQuery } from '../content/queries.ts'
import { useScreenReady } from '../common/screen.ts'
import { usePageActions } from './pageActions.tsx'
import { PageEditor } from './PageEditor.tsx'
import { PageTree } from './PageTree.tsx'
import { indexPages } from './pageTreeModel.ts'
import { usePagesUi } from './pagesUiStore.ts'
import { changeRequestQuery, pagesQuery, type ContentScope } from './queries.ts'
import { TITLE_MAX, validTitle } from './saveQueue.ts'
import { SpaceSearch } from './SpaceSearch.tsx'
import classes from './PagesScreen.module.css'

/**
 * The space's Pages tab: the space search and page tree on the left, the open page's editor on the right (and its
 * comments when asked). On main (`/spaces/$spaceId/pages/$pageId`) edits go to a draft change request found or
 * opened on the first write; inside a change request (`…/change-requests/$number/pages/$pageId`) they go to that
 * one.
 */
export function PagesScreen({ spaceId, pageId, changeRequest }: { spaceId: string; pageId?: string; changeRequest?: number }) {
  const scope = useMemo<ContentScope>(() => ({ spaceId, changeRequest }), [spaceId, changeRequest])
  const { data: space } = useSuspenseQuery(spaceQuery(spaceId))
  const { data: pages } = useSuspenseQuery(pagesQuery(scope))
  const cr = useQuery({ ...changeRequestQuery(spaceId, changeRequest ?? 0), enabled: changeRequest !== undefined }).data
  const commentsOpen = usePagesUi((s) => s.commentsOpen)
  const navigate = useNavigate()
  const actions = usePageActions(scope, pageId)
  const [renaming, setRenaming] = useState<ContentPage | null>(null)
  useScreenReady()
  // The open page's passage comments, highlighted in its editor.
  usePassageFeed(spaceId, pageId, changeRequest)

  const readOnly = readOnlyReason(space, cr?.status)
  const canEdit = readOnly === null

  // `section`: a heading's anchor id (a search result's section), which the editor scrolls to.
  const open = (id: string, section?: string) => {
    if (id === pageId && !section) return
    const hash = section || undefined
    if (changeRequest === undefined) void navigate({ to: '/spaces/$spaceId/pages/$pageId', params: { spaceId, pageId: id }, hash })
    else void navigate({ to: '/spaces/$spaceId/change-requests/$number/pages/$pageId', params: { spaceId, number: String(changeRequest), pageId: id }, hash })
  }
  // Search finds main content: a page this change request has deleted opens on main.
  const pageIndex = useMemo(() => indexPages(pages), [pages])
  const openFound = (id: string, section?: string) => {
    if (changeRequest === undefined || pageIndex.has(id)) open(id, section)
    else void navigate({ to: '/spaces/$spaceId/pages/$pageId', params: { spaceId, pageId: id }, hash: section || undefined })
  }

  const rootRef = useRef<HTMLDivElement>(null)
  const height = useFillHeight(rootRef)

  return (
    <div
      ref={rootRef}
      className={classes.screen}
      data-comments={commentsOpen || undefined}
      style={height ? { height } : undefined}
      data-testid="pages-screen"
      data-scope={changeRequest === undefined ? 'main' : `change-request-${changeRequest}`}
    >
      <aside className={classes.tree}>
        <SpaceSearch spaceId={spaceId} openPageId={pageId} inChangeRequest={changeRequest !== undefined} onOpen={openFound}>
          <PageTree spaceId={spaceId} pages={pages} openPageId={pageId} canEdit={canEdit} actions={actions} onOpen={open} onRename={setRenaming} />
        </SpaceSearch>
      </aside>
      <section className={classes.main}>
        {pageId ? (
          <Suspense fallback={<EditorSkeleton />}>
            <PageEditor key={`${changeRequest ?? 'main'}:${pageId}`} scope={scope} pageId={pageId} readOnly={readOnly} />
          </Suspense>
        ) : (
          <EmptyState
            mt={80}
            icon={<IconFileText size={28} stroke={1.6} />}
            withIndicatorBackground
            title={pages.length ? 'Choose a page' : 'No pages yet'}
            description={
              pages.length
                ? 'Pick a page in the tree to read or edit it.'
                : canEdit
                  ? 'Add the first page; it goes into a draft change request you can submit for review.'
                  : 'Nobody has written a page in this space yet.'
            }
          >
            {canEdit && !pages.length && (
              <EmptyState.Actions>
                <Button leftSection={<IconPlus size={16} />} onClick={() => actions.add(null)} loading={actions.pending} data-testid="add-first-page">
                  Add a page
                </Button>
              </EmptyState.Actions>
            )}
          </EmptyState>
        )}
      </section>
      {commentsOpen && (
        <aside className={classes.comments} data-testid="comments-pane">
          <CommentsPanel spaceId={spaceId} pageId={pageId} changeRequest={changeRequest === undefined ? undefined : String(changeRequest)} />
        </aside>
      )}
      <RenameModal page={renaming} onClose={() => setRenaming(null)} onRename={(page, title) => actions.rename(page, title)} />
    </div>
  )
}

/** Why the pages cannot be edited here, or null when they can. */
function readOnlyReason(space: Space, status: string | undefined): string | null {
  if (!space.permissions.edit) {
    return space.editMode === 'locked'
      ? 'This space is locked: its pages can be read but not changed until an admin unlocks it.'
      : 'You can read this space but not edit it. Ask an admin for the Edit role to change its pages.'
  }
  if (status === 'merged') return 'This change request is merged: its pages can no longer change. Edit the page on main to start a new one.'
  if (status === 'archived') return 'This change request is archived: reopen it to change its pages.'
  return null
}

function RenameModal({ page, onClose, onRename }: { page: ContentPage | null; onClose(): void; onRename(page: ContentPage, title: string): void }) {
  const [title, setTitle] = useState('')
  const [last, setLast] = useState<ContentPage | null>(null)
  useEffect(() => {
    if (page) {
      setTitle(page.title)
      setLast(page)
    }
  }, [page])
  const valid = validTitle(title)
  const submit = () => {
    if (!last || !valid) return
    if (title.trim() !== last.title) onRename(last, title.trim())
    onClose()
  }
  return (
    <Modal opened={!!page} onClose={onClose} title="Rename page" data-testid="rename-page-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
      >
        <Stack>
          <TextInput
            label="Title"
            data-autofocus
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            error={!valid && title.length > 0 ? `At most ${TITLE_MAX} characters` : !valid ? 'A page needs a title' : undefined}
            data-testid="rename-page-input"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!valid} data-testid="rename-page-submit">
              Rename
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}

/** Shown while a page's document loads (the tree is already there). */
function EditorSkeleton() {
  return (
    <Stack p="md" gap="md" aria-busy="true" aria-label="Loading page">
      <Skeleton height={14} width="40%" />
      <Skeleton height={28} width="60%" />
      <Skeleton height={12} width="90%" />
      <Skeleton height={12} width="85%" />
      <Skeleton height={12} width="70%" />
    </Stack>
  )
}

/**
 * The two panes fill the window below the space's header, so the tree and the editor scroll on their own
 * instead of the page scrolling twice. Never shorter than a usable editor.
 */
function useFillHeight(ref: React.RefObject<HTMLElement | null>, min = 440): number | undefined {
  const [height, setHeight] = useState<number>()
  useLayoutEffect(() => {
    const el = ref.current
    const root = el?.closest<HTMLElement>('[data-scroll-root]')
    if (!el || !root) return
    const measure = () => {
      const top = el.getBoundingClientRect().top - root.getBoundingClientRect().top + root.scrollTop
      const below = parseFloat(getComputedStyle(el.parentElement ?? el).paddingBottom) || 0
      setHeight(Math.max(min, Math.floor(root.clientHeight - top - below)))
    }
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(root)
    if (root.firstElementChild) observer.observe(root.firstElementChild)
    return () => observer.disconnect()
  }, [])
  return height
}
