import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import { fetchAll } from '../../api/lists.ts'
import type { AggregatePermission, Role, TeamPermission, TeamSpacePermission, UserPermission } from '../../api/types.ts'
import type { AccessKind } from './sources.ts'

/** What a grant is on: a space or collection by id; a site also names its organization (its path does). */
export interface AccessSubject {
  kind: AccessKind
  id: string
  organization: string
}

// `/v1/spaces/{id}/permissions/users` → ['spaces', id, 'permissions', 'users']; collections and sites alike.
const base = ({ kind, id, organization }: AccessSubject) =>
  kind === 'site' ? (['orgs', organization, 'sites', id] as const) : ([kind === 'space' ? 'spaces' : 'collections', id] as const)
const path = (subject: AccessSubject) => `/v1/${base(subject).join('/')}/permissions`

export const accessUsersQuery = (s: AccessSubject) =>
  queryOptions({ queryKey: [...base(s), 'permissions', 'users'], queryFn: () => fetchAll<UserPermission>(`${path(s)}/users`) })

export const accessTeamsQuery = (s: AccessSubject) =>
  queryOptions({ queryKey: [...base(s), 'permissions', 'teams'], queryFn: () => fetchAll<TeamPermission>(`${path(s)}/teams`) })

export const accessAggregateQuery = (s: AccessSubject) =>
  queryOptions({ queryKey: [...base(s), 'permissions', 'aggregate'], queryFn: () => fetchAll<AggregatePermission>(`${path(s)}/aggregate`) })

export const teamSpacesQuery = (orgId: string, teamId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'teams', teamId, 'spaces'],
    queryFn: () => fetchAll<TeamSpacePermission>(`/v1/orgs/${orgId}/teams/${teamId}/spaces`)
  })

/**
 * A grant changes who has access here (the lists), the object's own `permissions` for the caller, the roles on
 * what a collection holds, and teams' space counts and lists.
 */
function invalidateAccess(client: QueryClient, s: AccessSubject) {
  void client.invalidateQueries({ queryKey: [...base(s)] })
  if (s.kind === 'collection') void client.invalidateQueries({ queryKey: ['spaces'] })
  void client.invalidateQueries({ queryKey: ['orgs', s.organization, 'teams'] })
  void client.invalidateQueries({ queryKey: ['orgs', s.organization, 'members'] })
}

export type Principal = { type: 'user' | 'team'; id: string }

export function useInvite(s: AccessSubject) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: { role: Role; users: string[]; teams: string[] }) => api.request<void>('POST', path(s), body),
    onSuccess: () => invalidateAccess(client, s)
  })
}

export function useSetGrant(s: AccessSubject) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ principal, role }: { principal: Principal; role: Role }) =>
      api.request<void>('PATCH', `${path(s)}/${principal.type}s/${principal.id}`, { role }),
    onSettled: () => invalidateAccess(client, s)
  })
}

export function useRemoveGrant(s: AccessSubject) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (principal: Principal) => api.request<void>('DELETE', `${path(s)}/${principal.type}s/${principal.id}`),
    onSuccess: () => invalidateAccess(client, s)
  })
}
