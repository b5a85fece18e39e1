import { Suspense, useEffect, useMemo, useState } from 'react'
import { Button, EmptyState, Group, Modal, Skeleton, Stack, TextInput } from '@mantine/core'
import { IconFileText, IconLayoutSidebarLeftExpand, IconPlus } from '@tabler/icons-react'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { ContentPage, Space } from '../../api/types.ts'
import { CommentsPanel } from '../comments/CommentsPanel.tsx'
import { usePassageFeed } from '../comments/usePassageFeed.ts'
import { spaceQuery } from '../content/queries.ts'
import { SpacePaneHeader } from '../content/SpaceScreen.tsx'
import { PaneSeparator } from '../common/PaneSeparator.tsx'
import { useElementWidth } from '../common/useElementWidth.ts'
import { useScreenReady } from '../common/screen.ts'
import { usePageActions } from './pageActions.tsx'
import { PageEditor, type EditorPanes } from './PageEditor.tsx'
import { arrangePanes, PANE_MIN, splitShare } from './paneLayout.ts'
import { PageTree } from './PageTree.tsx'
import { indexPages } from './pageTreeModel.ts'
import { usePagesUi } from './pagesUiStore.ts'
import { changeRequestQuery, pagesQuery, type ContentScope } from './queries.ts'
import { TITLE_MAX, validTitle } from './saveQueue.ts'
import { SpaceSearch } from './SpaceSearch.tsx'
import classes from './PagesScreen.module.css'

/**
 * The space's Pages tab, filling the window below the shell's header: the space's compact header, search and page
 * tree on the left, the open page's editor (and preview) in the middle, its comments on the right when asked.
 * The panes are resized by their separators and fitted to the width by `paneLayout.ts`; focus mode leaves the
 * editor alone in the window (the shell hides its sidebar and header: `AppShell.module.css`). On main (`/spaces/$spaceId/pages/$pageId`) edits go to a draft change request found or
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
    else
      void navigate({
        to: '/spaces/$spaceId/change-requests/$number/pages/$pageId',
        params: { spaceId, number: String(changeRequest), pageId: id },
        hash
      })
  }
  // Search finds main content: a page this change request has deleted opens on main.
  const pageIndex = useMemo(() => indexPages(pages), [pages])
  const openFound = (id: string, section?: string) => {
    if (changeRequest === undefined || pageIndex.has(id)) open(id, section)
    else void navigate({ to: '/spaces/$spaceId/pages/$pageId', params: { spaceId, pageId: id }, hash: section || undefined })
  }

  const [root, setRoot] = useState<HTMLDivElement | null>(null)
  const width = useElementWidth(root)
  const mode = usePagesUi((s) => s.mode)
  const sizes = usePagesUi((s) => s.panes)
  const setPaneSize = usePagesUi((s) => s.setPaneSize)
  const focus = usePagesUi((s) => s.focus)
  const toggleComments = usePagesUi((s) => s.toggleComments)
  // Before the first measure, the layout of a wide window (the tree is not drawn over the editor for a frame).
  const layout = arrangePanes({ width: width || 1440, mode, commentsOpen, focus, sizes })
  const [treeOverlay, setTreeOverlay] = useState(false)
  const showTree = layout.tree !== null || (treeOverlay && !focus)
  useEffect(() => setTreeOverlay(false), [pageId, layout.treeYielded])
  useFocusModeKeys()

  const editorPanes: EditorPanes = {
    editor: layout.editor,
    preview: layout.preview,
    previewLimits: layout.limits.preview,
    onPreviewResize: (w, body) => setPaneSize('split', splitShare(w, body))
  }
  const toggleTree = layout.treeYielded && !focus ? () => setTreeOverlay((o) => !o) : undefined

  return (
    <div
      ref={setRoot}
      className={classes.screen}
      data-fill-window
      data-focus-mode={focus || undefined}
      data-comments={commentsOpen || undefined}
      data-testid="pages-screen"
      data-scope={changeRequest === undefined ? 'main' : `change-request-${changeRequest}`}
    >
      {showTree && (
        <aside
          className={classes.tree}
          data-overlay={layout.tree === null || undefined}
          style={{ width: layout.tree ?? Math.min(sizes.tree, Math.max(PANE_MIN.tree, width - 48)) }}
          data-testid="tree-pane"
          aria-label="Pages"
          onKeyDown={(e) => {
            // The search box and its results use Esc first (to clear, or to go back to the box).
            if (e.key === 'Escape' && layout.tree === null && !e.defaultPrevented) setTreeOverlay(false)
          }}
        >
          <SpacePaneHeader spaceId={spaceId} onClose={layout.tree === null ? () => setTreeOverlay(false) : undefined} />
          <div className={classes.treeBody}>
            <SpaceSearch spaceId={spaceId} openPageId={pageId} inChangeRequest={changeRequest !== undefined} onOpen={openFound}>
              <PageTree
                spaceId={spaceId}
                pages={pages}
                openPageId={pageId}
                canEdit={canEdit}
                actions={actions}
                onOpen={open}
                onRename={setRenaming}
              />
            </SpaceSearch>
          </div>
        </aside>
      )}
      {layout.tree !== null && (
        <PaneSeparator
          label="Resize page tree"
          value={layout.tree}
          limits={layout.limits.tree}
          growsRight
          onResize={(w) => setPaneSize('tree', w)}
          testId="tree-separator"
        />
      )}
      <section className={classes.main}>
        {pageId ? (
          <Suspense fallback={<EditorSkeleton />}>
            <PageEditor
              key={`${changeRequest ?? 'main'}:${pageId}`}
              scope={scope}
              pageId={pageId}
              readOnly={readOnly}
              panes={editorPanes}
              onToggleTree={toggleTree}
              treeOverlay={treeOverlay}
            />
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
            {((canEdit && !pages.length) || toggleTree) && (
              <EmptyState.Actions>
                {toggleTree && (
                  <Button
                    variant="default"
                    leftSection={<IconLayoutSidebarLeftExpand size={16} />}
                    onClick={toggleTree}
                    data-testid="show-tree"
                  >
                    Show pages
                  </Button>
                )}
                {canEdit && !pages.length && (
                  <Button
                    leftSection={<IconPlus size={16} />}
                    onClick={() => actions.add(null)}
                    loading={actions.pending}
                    data-testid="add-first-page"
                  >
                    Add a page
                  </Button>
                )}
              </EmptyState.Actions>
            )}
          </EmptyState>
        )}
      </section>
      {layout.comments !== null && (
        <>
          <PaneSeparator
            label="Resize comments"
            value={layout.comments}
            limits={layout.limits.comments}
            growsRight={false}
            onResize={(w) => setPaneSize('comments', w)}
            testId="comments-separator"
          />
          <aside className={classes.comments} style={{ width: layout.comments }} data-testid="comments-pane">
            <CommentsPanel
              spaceId={spaceId}
              pageId={pageId}
              changeRequest={changeRequest === undefined ? undefined : String(changeRequest)}
              onClose={toggleComments}
            />
          </aside>
        </>
      )}
      <RenameModal page={renaming} onClose={() => setRenaming(null)} onRename={(page, title) => actions.rename(page, title)} />
    </div>
  )
}

/**
 * Focus mode's keys: Ctrl/Cmd+Shift+Enter turns it on or off, Esc leaves it (unless something nearer used the
 * key first: CodeMirror's completion, a menu, a dialog). It ends when the writer leaves the Pages tab.
 */
function useFocusModeKeys() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const ui = usePagesUi.getState()
      if (e.key === 'Enter' && e.shiftKey && (e.ctrlKey || e.metaKey) && !e.altKey) {
        e.preventDefault()
        ui.setFocus(!ui.focus)
      } else if (
        e.key === 'Escape' &&
        ui.focus &&
        !e.defaultPrevented &&
        !(e.target instanceof Element && e.target.closest('[role="dialog"],[role="menu"],[role="listbox"]'))
      ) {
        ui.setFocus(false)
      }
    }
    window.addEventListener('keydown', onKey)
    return () => {
      window.removeEventListener('keydown', onKey)
      // The first edit on main moves to the draft's address, whose route draws this screen anew: focus mode stays
      // then, and ends only when no Pages screen follows.
      setTimeout(() => {
        if (!document.querySelector('[data-fill-window]')) usePagesUi.getState().setFocus(false)
      })
    }
  }, [])
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

function RenameModal({
  page,
  onClose,
  onRename
}: {
  page: ContentPage | null
  onClose(): void
  onRename(page: ContentPage, title: string): void
}) {
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
