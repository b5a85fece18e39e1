import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import { fetchAll } from '../../api/lists.ts'
import type { AggregatePermission, Role, TeamPermission, TeamSpacePermission, UserPermission } from '../../api/types.ts'
import type { AccessKind } from './sources.ts'

// `/v1/spaces/{id}/permissions/users` → ['spaces', id, 'permissions', 'users']; collections alike.
const base = (kind: AccessKind, id: string) => [kind === 'space' ? 'spaces' : 'collections', id] as const
const path = (kind: AccessKind, id: string) => `/v1/${kind === 'space' ? 'spaces' : 'collections'}/${id}/permissions`

export const accessUsersQuery = (kind: AccessKind, id: string) =>
  queryOptions({ queryKey: [...base(kind, id), 'permissions', 'users'], queryFn: () => fetchAll<UserPermission>(`${path(kind, id)}/users`) })

export const accessTeamsQuery = (kind: AccessKind, id: string) =>
  queryOptions({ queryKey: [...base(kind, id), 'permissions', 'teams'], queryFn: () => fetchAll<TeamPermission>(`${path(kind, id)}/teams`) })

export const accessAggregateQuery = (kind: AccessKind, id: string) =>
  queryOptions({ queryKey: [...base(kind, id), 'permissions', 'aggregate'], queryFn: () => fetchAll<AggregatePermission>(`${path(kind, id)}/aggregate`) })

export const teamSpacesQuery = (orgId: string, teamId: string) =>
  queryOptions({ queryKey: ['orgs', orgId, 'teams', teamId, 'spaces'], queryFn: () => fetchAll<TeamSpacePermission>(`/v1/orgs/${orgId}/teams/${teamId}/spaces`) })

/**
 * A grant changes who has access here (the lists), the object's own `permissions` for the caller, the roles on
 * what a collection holds, and teams' space counts and lists.
 */
function invalidateAccess(client: QueryClient, kind: AccessKind, id: string, orgId: string) {
  void client.invalidateQueries({ queryKey: [...base(kind, id)] })
  if (kind === 'collection') void client.invalidateQueries({ queryKey: ['spaces'] })
  void client.invalidateQueries({ queryKey: ['orgs', orgId, 'teams'] })
  void client.invalidateQueries({ queryKey: ['orgs', orgId, 'members'] })
}

export type Principal = { type: 'user' | 'team'; id: string }

export function useInvite(kind: AccessKind, id: string, orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: { role: Role; users: string[]; teams: string[] }) => api.request<void>('POST', path(kind, id), body),
    onSuccess: () => invalidateAccess(client, kind, id, orgId),
  })
}

export function useSetGrant(kind: AccessKind, id: string, orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ principal, role }: { principal: Principal; role: Role }) => api.request<void>('PATCH', `${path(kind, id)}/${principal.type}s/${principal.id}`, { role }),
    onSettled: () => invalidateAccess(client, kind, id, orgId),
  })
}

export function useRemoveGrant(kind: AccessKind, id: string, orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (principal: Principal) => api.request<void>('DELETE', `${path(kind, id)}/${principal.type}s/${principal.id}`),
    onSuccess: () => invalidateAccess(client, kind, id, orgId),
  })
}
