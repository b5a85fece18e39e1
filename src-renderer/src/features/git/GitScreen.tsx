import { useEffect, useRef, useState } from 'react'
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title
} from '@mantine/core'
import { useForm } from '@mantine/form'
import { modals } from '@mantine/modals'
import { IconAlertTriangle, IconCloudDownload, IconCloudUpload, IconGitBranch, IconPlugConnected } from '@tabler/icons-react'
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import type { GitConnection, GitInfo } from '../../api/types.ts'
import { useReportAppState } from '../../app/appState.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { formatRelative } from '../common/format.ts'
import { DialogActions } from '../common/DialogActions.tsx'
import { spaceQuery } from '../content/queries.ts'
import { branchOf, isBusy, isNonFastForward, progressText, refOf, shortSha, STATUS_LABELS } from './gitState.ts'
import { gitConnectionQuery, gitInfoQuery, useDeleteGitConnection, useSaveGitConnection, useStartGitSync } from './queries.ts'
import classes from './GitScreen.module.css'

/**
 * A space's Git sync: the repository it is connected to (admins connect, edit and disconnect it), Import and
 * Export with the running job's progress, and the last sync's state: its commit (linked when the repository has
 * web pages), its error, and after an export refused because the branch moved, "Import first" or "Force export…".
 */
export function GitScreen({ spaceId }: { spaceId: string }) {
  const { data: space } = useSuspenseQuery(spaceQuery(spaceId))
  const admin = space.permissions.admin
  const info = useQuery(gitInfoQuery(spaceId))
  const connection = useQuery({ ...gitConnectionQuery(spaceId), enabled: admin })
  const [editing, setEditing] = useState(false)
  useReportAppState(info.isSuccess && (!admin || connection.isSuccess) ? 'ready' : 'loading')
  useFollowFinishedImport(spaceId, info.data)

  const connected = admin ? connection.data : undefined
  const repository = (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4">
          Repository
        </Title>
        {admin && connected && !editing && (
          <Group gap="xs">
            <Button variant="default" size="xs" onClick={() => setEditing(true)} data-testid="git-edit-connection">
              Edit connection
            </Button>
            <DisconnectButton spaceId={spaceId} />
          </Group>
        )}
      </Group>
      {!admin ? (
        <Text size="sm" c="dimmed">
          {info.data ? `Last synced with ${info.data.url} (${branchOf(info.data.ref)}).` : 'Not synced with a Git repository.'} Space admins
          connect the space to a repository.
        </Text>
      ) : connection.isPending ? (
        <Loader size="sm" />
      ) : connected && !editing ? (
        <ConnectionSummary connection={connected} />
      ) : (
        <ConnectionForm
          spaceId={spaceId}
          connection={connected ?? undefined}
          onDone={() => setEditing(false)}
          onCancel={connected ? () => setEditing(false) : undefined}
        />
      )}
    </Paper>
  )
  const sync = (
    <SyncPanel
      spaceId={spaceId}
      info={info.data ?? null}
      canSync={space.permissions.triggerGitSync && (!admin || !!connected)}
      locked={space.editMode === 'locked'}
    />
  )
  // Connected, syncing is what the screen is for: it comes first; before that, connecting does.
  return (
    <Stack gap="lg" className={classes.screen} data-testid="git-screen">
      {connected || !admin ? (
        <>
          {sync}
          {repository}
        </>
      ) : (
        <>
          {repository}
          {sync}
        </>
      )}
    </Stack>
  )
}

function ConnectionSummary({ connection }: { connection: GitConnection }) {
  return (
    <dl className={classes.facts} data-testid="git-connection">
      <dt>URL</dt>
      <dd>
        <Code data-testid="git-connection-url">{connection.url}</Code>
      </dd>
      <dt>Branch</dt>
      <dd>
        <Group gap={4}>
          <IconGitBranch size={14} />
          <Text size="sm" span data-testid="git-connection-branch">
            {branchOf(connection.ref)}
          </Text>
        </Group>
      </dd>
      <dt>Folder</dt>
      <dd>
        <Text size="sm" span>
          {connection.repoProjectDirectory || 'The repository root'}
        </Text>
      </dd>
      <dt>Credentials</dt>
      <dd>
        <Text size="sm" span data-testid="git-connection-credentials">
          {connection.credentials ? 'Stored, sealed on this computer' : 'None'}
        </Text>
      </dd>
    </dl>
  )
}

type ConnectionValues = {
  url: string
  branch: string
  folder: string
  username: string
  token: string
  commitUrl: string
}

function ConnectionForm({
  spaceId,
  connection,
  onDone,
  onCancel
}: {
  spaceId: string
  connection?: GitConnection
  onDone: () => void
  onCancel?: () => void
}) {
  const save = useSaveGitConnection(spaceId)
  const form = useForm<ConnectionValues>({
    initialValues: {
      url: connection?.url ?? '',
      branch: connection ? branchOf(connection.ref) : 'main',
      folder: connection?.repoProjectDirectory ?? '',
      username: '',
      token: '',
      commitUrl: connection?.repoCommitURL ?? ''
    },
    validate: {
      url: (v) => (v.trim() ? null : 'Enter the repository URL or folder'),
      branch: (v) => (v.trim() ? null : 'Enter a branch')
    }
  })
  const submit = form.onSubmit((values) =>
    save.mutate(
      {
        url: values.url.trim(),
        ref: refOf(values.branch),
        repoProjectDirectory: values.folder.trim(),
        ...(values.commitUrl.trim() ? { repoCommitURL: values.commitUrl.trim() } : {}),
        ...(values.token ? { token: values.token, ...(values.username.trim() ? { username: values.username.trim() } : {}) } : {})
      },
      {
        onSuccess: () => {
          notifySuccess('Connected to the repository')
          onDone()
        },
        onError: (e) => applyFormError(form, e, { ref: 'branch', repoProjectDirectory: 'folder', repoCommitURL: 'commitUrl' })
      }
    )
  )
  return (
    <form onSubmit={submit} data-testid="git-connection-form">
      <Stack gap="sm">
        <TextInput
          label="Repository URL"
          description="An http(s) URL, a file:// URL or a folder on this computer"
          placeholder="https://git.example.com/team/docs.git"
          {...form.getInputProps('url')}
        />
        <div className={classes.pair}>
          <TextInput label="Branch" {...form.getInputProps('branch')} />
          <TextInput label="Project folder" description="Inside the repository; empty for its root" {...form.getInputProps('folder')} />
        </div>
        <div className={classes.pair}>
          <TextInput label="Username" description="With a token; optional" autoComplete="off" {...form.getInputProps('username')} />
          <PasswordInput
            label="Access token or password"
            description={connection?.credentials ? 'Stored; leave empty to keep it' : 'Stored sealed, never shown again'}
            autoComplete="new-password"
            {...form.getInputProps('token')}
          />
        </div>
        <TextInput
          label="Commit link prefix"
          description="Optional: a commit's web page is this plus its id"
          placeholder="https://git.example.com/team/docs/commit/"
          {...form.getInputProps('commitUrl')}
        />
        {onCancel ? (
          <DialogActions onCancel={onCancel} submit="Save connection" loading={save.isPending} submitTestId="git-connect" />
        ) : (
          <Group justify="flex-end">
            <Button type="submit" leftSection={<IconPlugConnected size={16} />} loading={save.isPending} data-testid="git-connect">
              Connect
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  )
}

function DisconnectButton({ spaceId }: { spaceId: string }) {
  const remove = useDeleteGitConnection(spaceId)
  return (
    <Button
      variant="default"
      color="red"
      size="xs"
      loading={remove.isPending}
      onClick={() =>
        modals.openConfirmModal({
          title: 'Disconnect the repository?',
          children: (
            <Text size="sm">
              The space forgets the repository and its stored credentials. Nothing changes in the repository or in the space’s pages.
            </Text>
          ),
          labels: { confirm: 'Disconnect', cancel: 'Cancel' },
          confirmProps: { color: 'red', 'data-testid': 'confirm-disconnect' } as Record<string, unknown>,
          onConfirm: () => remove.mutate()
        })
      }
    >
      Disconnect
    </Button>
  )
}

function SyncPanel({ spaceId, info, canSync, locked }: { spaceId: string; info: GitInfo | null; canSync: boolean; locked: boolean }) {
  const start = useStartGitSync(spaceId)
  const [forcing, setForcing] = useState(false)
  const busy = isBusy(info) || start.isPending
  const disabled = !canSync || busy
  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4">
          Sync
        </Title>
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconCloudDownload size={16} />}
            disabled={disabled}
            onClick={() => start.mutate({ operation: 'import' })}
            data-testid="git-import"
          >
            Import from Git
          </Button>
          <Button
            leftSection={<IconCloudUpload size={16} />}
            disabled={disabled}
            onClick={() => start.mutate({ operation: 'export' })}
            data-testid="git-export"
          >
            Export to Git
          </Button>
        </Group>
      </Group>
      {locked && (
        <Text size="sm" c="dimmed" mb="sm">
          The space is locked: unlock it to sync.
        </Text>
      )}
      {!info ? (
        <Text size="sm" c="dimmed" data-testid="git-never-synced">
          No sync yet. Import takes the branch’s pages into the space; export commits the space’s pages to the branch.
        </Text>
      ) : (
        <LastSync
          info={info}
          busy={busy}
          onImport={() => start.mutate({ operation: 'import' })}
          onForce={() => setForcing(true)}
          canSync={canSync}
        />
      )}
      <ForceExportDialog
        opened={forcing}
        info={info}
        onClose={() => setForcing(false)}
        onConfirm={() => {
          setForcing(false)
          start.mutate({ operation: 'export', force: true })
        }}
      />
    </Paper>
  )
}

function LastSync({
  info,
  busy,
  canSync,
  onImport,
  onForce
}: {
  info: GitInfo
  busy: boolean
  canSync: boolean
  onImport: () => void
  onForce: () => void
}) {
  const status = STATUS_LABELS[info.status]
  const running = isBusy(info)
  return (
    <Stack gap="sm" data-testid="git-last-sync" data-status={info.status}>
      <Group gap="xs">
        <Badge color={status.color} data-testid="git-status">
          {status.label}
        </Badge>
        <Text size="sm">
          {info.operation.direction === 'import' ? 'Import' : 'Export'} · {branchOf(info.ref)} of {info.repoName}
          {info.finishedAt && !running ? ` · ${formatRelative(info.finishedAt)}` : ''}
        </Text>
      </Group>
      {running && (
        <Group gap="xs" data-testid="git-progress">
          <Loader size="xs" />
          <Text size="sm">{info.status === 'pending' ? 'Waiting to start…' : progressText(info.operation.direction, info.progress)}</Text>
        </Group>
      )}
      {info.commit && (
        <Text size="sm">
          In step with commit{' '}
          {info.commitURL ? (
            <Anchor href={info.commitURL} target="_blank" rel="noopener noreferrer" ff="monospace" data-testid="git-commit">
              {shortSha(info.commit)}
            </Anchor>
          ) : (
            <Code data-testid="git-commit" title={info.commit}>
              {shortSha(info.commit)}
            </Code>
          )}
        </Text>
      )}
      {info.status === 'failed' && info.error && !isNonFastForward(info) && (
        <Alert color="red" icon={<IconAlertTriangle size={16} />} title={`The ${info.operation.direction} failed`} data-testid="git-error">
          {info.error}
        </Alert>
      )}
      {isNonFastForward(info) && (
        <Alert color="orange" icon={<IconAlertTriangle size={16} />} title="The branch moved" data-testid="git-non-fast-forward">
          <Text size="sm" mb="sm">
            The branch {branchOf(info.ref)} has commits this space has not imported, so the export stopped. Import them first, then export
            again; or force the export to write the space’s pages over them.
          </Text>
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={onImport} disabled={busy || !canSync} data-testid="git-import-first">
              Import first
            </Button>
            <Button size="xs" color="red" variant="light" onClick={onForce} disabled={busy || !canSync} data-testid="git-force-export">
              Force export…
            </Button>
          </Group>
        </Alert>
      )}
    </Stack>
  )
}

function ForceExportDialog({
  opened,
  info,
  onClose,
  onConfirm
}: {
  opened: boolean
  info: GitInfo | null
  onClose: () => void
  onConfirm: () => void
}) {
  const branch = info ? branchOf(info.ref) : ''
  return (
    <Modal opened={opened} onClose={onClose} title="Force the export?" data-testid="git-force-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault()
          onConfirm()
        }}
      >
        <Stack gap="sm">
          <Text size="sm">
            The space’s pages are committed on top of {branch}
            {info?.commit ? (
              <>
                {' '}
                as it is now: what its commits since <Code>{shortSha(info.commit)}</Code> changed in the pages’ files, SUMMARY.md and the
                space’s files is overwritten.
              </>
            ) : (
              ': what its newer commits changed in the pages’ files is overwritten.'
            )}
          </Text>
          <Text size="sm">Those commits stay in the branch’s history; other files of the repository stay as they are.</Text>
          <DialogActions onCancel={onClose} submit="Force export" submitTestId="git-confirm-force" />
        </Stack>
      </form>
    </Modal>
  )
}

/** Once an import finishes, the space's pages, files and revision are read again (the job wrote them). */
function useFollowFinishedImport(spaceId: string, info: GitInfo | null | undefined) {
  const client = useQueryClient()
  const wasBusy = useRef(false)
  useEffect(() => {
    const busy = isBusy(info)
    if (wasBusy.current && !busy && info?.operation.direction === 'import' && info.status === 'succeeded') {
      void client.invalidateQueries({
        predicate: (q) => q.queryKey[0] === 'spaces' && q.queryKey[1] === spaceId && q.queryKey[2] !== 'git'
      })
      notifySuccess('Imported from Git')
    }
    wasBusy.current = busy
  }, [client, spaceId, info])
}
