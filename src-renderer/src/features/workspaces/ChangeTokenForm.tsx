import type { KeyboardEvent } from 'react'
import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core'
import { useForm } from '@mantine/form'
import type { Workspace } from '../../api/types.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { DialogActions } from '../common/DialogActions.tsx'
import { remoteTokenFieldError } from './names.ts'
import { useChangeToken } from './queries.ts'
import { accountLabel, remoteHost } from './remote.ts'

// The server's answers about the new token, and a server out of reach while checking it, go under the one field.
const TOKEN_ERRORS = { 'remote.token': 'token', 'remote.url': 'token' }

/**
 * A new token for a connected workspace: the server is asked whose it is, and it must be the same account's
 * (the workspace is that account's view of the server). `layout="row"` fits a row of Manage workspaces.
 */
export function ChangeTokenForm({ workspace, onDone, layout }: { workspace: Workspace; onDone: () => void; layout: 'row' | 'dialog' }) {
  const change = useChangeToken()
  const form = useForm({ initialValues: { token: '' }, validate: { token: (value) => remoteTokenFieldError(value) } })
  const remote = workspace.remote
  if (!remote) return null
  const host = remoteHost(remote.url)
  // In a row, Esc cancels the inline form, not the whole dialog (Mantine's modal honours this attribute).
  const rowKeys =
    layout === 'row'
      ? { 'data-mantine-stop-propagation': 'true', onKeyDown: (event: KeyboardEvent) => event.key === 'Escape' && onDone() }
      : {}
  const input = (
    <PasswordInput
      label={layout === 'row' ? `New API token for “${workspace.name}”` : 'New API token'}
      description={`It must be ${remote.account.displayName}’s on ${host}: this workspace shows what that account sees.`}
      placeholder="Paste the token"
      autoComplete="off"
      data-autofocus
      autoFocus={layout === 'row'}
      {...rowKeys}
      {...form.getInputProps('token')}
      data-testid="workspace-token-input"
    />
  )
  return (
    <form
      style={layout === 'row' ? { flex: 1, minWidth: 0 } : undefined}
      onSubmit={form.onSubmit(({ token }) =>
        change.mutate(
          { id: workspace.id, token: token.trim() },
          {
            onSuccess: (updated) => {
              notifySuccess(`New token saved: connected to ${host} as ${accountLabel(updated.remote?.account ?? remote.account)}`)
              onDone()
            },
            onError: (error) => applyFormError(form, error, TOKEN_ERRORS)
          }
        )
      )}
      data-testid="workspace-token-form"
    >
      {layout === 'row' ? (
        <Stack gap={8}>
          {input}
          <Group gap="xs" justify="flex-end">
            <Button variant="default" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit" loading={change.isPending} data-testid="workspace-token-save">
              Save token
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm" c="dimmed">
            “{workspace.name}” is connected to {host} as {accountLabel(remote.account)}. Quire asks the server whose the new token is before
            keeping it, on this computer only.
          </Text>
          {input}
          <DialogActions onCancel={onDone} submit="Save token" loading={change.isPending} submitTestId="workspace-token-save" />
        </Stack>
      )}
    </form>
  )
}

/** The same form as a small dialog (from the connection banner). */
export function ChangeTokenModal({ workspace, opened, onClose }: { workspace: Workspace; opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Change token" data-testid="change-token-dialog">
      {opened && <ChangeTokenForm workspace={workspace} onDone={onClose} layout="dialog" />}
    </Modal>
  )
}
