import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, ApiError } from '../../api/client.ts'
import type { GitConnection, GitConnectionInput, GitInfo } from '../../api/types.ts'
import { isBusy } from './gitState.ts'

const gitPath = (spaceId: string) => `/v1/spaces/${spaceId}/git`

/** null for a 404: a space never synced has no Git info, a space not connected no connection. */
const orNull = <T>(promise: Promise<T>): Promise<T | null> =>
  promise.catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  })

/** The space's latest sync (`GET …/git/info`); polled every second while an operation waits or runs. */
export const gitInfoQuery = (spaceId: string) =>
  queryOptions({
    queryKey: ['spaces', spaceId, 'git', 'info'],
    queryFn: () => orNull(api.request<GitInfo>('GET', `${gitPath(spaceId)}/info`)),
    refetchInterval: (query) => (isBusy(query.state.data) ? 1000 : false)
  })

/** The space's Git connection (admins only). */
export const gitConnectionQuery = (spaceId: string) =>
  queryOptions({
    queryKey: ['spaces', spaceId, 'git', 'connection'],
    queryFn: () => orNull(api.request<GitConnection>('GET', `${gitPath(spaceId)}/connection`))
  })

export function useSaveGitConnection(spaceId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: GitConnectionInput) => api.request<GitConnection>('PUT', `${gitPath(spaceId)}/connection`, body),
    meta: { inlineErrors: true },
    onSuccess: (connection) => client.setQueryData(gitConnectionQuery(spaceId).queryKey, connection)
  })
}

export function useDeleteGitConnection(spaceId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: () => api.request<void>('DELETE', `${gitPath(spaceId)}/connection`),
    onSuccess: () => client.setQueryData(gitConnectionQuery(spaceId).queryKey, null)
  })
}

/** Starts an import or export with the connection (`force` overwrites a branch that moved); the info then polls. */
export function useStartGitSync(spaceId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ operation, force }: { operation: GitInfo['operation']['direction']; force?: boolean }) =>
      api.request<void>('POST', `${gitPath(spaceId)}/${operation}`, force ? { force } : {}),
    onSuccess: () => client.invalidateQueries({ queryKey: ['spaces', spaceId, 'git'] })
  })
}
