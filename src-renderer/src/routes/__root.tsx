import type { QueryClient } from '@tanstack/react-query'
import { EmptyState } from '@mantine/core'
import { IconMapSearch } from '@tabler/icons-react'
import { Outlet, createRootRouteWithContext } from '@tanstack/react-router'
import { AppShell } from '../features/shell/AppShell.tsx'
import { ErrorScreen } from '../features/common/ErrorScreen.tsx'
import { useScreenReady } from '../features/common/screen.ts'

export interface RouterContext {
  queryClient: QueryClient
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <AppShell>
      <Outlet />
    </AppShell>
  ),
  errorComponent: ErrorScreen,
  notFoundComponent: NotFound
})

function NotFound() {
  useScreenReady()
  return (
    <EmptyState
      mt={96}
      icon={<IconMapSearch size={28} stroke={1.6} />}
      withIndicatorBackground
      title="Nothing here"
      description="This address does not lead to a screen of Quire."
    />
  )
}
