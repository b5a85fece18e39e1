import { useState } from 'react'
import { Button, Text, Tooltip } from '@mantine/core'
import { IconCloudOff, IconKeyOff } from '@tabler/icons-react'
import type { WorkspaceList } from '../../api/types.ts'
import { notifySuccess } from '../../app/notify.ts'
import { formatTime } from '../common/format.ts'
import { ChangeTokenModal } from './ChangeTokenForm.tsx'
import { useCheckConnection, useWorkspaceSwitch } from './queries.ts'
import { isCutOff, remoteHost } from './remote.ts'
import classes from './Workspaces.module.css'

/**
 * A slim bar above the screen while the active workspace's server cannot be reached or refuses its token. Out of
 * reach, the app works offline from the workspace's copy on this computer: the bar says so, and that edits to
 * change requests are kept and sent later; a refused token shows what the server said and "Change token…". Both
 * offer "Try again" (asks the server now, then reloads the screen once it answers). Nothing while all is well.
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
        {refused ? 'Token refused' : 'Working offline'}
      </Text>
      <Text size="sm" className={classes.bannerMessage} data-testid="connection-banner-message">
        {refused
          ? (connection.message ?? `${host} refused this workspace's token`)
          : `${host} cannot be reached: showing what this computer keeps of it. Edits to change requests are kept here and sent when it answers.`}
      </Text>
      {connection.checkedAt &&
        (refused ? (
          <Text size="xs" className={classes.bannerTime}>
            Tried {formatTime(connection.checkedAt)}
          </Text>
        ) : (
          // What the copy shows is from the server's last answer; the last try, and why it failed, on hover.
          <Tooltip
            label={`${connection.message ?? `${host} did not answer`} (last tried ${formatTime(connection.checkedAt)})`}
            multiline
            maw={320}
          >
            <Text size="xs" className={classes.bannerTime} data-testid="connection-banner-time">
              {connection.answeredAt
                ? `Offline since ${formatTime(connection.answeredAt)}`
                : `Last tried ${formatTime(connection.checkedAt)}`}
            </Text>
          </Tooltip>
        ))}
      <Button
        size="compact-sm"
        variant="default"
        loading={check.isPending}
        onClick={() =>
          check.mutate(active.id, {
            onSuccess: (workspace) => {
              if (workspace.remote?.connection.status === 'online') notifySuccess(`${host} answers again`)
            }
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
