import { MutationCache, QueryClient } from '@tanstack/react-query'
import { ApiError, REMOTE_OFFLINE, REMOTE_REFUSED, REMOTE_UNREACHABLE, WORKSPACE_CHANGED } from '../api/client.ts'
import { notifyError } from './notify.ts'

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** The caller shows errors itself (inline form errors); skip the global toast. */
      inlineErrors?: boolean
    }
  }
}

const REMOTE_CODES = new Set([REMOTE_UNREACHABLE, REMOTE_OFFLINE, REMOTE_REFUSED])

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // 4xx answers will not change by asking again; transport failures might. A connected workspace's server
      // out of reach is not asked again at once (up to 30 s each), nor its copy for what it does not keep: the
      // connection banner offers "Try again".
      retry: (failureCount, error) =>
        !(error instanceof ApiError && ((error.status >= 400 && error.status < 500) || REMOTE_CODES.has(error.code))) && failureCount < 2
    }
  },
  // Every failed write the user started says why, where they are; forms opt out and show it by the field.
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) => {
      // A write refused because another window switched workspaces: the shell says so once (useFollowWorkspaceSwitches).
      if (error instanceof ApiError && error.code === WORKSPACE_CHANGED) return
      if (!mutation.meta?.inlineErrors) notifyError(error)
    }
  })
})

/** Desktop: main tells us which resources changed; invalidate those key prefixes, never everything. */
export function subscribeToDataChanges(client: QueryClient): () => void {
  const bridge = window.quire
  if (!bridge) return () => {}
  return bridge.onDataChanged(({ prefixes }) => {
    for (const queryKey of prefixes) void client.invalidateQueries({ queryKey })
  })
}
