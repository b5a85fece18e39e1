import { useState } from 'react'
import { Group, Menu, Skeleton, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core'
import { IconCheck, IconDatabaseExport, IconDatabaseImport, IconPlus, IconSelector, IconSettings } from '@tabler/icons-react'
import type { Workspace, WorkspaceList } from '../../api/types.ts'
import { ManageWorkspacesModal } from './ManageWorkspacesModal.tsx'
import { NewWorkspaceModal } from './NewWorkspaceModal.tsx'
import { OpenWorkspaceFileModal } from './OpenWorkspaceFileModal.tsx'
import { useBackupWorkspace, useSwitchWorkspace, useWorkspaceSwitch } from './queries.ts'
import { isCutOff, remoteHost } from './remote.ts'
import { WorkspaceKindIcon } from './WorkspaceKindIcon.tsx'
import classes from './Workspaces.module.css'

function WorkspaceIcon({ workspace, size = 30 }: { workspace: Workspace | undefined; size?: number }) {
  return (
    <ThemeIcon size={size} radius="md" variant="light" color={isCutOff(workspace) ? 'orange' : 'gray'}>
      <WorkspaceKindIcon workspace={workspace} size={Math.round(size * 0.55)} />
    </ThemeIcon>
  )
}

/**
 * The sidebar's top: which workspace the app shows (a database on this computer, or a connection to a server;
 * each its own users, organizations and spaces) and a menu to switch, create, back up, open from a file and manage
 * them. A workspace that cannot be opened is listed with a warning and leads to Manage workspaces, which says why.
 * A server that serves one workspace says how to keep several.
 */
export function WorkspaceSwitcher({ list }: { list: WorkspaceList | undefined }) {
  const switchTo = useSwitchWorkspace()
  const switchingTo = useWorkspaceSwitch((s) => s.switchingTo)
  const [creating, setCreating] = useState(false)
  const [managing, setManaging] = useState(false)
  const [openingFile, setOpeningFile] = useState(false)
  const backup = useBackupWorkspace()

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
              <WorkspaceIcon workspace={switchingTo ? undefined : active} />
              <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                <Text size="sm" fw={600} truncate data-testid="current-workspace">
                  {name}
                </Text>
                <Text
                  size="xs"
                  c="dimmed"
                  truncate
                  title={!switchingTo ? active?.remote?.url : undefined}
                  data-testid="current-workspace-kind"
                >
                  {switchingTo ? 'Switching…' : active?.remote ? `Connected · ${remoteHost(active.remote.url)}` : 'Workspace'}
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
              leftSection={<WorkspaceKindIcon workspace={workspace} />}
              rightSection={workspace.active ? <IconCheck size={14} aria-label="Active" /> : null}
              disabled={switchingTo !== null}
              onClick={() => {
                // One that cannot be opened: Manage workspaces says why and what to do.
                if (workspace.problem) setManaging(true)
                else if (!workspace.active) void switchTo(workspace)
              }}
            >
              <Text size="sm" truncate>
                {workspace.name}
              </Text>
              {workspace.problem ? (
                <Text size="xs" c="orange" truncate data-testid="workspace-item-problem">
                  Cannot be opened
                </Text>
              ) : (
                workspace.remote && (
                  <Text size="xs" c="dimmed" truncate data-testid="workspace-item-host">
                    {remoteHost(workspace.remote.url)}
                  </Text>
                )
              )}
            </Menu.Item>
          ))}
          <Menu.Divider />
          {list.switchable ? (
            <>
              <Menu.Item leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} data-testid="new-workspace">
                New workspace…
              </Menu.Item>
              {active && !active.remote && (
                <Menu.Item
                  leftSection={<IconDatabaseExport size={16} />}
                  disabled={backup.isPending}
                  onClick={() => backup.mutate(active)}
                  data-testid="backup-workspace"
                >
                  Back up workspace…
                </Menu.Item>
              )}
              <Menu.Item
                leftSection={<IconDatabaseImport size={16} />}
                onClick={() => setOpeningFile(true)}
                data-testid="open-workspace-file"
              >
                Open workspace file…
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
          <OpenWorkspaceFileModal opened={openingFile} onClose={() => setOpeningFile(false)} onSwitch={(w) => void switchTo(w)} />
          <ManageWorkspacesModal
            opened={managing}
            onClose={() => setManaging(false)}
            list={list}
            onOpenFile={() => {
              setManaging(false)
              setOpeningFile(true)
            }}
          />
        </>
      )}
    </>
  )
}
