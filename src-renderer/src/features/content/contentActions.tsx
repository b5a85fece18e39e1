import { Text } from '@mantine/core'
import { modals } from '@mantine/modals'
import { useNavigate } from '@tanstack/react-router'
import { notifySuccess } from '../../app/notify.ts'
import { useUiStore } from '../../stores/uiStore.ts'
import { useDeleteCollection, useDeleteSpace, useDuplicateSpace, useUpdateSpace } from './queries.ts'
import { RESTORE_DAYS } from './trash.ts'
import type { TreeRow } from './treeModel.ts'

/** What can be done to a row of the content tree, shared by its menu, its keyboard keys and other screens. */
export function useContentActions(orgId: string) {
  const navigate = useNavigate()
  const openDialog = useUiStore((s) => s.openContentDialog)
  const toggleCollapsed = useUiStore((s) => s.toggleCollapsed)
  const deleteSpace = useDeleteSpace(orgId)
  const deleteCollection = useDeleteCollection(orgId)
  const duplicateSpace = useDuplicateSpace(orgId)
  const updateSpace = useUpdateSpace(orgId)

  return {
    open(row: Pick<TreeRow, 'kind' | 'id'>) {
      if (row.kind === 'space') void navigate({ to: '/spaces/$spaceId', params: { spaceId: row.id } })
      else toggleCollapsed(row.id)
    },
    rename(row: Pick<TreeRow, 'kind' | 'id'>) {
      openDialog(row.kind === 'space' ? { kind: 'rename-space', spaceId: row.id } : { kind: 'rename-collection', collectionId: row.id })
    },
    move(row: Pick<TreeRow, 'kind' | 'id'>) {
      openDialog({ kind: 'move', item: { kind: row.kind, id: row.id } })
    },
    transfer(row: Pick<TreeRow, 'kind' | 'id'>) {
      openDialog({ kind: 'transfer', item: { kind: row.kind, id: row.id } })
    },
    createSpaceIn(parent: string | null) {
      openDialog({ kind: 'create-space', parent })
    },
    createCollectionIn(parent: string | null) {
      openDialog({ kind: 'create-collection', parent })
    },
    setEmoji(spaceId: string, emoji: string) {
      updateSpace.mutate({ spaceId, emoji })
    },
    duplicate(row: Pick<TreeRow, 'id' | 'title'>) {
      duplicateSpace.mutate(row.id, { onSuccess: (copy) => notifySuccess(`Duplicated as “${copy.title}”`) })
    },
    remove(row: Pick<TreeRow, 'kind' | 'id' | 'title' | 'childCount'>, onDeleted?: () => void) {
      const name = row.title || (row.kind === 'space' ? 'Untitled space' : 'Untitled collection')
      modals.openConfirmModal({
        title: row.kind === 'space' ? 'Delete space?' : 'Delete collection?',
        children: (
          <Text size="sm">
            {row.kind === 'space' ? (
              <>
                “{name}” moves to the Trash. You can restore it there for {RESTORE_DAYS} days.
              </>
            ) : (
              <>
                “{name}” is deleted{row.childCount > 0 ? ' with everything in it' : ''}. Its spaces move to the Trash, where you can restore
                them for {RESTORE_DAYS} days.
              </>
            )}
          </Text>
        ),
        labels: { confirm: 'Delete', cancel: 'Cancel' },
        confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
        onConfirm: () => {
          const done = () => {
            notifySuccess(row.kind === 'space' ? `“${name}” moved to the Trash` : `Collection “${name}” deleted`)
            onDeleted?.()
          }
          if (row.kind === 'space') deleteSpace.mutate(row.id, { onSuccess: done })
          else deleteCollection.mutate(row.id, { onSuccess: done })
        }
      })
    }
  }
}

export type ContentActions = ReturnType<typeof useContentActions>
