import '@mantine/core/styles.css'
import '@mantine/notifications/styles.css'
import '@mantine/spotlight/styles.css'
import './styles.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { MantineProvider } from '@mantine/core'
import { ModalsProvider } from '@mantine/modals'
import { Notifications } from '@mantine/notifications'
import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider, createHashHistory, createRouter } from '@tanstack/react-router'
import { routeTree } from './routeTree.gen.ts'
import { ApiError } from './api/client.ts'
import { queryClient, subscribeToDataChanges } from './app/queryClient.ts'
import { adoptThemeCssVariables, theme } from './app/theme.ts'
import { ScreenSkeleton } from './features/common/Skeletons.tsx'
import { ErrorScreen } from './features/common/ErrorScreen.tsx'

// Hash history: the desktop app loads index.html from file://, where path-based URLs cannot resolve.
const router = createRouter({
  routeTree,
  history: createHashHistory(),
  context: { queryClient },
  defaultPreload: 'intent',
  // Loaders read through the query cache, which has its own staleness; the router need not cache too.
  defaultPreloadStaleTime: 0,
  defaultPendingComponent: () => <ScreenSkeleton />,
  // A screen that fails to load shows why in its place, inside the shell: the sidebar and the connection banner stay.
  defaultErrorComponent: ErrorScreen,
  defaultPendingMs: 150,
  scrollRestoration: true
})

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}

subscribeToDataChanges(queryClient)
adoptThemeCssVariables()

createRoot(document.getElementById('root')!, {
  // A screen that could not load its data says why (ErrorScreen): an API's answer is no script error, so it is
  // only noted; anything else an error boundary caught is a bug and logged as one (React's default).
  onCaughtError: (error, info) => {
    if (error instanceof ApiError) console.warn(`${error.status} ${error.message}`)
    else console.error(error, info.componentStack)
  }
}).render(
  <StrictMode>
    {/* withCssVariables / withGlobalClasses off: both write <style> elements the CSP refuses (see theme.ts). */}
    <MantineProvider theme={theme} defaultColorScheme="auto" withCssVariables={false} withGlobalClasses={false}>
      <QueryClientProvider client={queryClient}>
        <ModalsProvider labels={{ confirm: 'Confirm', cancel: 'Cancel' }}>
          <Notifications position="bottom-right" limit={4} />
          <RouterProvider router={router} />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>
)
