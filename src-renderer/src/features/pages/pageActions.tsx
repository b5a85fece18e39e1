import { Text } from '@mantine/core'
import { modals } from '@mantine/modals'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { ContentChangeInput, ContentPage } from '../../api/types.ts'
import { notifySuccess } from '../../app/notify.ts'
import { findSession, forgetSession } from './pageSession.ts'
import { applyMove, descendantCount, indexPages, insertedPage, isWithin, pageAfterDelete, type PageMove } from './pageTreeModel.ts'
import { usePagesUi } from './pagesUiStore.ts'
import { applyChanges, pagesQuery, resolveDraft, type ContentScope } from './queries.ts'

interface TreeWrite {
  changes: ContentChangeInput[]
  /** The subject of a draft opened for this write (on main). */
  subject: string
  /** The page to show afterwards, from the tree as the API now has it (default: the page open now, if it is still there). */
  open?: (pages: ContentPage[], before: ReturnType<typeof indexPages>) => string | null | undefined
  /** Shown at once (a move); undone if the API refuses. */
  optimistic?: (pages: ContentPage[]) => ContentPage[]
  done?: string
}

/**
 * The page tree's writes (add, rename, move, delete). Like the editor's, they go to a change request: the one
 * open, or on main the caller's draft (found or opened), after which the address moves to that change request.
 * The open page's unsaved text is written first, so nothing typed is lost when the screen moves.
 */
export function usePageActions(scope: ContentScope, openPageId: string | undefined) {
  const client = useQueryClient()
  const navigate = useNavigate()
  const setFocusTitleOf = usePagesUi((s) => s.setFocusTitleOf)
  const { spaceId } = scope

  const write = useMutation({
    mutationFn: async (w: TreeWrite) => {
      if (openPageId) {
        const session = findSession(scope, openPageId)
        if (session?.queue.dirty) await session.queue.flush()
      }
      const number = scope.changeRequest ?? (await resolveDraft(client, spaceId, { subject: w.subject })).number
      const target: ContentScope = { spaceId, changeRequest: number }
      const before = indexPages(await client.fetchQuery(pagesQuery(target)))
      await applyChanges(client, spaceId, number, w.changes)
      const pages = await client.fetchQuery({ ...pagesQuery(target), staleTime: 0 })
      return { number, pages, before }
    },
    onMutate: async (w) => {
      if (!w.optimistic) return undefined
      const key = pagesQuery(scope).queryKey
      await client.cancelQueries({ queryKey: key, exact: true })
      const previous = client.getQueryData(key)
      if (previous) client.setQueryData(key, w.optimistic(previous))
      return { previous }
    },
    onError: (_e, _w, context) => {
      if (context?.previous) client.setQueryData(pagesQuery(scope).queryKey, context.previous)
    },
    onSuccess: ({ number, pages, before }, w, context) => {
      if (w.done) notifySuccess(w.done)
      // On main, a move shown at once was main's tree made up: main has not changed. Put it back once the
      // screen has moved to the change request.
      const restoreMain = () => {
        if (scope.changeRequest === undefined && context?.previous) client.setQueryData(pagesQuery(scope).queryKey, context.previous)
      }
      const index = indexPages(pages)
      const wanted = w.open?.(pages, before)
      const next = wanted !== undefined ? wanted : openPageId && index.has(openPageId) ? openPageId : null
      const pageId = next && index.has(next) ? next : (pages[0]?.id ?? null)
      if (scope.changeRequest === undefined || pageId !== (openPageId ?? null)) {
        // Moving from main to the change request replaces the address: Back should not lead to the old main view.
        const replace = scope.changeRequest === undefined
        const moved = pageId
          ? navigate({
              to: '/spaces/$spaceId/change-requests/$number/pages/$pageId',
              params: { spaceId, number: String(number), pageId },
              replace,
              ignoreBlocker: true
            })
          : navigate({ to: '/spaces/$spaceId', params: { spaceId }, replace })
        void moved.finally(restoreMain)
      }
    }
  })

  const pagesNow = () => client.getQueryData(pagesQuery(scope).queryKey) ?? []

  return {
    pending: write.isPending,
    /** A new page at the end of the top level or of `parent`; it opens with its title selected. */
    add(parent: ContentPage | null) {
      write.mutate({
        subject: parent ? `Add a page to “${parent.title}”` : 'Add a page',
        changes: [{ operation: 'insert_page', title: 'Untitled', document: { markdown: '' }, ...(parent ? { into: parent.id } : {}) }],
        open: (pages, before) => {
          const created = insertedPage(before, pages, parent?.id ?? null)
          if (created) setFocusTitleOf(created.id)
          return created?.id
        }
      })
    },
    rename(page: ContentPage, title: string) {
      const session = findSession(scope, page.id)
      if (session?.inUse) {
        // The open page: its title field and autosave own the title.
        session.edit({ title })
        void session.queue.flush()
        return
      }
      forgetSession(scope, page.id)
      write.mutate({
        subject: `Rename “${page.title}”`,
        changes: [{ operation: 'update_page', page: page.id, title }],
        done: `Renamed to “${title}”`
      })
    },
    move(page: ContentPage, move: PageMove) {
      const into = move.into ? indexPages(pagesNow()).get(move.into)?.page.title : null
      write.mutate({
        subject: `Move “${page.title}”`,
        changes: [{ operation: 'update_page', page: page.id, into: move.into, ...(move.at !== undefined ? { at: move.at } : {}) }],
        optimistic: (pages) => applyMove(pages, page.id, move),
        done: into ? `Moved “${page.title}” into “${into}”` : `Moved “${page.title}”`
      })
    },
    remove(page: ContentPage) {
      const below = descendantCount(page)
      modals.openConfirmModal({
        title: 'Delete page?',
        children: (
          <Text size="sm">
            “{page.title}”{below > 0 ? ` and the ${below === 1 ? 'page' : `${below} pages`} under it` : ''} will be removed in the change
            request. The page stays on main until the change request is merged.
          </Text>
        ),
        labels: { confirm: 'Delete', cancel: 'Cancel' },
        confirmProps: { color: 'red', 'data-testid': 'confirm-delete-page' } as Record<string, unknown>,
        onConfirm: () => {
          const index = indexPages(pagesNow())
          const openGoes = openPageId !== undefined && isWithin(index, openPageId, page.id)
          const fallback = openGoes ? pageAfterDelete(index, page.id) : undefined
          forgetSession(scope, page.id)
          write.mutate({
            subject: `Delete “${page.title}”`,
            changes: [{ operation: 'delete_page', page: page.id }],
            open: openGoes ? () => fallback ?? null : undefined,
            done: `“${page.title}” deleted`
          })
        }
      })
    }
  }
}

export type PageActions = ReturnType<typeof usePageActions>
