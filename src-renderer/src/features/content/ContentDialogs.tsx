import { Group, Modal, Select, Stack, Text, TextInput, Textarea, UnstyledButton } from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconFileText } from '@tabler/icons-react'
import { useNavigate } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import type { Collection, Space } from '../../api/types.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { useUiStore, type ContentDialog } from '../../stores/uiStore.ts'
import { EmojiPicker } from './EmojiPicker.tsx'
import {
  collectionsQuery,
  spacesQuery,
  useCreateCollection,
  useCreateSpace,
  useMoveItem,
  useUpdateCollection,
  useUpdateSpace
} from './queries.ts'
import { TOP_LEVEL, moveDestinations } from './treeModel.ts'
import classes from './EmojiPicker.module.css'
import { DialogActions } from '../common/DialogActions.tsx'
import { TransferDialog } from '../spaceSettings/TransferDialog.tsx'
import { emojiText } from '../common/emoji.ts'
import { useFormReset } from '../common/useFormReset.ts'

const TITLE_MAX = 50

const fromLocation = (value: string): string | null => (value === TOP_LEVEL ? null : value)

/** The item a transfer dialog names, with its title and organization. */
function transferred(dialog: ContentDialog | null, orgId: string, spaces: Space[], collections: Collection[]) {
  if (dialog?.kind !== 'transfer') return null
  const { kind, id } = dialog.item
  const found = kind === 'space' ? spaces.find((s) => s.id === id) : collections.find((c) => c.id === id)
  return { kind, id, title: found?.title ?? '', organization: orgId, inCollection: kind === 'space' && !!found?.parent }
}

/** The create / rename / move / transfer dialogs of the organization's content; which one is open lives in the UI store. */
export function ContentDialogs({ orgId }: { orgId: string }) {
  const dialog = useUiStore((s) => s.contentDialog)
  const close = useUiStore((s) => s.closeContentDialog)
  const collections = useQuery(collectionsQuery(orgId)).data ?? []
  const spaces = useQuery(spacesQuery(orgId)).data ?? []
  // Closing leaves the store at null; keep the last dialog's kind so the closing animation has content.
  const kind = dialog?.kind
  return (
    <>
      <SpaceModal
        orgId={orgId}
        dialog={kind === 'create-space' || kind === 'rename-space' ? dialog : null}
        spaces={spaces}
        collections={collections}
        onClose={close}
      />
      <CollectionModal
        orgId={orgId}
        dialog={kind === 'create-collection' || kind === 'rename-collection' ? dialog : null}
        collections={collections}
        onClose={close}
      />
      <MoveModal orgId={orgId} dialog={kind === 'move' ? dialog : null} spaces={spaces} collections={collections} onClose={close} />
      <TransferDialog item={transferred(dialog, orgId, spaces, collections)} onClose={close} />
    </>
  )
}

function locationOptions(collections: Collection[]) {
  return moveDestinations({ kind: 'space', id: '', parent: null }, collections)
}

function SpaceModal({
  orgId,
  dialog,
  spaces,
  collections,
  onClose
}: {
  orgId: string
  dialog: ContentDialog | null
  spaces: Space[]
  collections: Collection[]
  onClose(): void
}) {
  const navigate = useNavigate()
  const select = useUiStore((s) => s.select)
  const setCollapsed = useUiStore((s) => s.setCollapsed)
  const create = useCreateSpace(orgId)
  const update = useUpdateSpace(orgId)
  const editing = dialog?.kind === 'rename-space' ? spaces.find((s) => s.id === dialog.spaceId) : undefined
  const form = useForm({ initialValues: { title: '', emoji: '📘', parent: TOP_LEVEL } })

  // Filled when a dialog opens (`dialog` is a new object then), not on every refetch of the lists.
  useFormReset(
    form,
    dialog?.kind === 'rename-space'
      ? { title: editing?.title ?? '', emoji: emojiText(editing?.emoji), parent: editing?.parent ?? TOP_LEVEL }
      : dialog?.kind === 'create-space'
        ? { title: '', emoji: '📘', parent: dialog.parent ?? TOP_LEVEL }
        : null,
    dialog
  )

  const submit = form.onSubmit(({ title, emoji, parent }) => {
    if (editing) {
      update.mutate(
        { spaceId: editing.id, title: title.trim(), emoji },
        { onSuccess: () => (notifySuccess('Space renamed'), onClose()), onError: (e) => applyFormError(form, e) }
      )
    } else {
      create.mutate(
        { title: title.trim(), emoji: emoji || undefined, parent: fromLocation(parent) ?? undefined },
        {
          onSuccess: (space) => {
            notifySuccess(`Space “${space.title}” created`)
            select(`space:${space.id}`)
            if (space.parent) setCollapsed(space.parent, false)
            onClose()
            void navigate({ to: '/orgs/$orgId', params: { orgId } })
          },
          onError: (e) => applyFormError(form, e)
        }
      )
    }
  })

  return (
    <Modal opened={!!dialog} onClose={onClose} title={editing ? 'Rename space' : 'New space'} data-testid="space-dialog">
      <form onSubmit={submit}>
        <Stack>
          <Group align="flex-end" gap="sm" wrap="nowrap">
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                Icon
              </Text>
              <EmojiPicker value={form.values.emoji} onChange={(emoji) => form.setFieldValue('emoji', emoji)}>
                <UnstyledButton
                  className={classes.cell}
                  aria-label="Choose emoji"
                  data-testid="space-dialog-emoji"
                  style={{ width: 36, height: 36, border: '1px solid var(--app-border-strong)' }}
                >
                  {form.values.emoji || <IconFileText size={18} stroke={1.6} />}
                </UnstyledButton>
              </EmojiPicker>
            </Stack>
            <TextInput
              label="Title"
              placeholder="e.g. Product handbook"
              data-autofocus
              style={{ flex: 1 }}
              maxLength={TITLE_MAX + 20}
              {...form.getInputProps('title')}
              data-testid="space-title-input"
            />
          </Group>
          {!editing && (
            <Select
              label="Location"
              data={locationOptions(collections)}
              searchable
              {...form.getInputProps('parent')}
              data-testid="space-location"
            />
          )}
          <DialogActions
            onCancel={onClose}
            submit={editing ? 'Save' : 'Create space'}
            loading={create.isPending || update.isPending}
            submitTestId="space-dialog-submit"
          />
        </Stack>
      </form>
    </Modal>
  )
}

function CollectionModal({
  orgId,
  dialog,
  collections,
  onClose
}: {
  orgId: string
  dialog: ContentDialog | null
  collections: Collection[]
  onClose(): void
}) {
  const select = useUiStore((s) => s.select)
  const create = useCreateCollection(orgId)
  const update = useUpdateCollection(orgId)
  const editing = dialog?.kind === 'rename-collection' ? collections.find((c) => c.id === dialog.collectionId) : undefined
  const form = useForm({ initialValues: { title: '', description: '', parent: TOP_LEVEL } })

  // Filled when a dialog opens (`dialog` is a new object then), not on every refetch of the lists.
  useFormReset(
    form,
    dialog?.kind === 'rename-collection'
      ? { title: editing?.title ?? '', description: editing?.description ?? '', parent: editing?.parent ?? TOP_LEVEL }
      : dialog?.kind === 'create-collection'
        ? { title: '', description: '', parent: dialog.parent ?? TOP_LEVEL }
        : null,
    dialog
  )

  const submit = form.onSubmit(({ title, description, parent }) => {
    if (editing) {
      update.mutate(
        { collectionId: editing.id, title: title.trim(), description: description.trim() || null },
        { onSuccess: () => (notifySuccess('Collection saved'), onClose()), onError: (e) => applyFormError(form, e) }
      )
    } else {
      create.mutate(
        { title: title.trim(), parent: fromLocation(parent) ?? undefined },
        {
          onSuccess: (c) => {
            notifySuccess(`Collection “${c.title}” created`)
            select(`collection:${c.id}`)
            onClose()
          },
          onError: (e) => applyFormError(form, e)
        }
      )
    }
  })

  return (
    <Modal opened={!!dialog} onClose={onClose} title={editing ? 'Edit collection' : 'New collection'} data-testid="collection-dialog">
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label="Title"
            placeholder="e.g. Engineering"
            data-autofocus
            {...form.getInputProps('title')}
            data-testid="collection-title-input"
          />
          {editing ? (
            <Textarea label="Description" placeholder="What belongs here" autosize minRows={2} {...form.getInputProps('description')} />
          ) : (
            <Select label="Location" data={locationOptions(collections)} searchable {...form.getInputProps('parent')} />
          )}
          <DialogActions
            onCancel={onClose}
            submit={editing ? 'Save' : 'Create collection'}
            loading={create.isPending || update.isPending}
            submitTestId="collection-dialog-submit"
          />
        </Stack>
      </form>
    </Modal>
  )
}

/** "Move to…": the keyboard-friendly way to do what dragging does (parent only; order stays the API's). */
function MoveModal({
  orgId,
  dialog,
  spaces,
  collections,
  onClose
}: {
  orgId: string
  dialog: ContentDialog | null
  spaces: Space[]
  collections: Collection[]
  onClose(): void
}) {
  const move = useMoveItem(orgId)
  const item = dialog?.kind === 'move' ? dialog.item : null
  const current = item
    ? item.kind === 'space'
      ? spaces.find((s) => s.id === item.id)
      : collections.find((c) => c.id === item.id)
    : undefined
  const form = useForm({ initialValues: { parent: TOP_LEVEL } })
  // Filled when the dialog opens, not on every refetch of the lists.
  useFormReset(form, item ? { parent: current?.parent ?? TOP_LEVEL } : null, dialog)

  const options = item ? moveDestinations({ kind: item.kind, id: item.id, parent: current?.parent ?? null }, collections) : []
  return (
    <Modal opened={!!item} onClose={onClose} title={`Move “${current?.title || 'Untitled'}”`} data-testid="move-dialog">
      <form
        onSubmit={form.onSubmit(({ parent }) => {
          if (!item) return
          if ((current?.parent ?? null) === fromLocation(parent)) return onClose()
          move.mutate(
            { kind: item.kind, id: item.id, body: { parent: fromLocation(parent) } },
            { onSuccess: () => (notifySuccess(`Moved “${current?.title ?? ''}”`), onClose()) }
          )
        })}
      >
        <Stack>
          <Select
            label="Destination"
            data={options}
            searchable
            data-autofocus
            {...form.getInputProps('parent')}
            data-testid="move-destination"
          />
          <DialogActions onCancel={onClose} submit="Move" loading={move.isPending} submitTestId="move-submit" />
        </Stack>
      </form>
    </Modal>
  )
}
