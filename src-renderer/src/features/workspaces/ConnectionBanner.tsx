import { useState } from 'react'
import { Button, Text } from '@mantine/core'
import { IconCloudOff, IconKeyOff } from '@tabler/icons-react'
import type { WorkspaceList } from '../../api/types.ts'
import { notifySuccess } from '../../app/notify.ts'
import { formatTime } from '../common/format.ts'
import { ChangeTokenModal } from './ChangeTokenForm.tsx'
import { useCheckConnection, useWorkspaceSwitch } from './queries.ts'
import { isCutOff, remoteHost } from './remote.ts'
import classes from './Workspaces.module.css'

/**
 * A slim bar above the screen while the active workspace's server cannot be reached or refuses its token: what
 * the server last said, "Try again" (asks it now, then reloads the screen once it answers) and, for a refused
 * token, "Change token…". Nothing at all while the connection is fine.
 */
export function ConnectionBanner({ list }: { list: WorkspaceList | undefined }) {
  const check = useCheckConnection()
  const switchingTo = useWorkspaceSwitch((s) => s.switchingTo)
  const [changingToken, setChangingToken] = useState(false)
  const active = list?.items.find((w) => w.id === list.active)
  if (!active?.remote || !isCutOff(active) || switchingTo !== null) return null
  const { connection } = active.remote
  const host = remoteHost(active.remote.url)
  const refused = connection.status === 'refused'
  const Icon = refused ? IconKeyOff : IconCloudOff
  return (
    <div className={classes.banner} data-status={connection.status} role="alert" data-testid="connection-banner">
      <Icon size={16} stroke={1.8} className={classes.bannerIcon} aria-hidden />
      <Text size="sm" fw={600} className={classes.bannerTitle} data-testid="connection-banner-title">
        {refused ? 'Token refused' : 'Cannot reach the server'}
      </Text>
      <Text size="sm" className={classes.bannerMessage} data-testid="connection-banner-message">
        {connection.message ?? (refused ? `${host} refused this workspace's token` : `${host} did not answer`)}
      </Text>
      {connection.checkedAt && (
        <Text size="xs" className={classes.bannerTime}>
          Tried {formatTime(connection.checkedAt)}
        </Text>
      )}
      <Button
        size="compact-sm"
        variant="default"
        loading={check.isPending}
        onClick={() =>
          check.mutate(active.id, {
            onSuccess: (workspace) => {
              if (workspace.remote?.connection.status === 'online') notifySuccess(`${host} answers again`)
            },
          })
        }
        data-testid="connection-retry"
      >
        Try again
      </Button>
      {refused && (
        <Button size="compact-sm" color="red" onClick={() => setChangingToken(true)} data-testid="connection-change-token">
          Change token…
        </Button>
      )}
      <ChangeTokenModal workspace={active} opened={changingToken} onClose={() => setChangingToken(false)} />
    </div>
  )
}
