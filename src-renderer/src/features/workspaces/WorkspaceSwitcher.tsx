import { useState } from 'react'
import { Button, Group, Menu, Modal, Skeleton, Stack, Text, TextInput, ThemeIcon, UnstyledButton } from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconCheck, IconDatabase, IconPlus, IconSelector, IconSettings } from '@tabler/icons-react'
import type { Workspace, WorkspaceList } from '../../api/types.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { ManageWorkspacesModal } from './ManageWorkspacesModal.tsx'
import { nameFieldError } from './names.ts'
import { useCreateWorkspace, useSwitchWorkspace, useWorkspaceSwitch } from './queries.ts'
import classes from './Workspaces.module.css'
import { DialogActions } from '../common/DialogActions.tsx'

function WorkspaceIcon({ size = 30 }: { size?: number }) {
  return (
    <ThemeIcon size={size} radius="md" variant="light" color="gray">
      <IconDatabase size={Math.round(size * 0.55)} stroke={1.6} />
    </ThemeIcon>
  )
}

/**
 * The sidebar's top: which local workspace the app shows (each its own database: users, organizations,
 * spaces) and a menu to switch, create and manage them. A server that serves one workspace says how to keep several.
 */
export function WorkspaceSwitcher({ list }: { list: WorkspaceList | undefined }) {
  const switchTo = useSwitchWorkspace()
  const switchingTo = useWorkspaceSwitch((s) => s.switchingTo)
  const [creating, setCreating] = useState(false)
  const [managing, setManaging] = useState(false)

  if (!list) {
    return (
      <Group gap={10} wrap="nowrap" className={classes.button} aria-busy="true">
        <Skeleton height={30} width={30} radius="md" />
        <Skeleton height={12} width={120} />
      </Group>
    )
  }
  const active = list.items.find((w) => w.id === list.active)
  const name = switchingTo ?? active?.name ?? 'Workspace'

  return (
    <>
      <Menu position="bottom-start" width={248} offset={6}>
        <Menu.Target>
          <UnstyledButton className={classes.button} data-testid="workspace-switcher" aria-label="Switch workspace">
            <Group gap={10} wrap="nowrap">
              <WorkspaceIcon />
              <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                <Text size="sm" fw={600} truncate data-testid="current-workspace">
                  {name}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {switchingTo ? 'Switching…' : 'Workspace'}
                </Text>
              </Stack>
              <IconSelector size={16} stroke={1.5} color="var(--mantine-color-dimmed)" />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown data-testid="workspace-menu">
          <Menu.Label>Workspaces</Menu.Label>
          {list.items.map((workspace) => (
            <Menu.Item
              key={workspace.id}
              data-testid="workspace-item"
              leftSection={<IconDatabase size={16} stroke={1.6} />}
              rightSection={workspace.active ? <IconCheck size={14} aria-label="Active" /> : null}
              disabled={switchingTo !== null}
              onClick={() => {
                if (!workspace.active) void switchTo(workspace)
              }}
            >
              <Text size="sm" truncate>
                {workspace.name}
              </Text>
            </Menu.Item>
          ))}
          <Menu.Divider />
          {list.switchable ? (
            <>
              <Menu.Item leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} data-testid="new-workspace">
                New workspace…
              </Menu.Item>
              <Menu.Item leftSection={<IconSettings size={16} />} onClick={() => setManaging(true)} data-testid="manage-workspaces">
                Manage workspaces…
              </Menu.Item>
            </>
          ) : (
            <Text size="xs" c="dimmed" px="sm" py={6} data-testid="workspace-single-note">
              This server serves one workspace. Start it with <code>quire serve --home DIR</code> to keep several and switch between them.
            </Text>
          )}
        </Menu.Dropdown>
      </Menu>
      {list.switchable && (
        <>
          <NewWorkspaceModal opened={creating} onClose={() => setCreating(false)} onSwitch={(w) => void switchTo(w)} />
          <ManageWorkspacesModal opened={managing} onClose={() => setManaging(false)} list={list} />
        </>
      )}
    </>
  )
}

/** Name a new workspace; once it exists, offer to switch to it (creating never switches by itself). */
function NewWorkspaceModal({ opened, onClose, onSwitch }: { opened: boolean; onClose: () => void; onSwitch: (workspace: Workspace) => void }) {
  const create = useCreateWorkspace()
  const [created, setCreated] = useState<Workspace | null>(null)
  const form = useForm({ initialValues: { name: '' }, validate: { name: (value) => nameFieldError(value) } })
  const close = () => {
    form.reset()
    create.reset()
    setCreated(null)
    onClose()
  }
  return (
    <Modal opened={opened} onClose={close} title={created ? 'Workspace created' : 'New workspace'} data-testid="new-workspace-dialog">
      {created ? (
        <Stack>
          <Text size="sm">
            “{created.name}” is ready, with its own organization. Nothing in it is shared with the workspace you are in now.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close} data-testid="workspace-stay">
              Stay here
            </Button>
            <Button
              data-autofocus
              onClick={() => {
                close()
                onSwitch(created)
              }}
              data-testid="workspace-switch-now"
            >
              Switch now
            </Button>
          </Group>
        </Stack>
      ) : (
        <form
          onSubmit={form.onSubmit((values) =>
            create.mutate(
              { name: values.name.trim() },
              {
                onSuccess: (workspace) => {
                  notifySuccess(`Workspace “${workspace.name}” created`)
                  setCreated(workspace)
                },
                onError: (error) => applyFormError(form, error),
              },
            ),
          )}
        >
          <Stack>
            <Text size="sm" c="dimmed">
              A workspace is a separate database on this computer, with its own people, organizations and spaces.
            </Text>
            <TextInput label="Name" placeholder="Handbook" data-autofocus required {...form.getInputProps('name')} data-testid="workspace-name-input" />
            <DialogActions onCancel={close} submit="Create" loading={create.isPending} submitTestId="workspace-create-submit" />
          </Stack>
        </form>
      )}
    </Modal>
  )
}
