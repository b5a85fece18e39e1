import { useState } from 'react'
import { ActionIcon, Badge, Button, Group, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconDatabaseImport, IconDownload, IconKey, IconPencil, IconPlugConnected, IconTrash } from '@tabler/icons-react'
import type { Workspace, WorkspaceList } from '../../api/types.ts'
import { applyFormError, notifyError, notifySuccess } from '../../app/notify.ts'
import { formatDate, formatTime } from '../common/format.ts'
import { ChangeTokenForm } from './ChangeTokenForm.tsx'
import { useBackupWorkspace, useCheckConnection, useDeleteWorkspace, useRenameWorkspace } from './queries.ts'
import { nameFieldError } from './names.ts'
import { accountLabel, CONNECTION_STATUS, remoteHost } from './remote.ts'
import { WorkspaceKindIcon } from './WorkspaceKindIcon.tsx'
import { problemAdvice, problemLabel } from './workspaceFiles.ts'
import classes from './Workspaces.module.css'

/**
 * Every workspace: rename in place, back up (one on this computer), delete (never the active one) after a
 * confirmation that says what goes; a connected one also shows its server, account and connection, and can be
 * checked or given a new token. One that cannot be opened says why, where its file is and what to do. "Open
 * workspace file…" adds one from a backup.
 */
export function ManageWorkspacesModal({
  opened,
  onClose,
  list,
  onOpenFile
}: {
  opened: boolean
  onClose: () => void
  list: WorkspaceList
  onOpenFile: () => void
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Manage workspaces" size="lg" data-testid="manage-workspaces-dialog">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          A workspace is either a database on this computer or a connection to a server, each with its own organizations and spaces.
          Deleting one on this computer removes its content for good; deleting a connection removes nothing on its server.
        </Text>
        <div className={classes.rows} role="list" aria-label="Workspaces">
          {list.items.map((workspace) => (
            <WorkspaceRow key={workspace.id} workspace={workspace} />
          ))}
        </div>
        <Group justify="space-between">
          <Button
            variant="light"
            leftSection={<IconDatabaseImport size={16} />}
            onClick={onOpenFile}
            data-testid="manage-open-workspace-file"
          >
            Open workspace file…
          </Button>
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}

type Mode = 'view' | 'rename' | 'delete' | 'token'

function WorkspaceRow({ workspace }: { workspace: Workspace }) {
  const [mode, setMode] = useState<Mode>('view')
  return (
    <div
      className={`${classes.row} ${mode === 'delete' ? classes.rowConfirm : ''}`}
      role="listitem"
      data-testid="workspace-row"
      data-workspace-id={workspace.id}
    >
      {mode === 'rename' ? (
        <RenameForm workspace={workspace} onDone={() => setMode('view')} />
      ) : mode === 'token' ? (
        <ChangeTokenForm workspace={workspace} onDone={() => setMode('view')} layout="row" />
      ) : mode === 'delete' ? (
        <ConfirmDelete workspace={workspace} onCancel={() => setMode('view')} />
      ) : (
        <>
          <span className={classes.rowIcon}>
            <WorkspaceKindIcon workspace={workspace} size={18} />
          </span>
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
              {workspace.problem && (
                <Badge color="orange" size="sm" variant="light" data-testid="workspace-problem-badge" data-kind={workspace.problem.kind}>
                  {problemLabel(workspace.problem)}
                </Badge>
              )}
              {workspace.remote && !workspace.problem && <ConnectionBadge workspace={workspace} />}
            </Group>
            {workspace.problem ? (
              <Stack gap={2} mt={2} data-testid="workspace-row-problem">
                <Text size="xs" className={classes.problemMessage}>
                  Cannot be opened: {workspace.problem.message}
                </Text>
                <Text size="xs" c="dimmed">
                  {problemAdvice(workspace.problem)}
                </Text>
              </Stack>
            ) : workspace.remote ? (
              <Text size="xs" c="dimmed" truncate data-testid="workspace-row-remote">
                {remoteHost(workspace.remote.url)} · {accountLabel(workspace.remote.account)}
              </Text>
            ) : (
              <Text size="xs" c="dimmed">
                On this computer · created {formatDate(workspace.createdAt)}
              </Text>
            )}
          </div>
          {!workspace.remote && !workspace.problem && <BackupButton workspace={workspace} />}
          {workspace.remote && !workspace.problem && <CheckConnectionButton workspace={workspace} />}
          {workspace.remote && (
            <Tooltip label="Change token…">
              <ActionIcon
                aria-label={`Change the token of ${workspace.name}`}
                onClick={() => setMode('token')}
                data-testid="workspace-change-token"
              >
                <IconKey size={16} stroke={1.6} />
              </ActionIcon>
            </Tooltip>
          )}
          <Tooltip label="Rename">
            <ActionIcon aria-label={`Rename ${workspace.name}`} onClick={() => setMode('rename')} data-testid="workspace-rename">
              <IconPencil size={16} stroke={1.6} />
            </ActionIcon>
          </Tooltip>
          <Tooltip
            label={workspace.active ? 'The active workspace cannot be deleted: switch to another one first' : 'Delete'}
            multiline
            maw={240}
          >
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

/** Saves a consistent copy of the workspace (`<name>-<date>.quire.db`), the active one too. */
function BackupButton({ workspace }: { workspace: Workspace }) {
  const backup = useBackupWorkspace()
  return (
    <Tooltip label="Back up…">
      <ActionIcon
        aria-label={`Back up ${workspace.name}`}
        loading={backup.isPending}
        onClick={() => backup.mutate(workspace)}
        data-testid="workspace-backup"
      >
        <IconDownload size={16} stroke={1.6} />
      </ActionIcon>
    </Tooltip>
  )
}

/** Online / Cannot reach / Token refused / Not checked, with what the server last said and when in a tooltip. */
function ConnectionBadge({ workspace }: { workspace: Workspace }) {
  const connection = workspace.remote!.connection
  const { label, color } = CONNECTION_STATUS[connection.status]
  const when = connection.checkedAt ? `Checked at ${formatTime(connection.checkedAt)}` : 'Not asked since Quire started'
  return (
    <Tooltip label={connection.message ? `${connection.message} (${when.toLowerCase()})` : when} multiline maw={320}>
      <Badge color={color} size="sm" variant="dot" data-testid="workspace-connection-status" data-status={connection.status}>
        {label}
      </Badge>
    </Tooltip>
  )
}

/** Asks the server now; the badge shows what it found, and a toast says so. */
function CheckConnectionButton({ workspace }: { workspace: Workspace }) {
  const check = useCheckConnection()
  const host = remoteHost(workspace.remote!.url)
  return (
    <Tooltip label="Check connection">
      <ActionIcon
        aria-label={`Check the connection of ${workspace.name}`}
        loading={check.isPending}
        onClick={() =>
          check.mutate(workspace.id, {
            onSuccess: (checked) => {
              const connection = checked.remote?.connection
              if (connection?.status === 'online') notifySuccess(`${host} answers: connected as ${accountLabel(checked.remote!.account)}`)
              else notifyError(connection?.message ?? `${host} did not answer`, `“${checked.name}” is not connected`)
            }
          })
        }
        data-testid="workspace-check"
      >
        <IconPlugConnected size={16} stroke={1.6} />
      </ActionIcon>
    </Tooltip>
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
            onError: (error) => applyFormError(form, error)
          }
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
      {workspace.problem ? (
        <Text size="sm">
          Remove the workspace <b>“{workspace.name}”</b>? Its folder is deleted from this computer, with the file that cannot be opened (
          <code>{workspace.problem.file}</code>).
        </Text>
      ) : workspace.remote ? (
        <Text size="sm">
          Delete the workspace <b>“{workspace.name}”</b>? This removes the connection to {remoteHost(workspace.remote.url)} and its token
          from this computer only: nothing on the server is deleted, and you can connect again with a token.
        </Text>
      ) : (
        <Text size="sm">
          Delete the workspace <b>“{workspace.name}”</b>? Its organizations, spaces and pages go with it, and this cannot be undone.
        </Text>
      )}
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
          {workspace.remote ? 'Remove connection' : workspace.problem ? 'Remove workspace' : 'Delete workspace'}
        </Button>
      </Group>
    </Stack>
  )
}
