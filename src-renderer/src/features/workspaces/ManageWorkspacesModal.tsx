import { useState } from 'react'
import { ActionIcon, Badge, Button, Group, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconDatabase, IconPencil, IconTrash } from '@tabler/icons-react'
import type { Workspace, WorkspaceList } from '../../api/types.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { formatDate } from '../common/format.ts'
import { useDeleteWorkspace, useRenameWorkspace } from './queries.ts'
import { nameFieldError } from './names.ts'
import classes from './Workspaces.module.css'

/** Every workspace: rename in place, delete (never the active one) after a confirmation that says what goes. */
export function ManageWorkspacesModal({ opened, onClose, list }: { opened: boolean; onClose: () => void; list: WorkspaceList }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Manage workspaces" size="lg" data-testid="manage-workspaces-dialog">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Each workspace is a separate database on this computer. Deleting one removes its organizations, spaces and pages for good.
        </Text>
        <div className={classes.rows} role="list" aria-label="Workspaces">
          {list.items.map((workspace) => (
            <WorkspaceRow key={workspace.id} workspace={workspace} />
          ))}
        </div>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}

type Mode = 'view' | 'rename' | 'delete'

function WorkspaceRow({ workspace }: { workspace: Workspace }) {
  const [mode, setMode] = useState<Mode>('view')
  return (
    <div className={`${classes.row} ${mode === 'delete' ? classes.rowConfirm : ''}`} role="listitem" data-testid="workspace-row" data-workspace-id={workspace.id}>
      {mode === 'rename' ? (
        <RenameForm workspace={workspace} onDone={() => setMode('view')} />
      ) : mode === 'delete' ? (
        <ConfirmDelete workspace={workspace} onCancel={() => setMode('view')} />
      ) : (
        <>
          <IconDatabase size={18} stroke={1.6} color="var(--mantine-color-dimmed)" />
          <div className={classes.rowMain}>
            <Group gap={8} wrap="nowrap">
              <Text size="sm" fw={500} truncate data-testid="workspace-row-name">
                {workspace.name}
              </Text>
              {workspace.active && (
                <Badge color="indigo" size="sm" data-testid="workspace-active-badge">
                  Active
                </Badge>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              Created {formatDate(workspace.createdAt)}
            </Text>
          </div>
          <Tooltip label="Rename">
            <ActionIcon aria-label={`Rename ${workspace.name}`} onClick={() => setMode('rename')} data-testid="workspace-rename">
              <IconPencil size={16} stroke={1.6} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={workspace.active ? 'The active workspace cannot be deleted: switch to another one first' : 'Delete'} multiline maw={240}>
            {/* A disabled button gets no pointer events; the wrapper keeps the tooltip that says why. */}
            <span>
              <ActionIcon
                color="red"
                aria-label={`Delete ${workspace.name}`}
                disabled={workspace.active}
                onClick={() => setMode('delete')}
                data-testid="workspace-delete"
              >
                <IconTrash size={16} stroke={1.6} />
              </ActionIcon>
            </span>
          </Tooltip>
        </>
      )}
    </div>
  )
}

function RenameForm({ workspace, onDone }: { workspace: Workspace; onDone: () => void }) {
  const rename = useRenameWorkspace()
  const form = useForm({ initialValues: { name: workspace.name }, validate: { name: (value) => nameFieldError(value) } })
  return (
    <form
      className={classes.rowMain}
      onSubmit={form.onSubmit(({ name }) => {
        const trimmed = name.trim()
        if (trimmed === workspace.name) return onDone()
        rename.mutate(
          { id: workspace.id, name: trimmed },
          {
            onSuccess: (renamed) => {
              notifySuccess(`Renamed to “${renamed.name}”`)
              onDone()
            },
            onError: (error) => applyFormError(form, error),
          },
        )
      })}
    >
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <TextInput
          style={{ flex: 1 }}
          aria-label="Workspace name"
          autoFocus
          onFocus={(event) => event.currentTarget.select()}
          // Esc cancels the rename, not the whole dialog (Mantine's modal honours this attribute).
          data-mantine-stop-propagation="true"
          onKeyDown={(event) => {
            if (event.key === 'Escape') onDone()
          }}
          {...form.getInputProps('name')}
          data-testid="workspace-rename-input"
        />
        <Button type="submit" loading={rename.isPending} data-testid="workspace-rename-save">
          Save
        </Button>
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
      </Group>
    </form>
  )
}

function ConfirmDelete({ workspace, onCancel }: { workspace: Workspace; onCancel: () => void }) {
  const remove = useDeleteWorkspace()
  return (
    <Stack gap={8} className={classes.rowMain} data-testid="workspace-delete-confirm">
      <Text size="sm">
        Delete the workspace <b>“{workspace.name}”</b>? Its organizations, spaces and pages go with it, and this cannot be undone.
      </Text>
      <Group gap="xs" justify="flex-end">
        <Button variant="default" onClick={onCancel} autoFocus>
          Cancel
        </Button>
        <Button
          color="red"
          loading={remove.isPending}
          onClick={() => remove.mutate(workspace.id, { onSuccess: () => notifySuccess(`Workspace “${workspace.name}” deleted`) })}
          data-testid="workspace-confirm-delete"
        >
          Delete workspace
        </Button>
      </Group>
    </Stack>
  )
}
