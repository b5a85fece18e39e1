import { Code, EmptyState } from '@mantine/core'
import { IconKey } from '@tabler/icons-react'
import { useReportAppState } from '../../app/appState.ts'

export function SignedOut() {
  useReportAppState('signed-out')
  return (
    <EmptyState
      mt={96}
      role="alert"
      data-testid="no-token"
      variant="light"
      icon={<IconKey size={28} stroke={1.6} />}
      title="Not signed in"
      description={
        <>
          This page needs an access token. Open the address printed by <Code>quire serve</Code> (it ends in <Code>/?token=…</Code>), or
          create one with <Code>quire token create</Code>.
        </>
      }
    />
  )
}
