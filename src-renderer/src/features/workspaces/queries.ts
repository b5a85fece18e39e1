import { useCallback, useEffect } from 'react'
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useRouter, type AnyRouter } from '@tanstack/react-router'
import { create } from 'zustand'
import {
  WORKSPACES_PATH,
  WORKSPACES_QUERY_KEY,
  type OutboxList,
  type OutboxResolution,
  type OutboxSyncResult,
  type WorkspaceInput
} from '../../../../src-shared/workspaces.ts'
import { api } from '../../api/client.ts'
import type { Workspace, WorkspaceList } from '../../api/types.ts'
import { notifyError, notifyInfo, notifySuccess } from '../../app/notify.ts'
import { sessionsOf } from '../pages/pageSession.ts'
import { changeRequestsOf, renumberedPath } from './outbox.ts'
import { saveFile } from '../common/saveFile.ts'

/**
 * While the active workspace's server is out of reach, or writes wait to be sent, the list is asked again every
 * second: the workspace probes its server and sends by itself, and the banner and the pill follow within that.
 */
export const WATCH_MS = 1000

/** True when the active workspace is connected and offline, or keeps writes to send. */
export function watchesConnection(list: WorkspaceList | undefined): boolean {
  const remote = list?.items.find((w) => w.id === list.active)?.remote
  return !!remote && (remote.connection.status === 'unreachable' || (remote.outbox?.unsent ?? 0) > 0)
}

// Keys under ['app', 'workspaces'] mirror the path (`/app/workspaces`); main's data-changed event sends that prefix.
export const workspacesQuery = () =>
  queryOptions({
    queryKey: WORKSPACES_QUERY_KEY,
    queryFn: () => api.request<WorkspaceList>('GET', WORKSPACES_PATH),
    staleTime: 60_000,
    refetchInterval: (query) => (watchesConnection(query.state.data) ? WATCH_MS : false)
  })

const workspacePath = (id: string) => `${WORKSPACES_PATH}/${encodeURIComponent(id)}`

/** A workspace on this computer (`{name}`), or one connected to a server (`{name, remote: {url, token}}`). */
export function useCreateWorkspace() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: WorkspaceInput) => api.request<Workspace>('POST', WORKSPACES_PATH, body),
    meta: { inlineErrors: true },
    onSuccess: () => client.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY })
  })
}

export function useRenameWorkspace() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => api.request<Workspace>('PATCH', workspacePath(id), { name }),
    meta: { inlineErrors: true },
    onSuccess: () => client.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY })
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
    }
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
    }
  })
}

/**
 * The active workspace's connection changed (an answer's `quire-remote-status` differs from the last one), or the
 * number of writes it keeps to send did (`quire-unsent`): the list, which the switcher, the connection banner and
 * the unsent-changes pill read, is asked again (with the outbox, when it is open). Answers tell; while offline or
 * with writes to send, the list is also asked every second (workspacesQuery), since the workspace resumes by itself.
 */
export function useFollowConnectionStatus() {
  const client = useQueryClient()
  useEffect(() => {
    // One answer may change both: one refetch.
    let queued = false
    const refresh = () => {
      if (queued) return
      queued = true
      queueMicrotask(() => {
        queued = false
        void client.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY })
      })
    }
    const stopStatus = api.onRemoteStatus(refresh)
    const stopUnsent = api.onUnsent(refresh)
    return () => {
      stopStatus()
      stopUnsent()
    }
  }, [client])
}

// --- unsent changes (the active connected workspace's outbox) ----------------------------------------------------

const outboxPath = (id: string) => `${workspacePath(id)}/outbox`

/** The writes the active connected workspace keeps to send, oldest first. Under the list's key: main's event refreshes it. */
export const outboxQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: [...WORKSPACES_QUERY_KEY, workspaceId, 'outbox'],
    queryFn: () => api.request<OutboxList>('GET', outboxPath(workspaceId))
  })

/**
 * After a send, a retry or a discard: the outbox as answered, the list's counts, and the change requests it
 * touched (a sent one is the server's version now, a discarded one the server's again or gone), by number in
 * their space. A renumbered one is read under its new number only: asked for by the old one, the copy may pull
 * the server's change request of that number instead (see useFollowRenumbered).
 */
function afterOutboxWrite(
  client: QueryClient,
  workspaceId: string,
  answer: OutboxList & { renumbered?: OutboxSyncResult['renumbered'] },
  touched?: number
) {
  const key = outboxQuery(workspaceId).queryKey
  const before = client.getQueryData(key)?.items ?? []
  client.setQueryData(key, { items: answer.items })
  void client.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY, exact: true })
  const renumbered = answer.renumbered ?? []
  const oldNumbers = new Set(renumbered.map((r) => `${r.spaceId}:${r.from}`))
  const crs = changeRequestsOf(touched === undefined ? before : before.filter((i) => i.seq === touched)).filter(
    (cr) => !oldNumbers.has(`${cr.spaceId}:${cr.number}`)
  )
  // Change requests with nothing left to send are as their server has them now (discarded: gone, or as before the
  // edits; sent: merged with what others wrote meanwhile): an editor open on one of their pages shows that.
  const left = new Set(answer.items.map((i) => `${i.space.id}:${i.changeRequest.number}`))
  for (const cr of crs) {
    if (left.has(`${cr.spaceId}:${cr.number}`)) continue
    for (const session of sessionsOf(cr.spaceId, cr.number)) void session.useTheirs().catch(() => undefined)
  }
  crs.push(...renumbered.map((r) => ({ spaceId: r.spaceId, number: r.to })))
  for (const spaceId of new Set(crs.map((cr) => cr.spaceId))) {
    // The space's lists of change requests (any filters) and its counters.
    void client.invalidateQueries({
      queryKey: ['spaces', spaceId, 'change-requests'],
      predicate: ({ queryKey: k }) => k.length === 3 || (k.length === 4 && typeof k[3] === 'object')
    })
    void client.invalidateQueries({ queryKey: ['spaces', spaceId], exact: true })
  }
  for (const cr of crs) void client.invalidateQueries({ queryKey: ['spaces', cr.spaceId, 'change-requests', String(cr.number)] })
}

/**
 * A change request made offline got another number from its server: a screen showing it by the copy's number
 * (its screen, a page in it) moves to the server's, in place (no history entry; the editor's blocker saves first).
 * What was cached under the old number then goes: on the server that number is another change request's.
 */
export function useFollowRenumbered() {
  const router = useRouter()
  const client = useQueryClient()
  return useCallback(
    async (renumbered: OutboxSyncResult['renumbered']) => {
      if (!renumbered.length) return
      const { pathname, searchStr, hash } = router.state.location
      const moved = renumberedPath(pathname, renumbered)
      if (moved) await router.navigate({ href: `${moved}${searchStr}${hash ? `#${hash}` : ''}`, replace: true })
      for (const r of renumbered)
        client.removeQueries({ queryKey: ['spaces', r.spaceId, 'change-requests', String(r.from)], type: 'inactive' })
    },
    [client, router]
  )
}

/** What a send or a retry did, as the cache and the screen follow it. */
function useAfterSend(workspaceId: string) {
  const client = useQueryClient()
  const followRenumbered = useFollowRenumbered()
  return (result: OutboxSyncResult) => {
    afterOutboxWrite(client, workspaceId, result)
    void followRenumbered(result.renumbered)
  }
}

/** Sends the outbox now (`POST …/outbox/sync`; the server is asked first when it was out of reach). */
export function useSendUnsent(workspaceId: string) {
  const afterSend = useAfterSend(workspaceId)
  return useMutation({
    mutationFn: () => api.request<OutboxSyncResult>('POST', `${outboxPath(workspaceId)}/sync`),
    onSuccess: afterSend
  })
}

/** Sends a refused write again (`POST …/outbox/{seq}/retry`), and what waits behind it. */
export function useRetryUnsent(workspaceId: string) {
  const afterSend = useAfterSend(workspaceId)
  return useMutation({
    mutationFn: (seq: number) => api.request<OutboxSyncResult>('POST', `${outboxPath(workspaceId)}/${seq}/retry`),
    onSuccess: afterSend
  })
}

/** Resolves a conflict: a choice for every page (`POST …/outbox/{seq}/resolve`), then the outbox is sent. */
export function useResolveUnsent(workspaceId: string) {
  const afterSend = useAfterSend(workspaceId)
  return useMutation({
    mutationFn: ({ seq, resolution }: { seq: number; resolution: OutboxResolution }) =>
      api.request<OutboxSyncResult>('POST', `${outboxPath(workspaceId)}/${seq}/resolve`, resolution),
    onSuccess: afterSend
  })
}

/** Gives up a write (`DELETE …/outbox/{seq}`): that one only, unless it opened its change request. */
export function useDiscardUnsent(workspaceId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (seq: number) => api.request<OutboxList>('DELETE', `${outboxPath(workspaceId)}/${seq}`),
    onSuccess: (list, seq) => afterOutboxWrite(client, workspaceId, list, seq)
  })
}

/**
 * Downloads a consistent copy of a workspace (`GET …/{id}/backup`) and saves it as the browser (or Electron) saves
 * files, under the name the answer gives (`handbook-2026-03-01.quire.db`).
 */
export function useBackupWorkspace() {
  return useMutation({
    mutationFn: async (workspace: Pick<Workspace, 'id' | 'name'>) => {
      const { bytes, contentType, filename } = await api.download(`${workspacePath(workspace.id)}/backup`)
      saveFile(bytes, filename || `${workspace.name}.quire.db`, contentType)
      return filename
    },
    onSuccess: (filename, workspace) => notifySuccess(`Backed up “${workspace.name}” as ${filename}`)
  })
}

/**
 * Adds a workspace from a workspace file (`POST /app/workspaces/open?name=…`, the file as the body): checked and
 * copied by the app, not switched to. A refusal names `file` or `name` (shown by the field).
 */
export function useOpenWorkspaceFile() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: async ({ name, file }: { name: string; file: Blob }) =>
      api.upload<Workspace>(
        `${WORKSPACES_PATH}/open?name=${encodeURIComponent(name)}`,
        new Uint8Array(await file.arrayBuffer()),
        'application/vnd.sqlite3'
      ),
    meta: { inlineErrors: true },
    onSuccess: () => client.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY })
  })
}

export function useDeleteWorkspace() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.request<void>('DELETE', workspacePath(id)),
    onSuccess: () => client.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY })
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
        // A workspace found broken is listed as such from now on (with why, in Manage workspaces).
        void client.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY })
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
    [client, router]
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
    [client, router]
  )
}
