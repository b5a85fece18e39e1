import { useRouter, type ErrorComponentProps } from '@tanstack/react-router'
import { useQueryErrorResetBoundary } from '@tanstack/react-query'
import { Button, EmptyState } from '@mantine/core'
import { IconAlertTriangle, IconCloudOff, IconKeyOff, IconLockAccess, IconPlugConnectedX, IconSearchOff } from '@tabler/icons-react'
import { useEffect } from 'react'
import { ApiError, REMOTE_OFFLINE, REMOTE_REFUSED, REMOTE_UNREACHABLE } from '../../api/client.ts'
import { useReportAppState } from '../../app/appState.ts'

function describe(error: unknown): { title: string; detail: string; icon: typeof IconAlertTriangle } {
  if (error instanceof ApiError) {
    // A connected workspace's server, not this app, refused the workspace's token or did not answer.
    if (error.code === REMOTE_REFUSED)
      return { title: "The server refused this workspace's token", detail: error.message, icon: IconKeyOff }
    if (error.code === REMOTE_UNREACHABLE || error.status === 502 || error.status === 504)
      return { title: 'Cannot reach the server', detail: error.message, icon: IconCloudOff }
    // The copy on this computer answered for the server, and does not keep this (its message says what it keeps).
    if (error.code === REMOTE_OFFLINE) return { title: 'Not available offline', detail: error.message, icon: IconCloudOff }
    if (error.status === 401)
      return {
        title: 'Your access token was not accepted',
        detail: 'Open the address printed by quire serve again, or create a new token.',
        icon: IconLockAccess
      }
    if (error.status === 404)
      return { title: 'Not found', detail: `${error.message} It may have been deleted, or you may not have access.`, icon: IconSearchOff }
    if (error.status === 403) return { title: 'You do not have access', detail: error.message, icon: IconLockAccess }
    if (error.status === 0) return { title: 'Cannot reach Quire', detail: error.message, icon: IconPlugConnectedX }
    return { title: 'Something went wrong', detail: error.message, icon: IconAlertTriangle }
  }
  return { title: 'Something went wrong', detail: error instanceof Error ? error.message : String(error), icon: IconAlertTriangle }
}

/** A screen whose data failed to load: the API's message where the screen would have been, and a retry. */
export function ErrorScreen({ error, reset }: ErrorComponentProps) {
  useReportAppState('error')
  const queryReset = useQueryErrorResetBoundary()
  const router = useRouter()
  useEffect(() => queryReset.reset(), [queryReset])
  const { title, detail, icon: Icon } = describe(error)
  return (
    <EmptyState
      mt={64}
      role="alert"
      data-testid="error"
      variant="light"
      color="red"
      icon={<Icon size={28} stroke={1.6} />}
      title={title}
      description={detail}
    >
      <EmptyState.Actions>
        {/* The boundary alone would show the same failed load again: the route's loaders run again first. */}
        <Button
          variant="default"
          onClick={() => {
            void router.invalidate()
            reset()
          }}
          data-testid="error-retry"
        >
          Try again
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  )
}
