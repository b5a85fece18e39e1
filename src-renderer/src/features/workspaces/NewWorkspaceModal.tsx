import { useState } from 'react'
import { Modal, PasswordInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconCloud, IconDatabase } from '@tabler/icons-react'
import type { WorkspaceInput } from '../../../../src-shared/workspaces.ts'
import type { Workspace } from '../../api/types.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { DialogActions } from '../common/DialogActions.tsx'
import { SwitchNowActions } from './SwitchNowActions.tsx'
import { nameFieldError, remoteTokenFieldError, remoteUrlFieldError } from './names.ts'
import { useCreateWorkspace } from './queries.ts'
import { accountLabel, remoteHost } from './remote.ts'
import classes from './Workspaces.module.css'

type Kind = 'local' | 'remote'

// The API names the server's fields `remote.url` and `remote.token`; this form keeps them flat.
const REMOTE_ERRORS = { 'remote.url': 'url', 'remote.token': 'token' }

function KindLabel({ kind }: { kind: Kind }) {
  const Icon = kind === 'local' ? IconDatabase : IconCloud
  return (
    <span className={classes.kindLabel} data-testid={`workspace-kind-${kind}`}>
      <Icon size={16} stroke={1.6} aria-hidden />
      {kind === 'local' ? 'On this computer' : 'On a server'}
    </span>
  )
}

/**
 * A new workspace: a database on this computer, or a connection to a server speaking the /v1 API (the server is
 * asked whose the token is first). Once it exists, offer to switch to it: creating never switches by itself.
 */
export function NewWorkspaceModal({
  opened,
  onClose,
  onSwitch
}: {
  opened: boolean
  onClose: () => void
  onSwitch: (workspace: Workspace) => void
}) {
  const create = useCreateWorkspace()
  const [created, setCreated] = useState<Workspace | null>(null)
  const form = useForm({
    initialValues: { kind: 'local' as Kind, name: '', url: '', token: '' },
    validate: {
      name: (value) => nameFieldError(value),
      url: (value, values) => (values.kind === 'remote' ? remoteUrlFieldError(value) : null),
      token: (value, values) => (values.kind === 'remote' ? remoteTokenFieldError(value) : null)
    }
  })
  const remote = form.getValues().kind === 'remote'
  const close = () => {
    form.reset()
    create.reset()
    setCreated(null)
    onClose()
  }
  const title = created ? (created.remote ? 'Workspace connected' : 'Workspace created') : 'New workspace'
  return (
    <Modal opened={opened} onClose={close} title={title} data-testid="new-workspace-dialog">
      {created ? (
        <Stack>
          {created.remote ? (
            <>
              <Text size="sm" fw={500} data-testid="workspace-created-account">
                Connected to {remoteHost(created.remote.url)} as {accountLabel(created.remote.account)}
              </Text>
              <Text size="sm" c="dimmed">
                “{created.name}” shows the organizations and spaces this account sees on the server, and what you change in it is changed
                there.
              </Text>
            </>
          ) : (
            <Text size="sm">
              “{created.name}” is ready, with its own organization. Nothing in it is shared with the workspace you are in now.
            </Text>
          )}
          <SwitchNowActions workspace={created} onClose={close} onSwitch={onSwitch} />
        </Stack>
      ) : (
        <form
          onSubmit={form.onSubmit((values) => {
            const body: WorkspaceInput = { name: values.name.trim() }
            if (values.kind === 'remote') body.remote = { url: values.url.trim(), token: values.token.trim() }
            create.mutate(body, {
              onSuccess: (workspace) => {
                notifySuccess(workspace.remote ? `Workspace “${workspace.name}” connected` : `Workspace “${workspace.name}” created`)
                setCreated(workspace)
              },
              onError: (error) => applyFormError(form, error, REMOTE_ERRORS)
            })
          })}
        >
          <Stack>
            <SegmentedControl
              fullWidth
              data={[
                { value: 'local', label: <KindLabel kind="local" /> },
                { value: 'remote', label: <KindLabel kind="remote" /> }
              ]}
              {...form.getInputProps('kind')}
              onChange={(value) => {
                form.setFieldValue('kind', value as Kind)
                form.clearErrors()
              }}
              aria-label="Where the workspace is"
              data-testid="workspace-kind"
            />
            <Text size="sm" c="dimmed">
              {remote
                ? 'A workspace connected to a server with the /v1 API (the hosted service, or another Quire’s quire serve). It shows what your account sees there.'
                : 'A separate database on this computer, with its own people, organizations and spaces.'}
            </Text>
            <TextInput
              label="Name"
              placeholder={remote ? 'Team docs' : 'Handbook'}
              data-autofocus
              required
              {...form.getInputProps('name')}
              data-testid="workspace-name-input"
            />
            {remote && (
              <>
                <TextInput
                  label="Server address"
                  placeholder="https://api.example.com"
                  required
                  autoComplete="url"
                  spellCheck={false}
                  {...form.getInputProps('url')}
                  data-testid="workspace-url-input"
                />
                <PasswordInput
                  label="API token"
                  placeholder="Paste a token of your account on that server"
                  required
                  autoComplete="off"
                  {...form.getInputProps('token')}
                  data-testid="workspace-token-input"
                />
                <Text size="xs" c="dimmed" data-testid="workspace-token-help">
                  Quire first asks the server whose token this is. The token is kept on this computer only (sealed by the system keychain in
                  the desktop app) and is sent to no one but that server.
                </Text>
              </>
            )}
            <DialogActions
              onCancel={close}
              submit={remote ? 'Connect' : 'Create'}
              loading={create.isPending}
              submitTestId="workspace-create-submit"
            />
          </Stack>
        </form>
      )}
    </Modal>
  )
}
