import type { ErrorComponentProps } from '@tanstack/react-router'
import { useQueryErrorResetBoundary } from '@tanstack/react-query'
import { Button, EmptyState } from '@mantine/core'
import { IconAlertTriangle, IconLockAccess, IconPlugConnectedX, IconSearchOff } from '@tabler/icons-react'
import { useEffect } from 'react'
import { ApiError } from '../../api/client.ts'
import { useReportAppState } from '../../app/appState.ts'

function describe(error: unknown): { title: string; detail: string; icon: typeof IconAlertTriangle } {
  if (error instanceof ApiError) {
    if (error.status === 401)
      return { title: 'Your access token was not accepted', detail: 'Open the address printed by quire serve again, or create a new token.', icon: IconLockAccess }
    if (error.status === 404) return { title: 'Not found', detail: `${error.message} It may have been deleted, or you may not have access.`, icon: IconSearchOff }
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
        <Button variant="default" onClick={reset}>
          Try again
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  )
}
