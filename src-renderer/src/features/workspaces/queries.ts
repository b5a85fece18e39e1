import { useCallback, useEffect } from 'react'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useRouter, type AnyRouter } from '@tanstack/react-router'
import { create } from 'zustand'
import { WORKSPACES_PATH, WORKSPACES_QUERY_KEY, type WorkspaceInput } from '../../../../src-shared/workspaces.ts'
import { api } from '../../api/client.ts'
import type { Workspace, WorkspaceList } from '../../api/types.ts'
import { notifyError, notifyInfo, notifySuccess } from '../../app/notify.ts'

// Keys under ['app', 'workspaces'] mirror the path (`/app/workspaces`); main's data-changed event sends that prefix.
export const workspacesQuery = () =>
  queryOptions({
    queryKey: WORKSPACES_QUERY_KEY,
    queryFn: () => api.request<WorkspaceList>('GET', WORKSPACES_PATH),
    staleTime: 60_000,
  })

const workspacePath = (id: string) => `${WORKSPACES_PATH}/${encodeURIComponent(id)}`

/** A workspace on this computer (`{name}`), or one connected to a server (`{name, remote: {url, token}}`). */
export function useCreateWorkspace() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: WorkspaceInput) => api.request<Workspace>('POST', WORKSPACES_PATH, body),
    meta: { inlineErrors: true },
    onSuccess: () => client.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY }),
  })
}

export function useRenameWorkspace() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => api.request<Workspace>('PATCH', workspacePath(id), { name }),
    meta: { inlineErrors: true },
    onSuccess: () => client.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY }),
  })
}

/**
 * Reloads what the screen shows once the active workspace's server answers again (a check, a new token): the
 * route's loaders run again (a screen that failed to load comes back) and the queries on screen refetch.
 */
export function useRefreshAfterReconnect() {
  const client = useQueryClient()
  const router = useRouter()
  return useCallback(() => {
    void client.invalidateQueries({ type: 'active' })
    void router.invalidate()
  }, [client, router])
}

/** Asks a connected workspace's server now (`POST …/check`); the list then shows what it found. */
export function useCheckConnection() {
  const client = useQueryClient()
  const refresh = useRefreshAfterReconnect()
  return useMutation({
    mutationFn: (id: string) => api.request<Workspace>('POST', `${workspacePath(id)}/check`),
    onSuccess: (workspace) => {
      void client.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY })
      if (workspace.active && workspace.remote?.connection.status === 'online') refresh()
    },
  })
}

/** A new token for a connected workspace (`PATCH {remote: {token}}`): the server must name the same account. */
export function useChangeToken() {
  const client = useQueryClient()
  const refresh = useRefreshAfterReconnect()
  return useMutation({
    mutationFn: ({ id, token }: { id: string; token: string }) => api.request<Workspace>('PATCH', workspacePath(id), { remote: { token } }),
    meta: { inlineErrors: true },
    onSuccess: (workspace) => {
      void client.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY })
      if (workspace.active) refresh()
    },
  })
}

/**
 * The active workspace's connection changed (an answer's `quire-remote-status` differs from the last one): the
 * list, which the switcher and the connection banner read, is asked again. No polling: answers tell.
 */
export function useFollowConnectionStatus() {
  const client = useQueryClient()
  useEffect(() => api.onRemoteStatus(() => void client.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY })), [client])
}

export function useDeleteWorkspace() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.request<void>('DELETE', workspacePath(id)),
    onSuccess: () => client.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY }),
  })
}

/** The switch in progress (UI state): the shell shows "Switching to …" instead of a screen meanwhile. */
export const useWorkspaceSwitch = create<{ switchingTo: string | null }>(() => ({ switchingTo: null }))

/**
 * Asks the current screen's navigation blockers whether it may be left, as a navigation would: the page
 * editor writes what it has not saved yet (or asks the user), so no edit lands in the other workspace.
 */
async function screenMayBeLeft(router: AnyRouter): Promise<boolean> {
  const { history } = router
  for (const blocker of history._getBlockers()) {
    if (await blocker.blockerFn({ currentLocation: history.location, nextLocation: history.location, action: 'PUSH' })) return false
  }
  return true
}

/**
 * Switches the app to another workspace: leave the screen (unsaved edits written first), activate, reset every
 * cached answer of the old workspace, then open `/`, which leads to the new workspace's first organization.
 */
export function useSwitchWorkspace() {
  const client = useQueryClient()
  const router = useRouter()
  return useCallback(
    async (workspace: Pick<Workspace, 'id' | 'name'>): Promise<boolean> => {
      if (useWorkspaceSwitch.getState().switchingTo !== null) return false
      if (!(await screenMayBeLeft(router))) return false
      useWorkspaceSwitch.setState({ switchingTo: workspace.name })
      try {
        await api.request<Workspace>('POST', `${workspacePath(workspace.id)}/activate`)
        api.expectWorkspace(workspace.id)
      } catch (error) {
        useWorkspaceSwitch.setState({ switchingTo: null })
        notifyError(error, `Could not switch to ${workspace.name}`)
        return false
      }
      try {
        // Every key (['orgs', …], ['spaces', …], ['user']) now means something else: reset them all (the shell's
        // own queries refetch at once; the old screens' are gone with their screens).
        void client.resetQueries()
        await router.navigate({ to: '/', ignoreBlocker: true })
      } finally {
        useWorkspaceSwitch.setState({ switchingTo: null })
      }
      notifySuccess(`Switched to ${workspace.name}`)
      return true
    },
    [client, router],
  )
}

/**
 * Another window switched the server to another workspace: every cached answer belongs to the old one, so this
 * window resets and opens the home of the workspace now open (its requests were refused meanwhile, so nothing
 * was read from or written to the wrong database).
 */
export function useFollowWorkspaceSwitches() {
  const client = useQueryClient()
  const router = useRouter()
  useEffect(
    () =>
      api.onWorkspaceChanged(() => {
        if (useWorkspaceSwitch.getState().switchingTo !== null) return
        void client.resetQueries()
        void router.navigate({ to: '/', ignoreBlocker: true })
        notifyInfo('Another window switched to another workspace: this window now shows it')
      }),
    [client, router],
  )
}
