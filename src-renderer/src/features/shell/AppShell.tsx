import type { ReactNode } from 'react'
import { ActionIcon, Kbd, Tooltip, UnstyledButton } from '@mantine/core'
import { spotlight } from '@mantine/spotlight'
import {
  IconApi,
  IconLayoutSidebar,
  IconPlugConnected,
  IconSearch,
  IconSettings,
  IconStack2,
  IconTrash,
  IconUsers,
  IconWorld
} from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import { useUiStore } from '../../stores/uiStore.ts'
import { RouterNavLink } from '../common/links.tsx'
import { SignedOut } from '../common/SignedOut.tsx'
import { orgsQuery, userQuery } from '../orgs/queries.ts'
import { CommandPalette } from '../palette/CommandPalette.tsx'
import { ConnectionBanner } from '../workspaces/ConnectionBanner.tsx'
import { useFollowConnectionStatus, useFollowWorkspaceSwitches, workspacesQuery, useWorkspaceSwitch } from '../workspaces/queries.ts'
import { SwitchingWorkspace } from '../workspaces/SwitchingWorkspace.tsx'
import { UnsentChangesButton } from '../workspaces/UnsentChanges.tsx'
import { WorkspaceSwitcher } from '../workspaces/WorkspaceSwitcher.tsx'
import { useCurrentOrgId } from './currentOrg.ts'
import { OrgSwitcher } from './OrgSwitcher.tsx'
import { UserMenu } from './UserMenu.tsx'
import classes from './AppShell.module.css'

const isMac = typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform)

export function AppShell({ children }: { children: ReactNode }) {
  if (!api.hasCredentials) {
    return (
      <main className={classes.content}>
        <div className={classes.page}>
          <SignedOut />
        </div>
      </main>
    )
  }
  return <SignedInShell>{children}</SignedInShell>
}

function SignedInShell({ children }: { children: ReactNode }) {
  const sidebarOpen = useUiStore((s) => s.sidebarOpen)
  const toggleSidebar = useUiStore((s) => s.toggleSidebar)
  const user = useQuery(userQuery())
  const orgs = useQuery(orgsQuery())
  const orgId = useCurrentOrgId(orgs.data)
  // A server without /app/workspaces for this caller (another user's token) keeps the shell as it was.
  const workspaces = useQuery({ ...workspacesQuery(), retry: false })
  const switchingTo = useWorkspaceSwitch((s) => s.switchingTo)
  useFollowWorkspaceSwitches()
  useFollowConnectionStatus()
  const orgSwitcher = <OrgSwitcher orgs={orgs.data ?? []} currentId={orgId} />

  return (
    <div className={classes.shell} data-sidebar={sidebarOpen ? 'open' : 'closed'}>
      {sidebarOpen && (
        <aside className={classes.sidebar}>
          {workspaces.isError ? (
            <div className={classes.sidebarTop}>{orgSwitcher}</div>
          ) : (
            <>
              <div className={classes.sidebarTop}>
                <WorkspaceSwitcher list={workspaces.data} />
              </div>
              <div className={classes.orgBar}>{orgSwitcher}</div>
            </>
          )}
          {orgId && <Navigation orgId={orgId} />}
        </aside>
      )}
      <div className={classes.main}>
        <header className={classes.header}>
          <Tooltip label={sidebarOpen ? 'Hide sidebar' : 'Show sidebar'}>
            <ActionIcon size="lg" aria-label="Toggle sidebar" aria-pressed={sidebarOpen} onClick={toggleSidebar}>
              <IconLayoutSidebar size={18} stroke={1.6} />
            </ActionIcon>
          </Tooltip>
          <UnstyledButton
            className={classes.search}
            onClick={() => spotlight.open()}
            data-testid="open-palette"
            aria-label="Search or jump to (Ctrl+K)"
          >
            <IconSearch size={15} stroke={1.8} />
            <span className={classes.searchLabel}>Search or jump to…</span>
            <Kbd size="xs">{isMac ? '⌘' : 'Ctrl'} K</Kbd>
          </UnstyledButton>
          <span style={{ flex: 1 }} />
          {!workspaces.isError && <UnsentChangesButton list={workspaces.data} />}
          <UserMenu user={user.data} />
        </header>
        {!workspaces.isError && <ConnectionBanner list={workspaces.data} />}
        <main className={classes.content} data-scroll-root>
          <div className={classes.page}>{switchingTo !== null ? <SwitchingWorkspace name={switchingTo} /> : children}</div>
        </main>
      </div>
      <CommandPalette orgId={orgId} />
    </div>
  )
}

function Navigation({ orgId }: { orgId: string }) {
  const params = { orgId }
  return (
    <>
      <nav className={classes.nav} aria-label="Main">
        <RouterNavLink
          className={classes.navLink}
          to="/orgs/$orgId"
          params={params}
          activeOptions={{ exact: true }}
          label="Spaces"
          leftSection={<IconStack2 size={18} stroke={1.6} />}
          data-testid="nav-spaces"
        />
        <RouterNavLink
          className={classes.navLink}
          to="/orgs/$orgId/sites"
          params={params}
          label="Sites"
          leftSection={<IconWorld size={18} stroke={1.6} />}
          data-testid="nav-sites"
        />
        <RouterNavLink
          className={classes.navLink}
          to="/orgs/$orgId/integrations"
          params={params}
          label="Integrations"
          leftSection={<IconPlugConnected size={18} stroke={1.6} />}
          data-testid="nav-integrations"
        />
        <RouterNavLink
          className={classes.navLink}
          to="/orgs/$orgId/openapi"
          params={params}
          label="API specs"
          leftSection={<IconApi size={18} stroke={1.6} />}
          data-testid="nav-openapi"
        />
        <RouterNavLink
          className={classes.navLink}
          to="/orgs/$orgId/team"
          params={params}
          label="Team"
          leftSection={<IconUsers size={18} stroke={1.6} />}
          data-testid="nav-team"
        />
        <RouterNavLink
          className={classes.navLink}
          to="/orgs/$orgId/settings"
          params={params}
          label="Settings"
          leftSection={<IconSettings size={18} stroke={1.6} />}
          data-testid="nav-settings"
        />
      </nav>
      <div className={classes.navFooter}>
        <RouterNavLink
          className={classes.navLink}
          to="/orgs/$orgId/trash"
          params={params}
          label="Trash"
          leftSection={<IconTrash size={18} stroke={1.6} />}
          data-testid="nav-trash"
        />
      </div>
    </>
  )
}
