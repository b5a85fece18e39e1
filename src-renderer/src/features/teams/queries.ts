import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import { fetchAll } from '../../api/lists.ts'
import type { Team, TeamMember, TeamRole } from '../../api/types.ts'

export const teamsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'teams'],
    queryFn: () => fetchAll<Team>(`/v1/orgs/${orgId}/teams`)
  })

export const teamMembersQuery = (orgId: string, teamId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'teams', teamId, 'members'],
    queryFn: () => fetchAll<TeamMember>(`/v1/orgs/${orgId}/teams/${teamId}/members`)
  })

/** Team writes change the team list (counts), the team's members, and members' team counts. */
function invalidateTeams(client: QueryClient, orgId: string) {
  void client.invalidateQueries({ queryKey: ['orgs', orgId, 'teams'] })
  void client.invalidateQueries({ queryKey: ['orgs', orgId, 'members'] })
}

export function useCreateTeam(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: { title: string; members?: string[] }) => api.request<Team>('PUT', `/v1/orgs/${orgId}/teams`, body),
    meta: { inlineErrors: true },
    onSuccess: () => invalidateTeams(client, orgId)
  })
}

export function useRenameTeam(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ teamId, title }: { teamId: string; title: string }) =>
      api.request<Team>('PATCH', `/v1/orgs/${orgId}/teams/${teamId}`, { title }),
    meta: { inlineErrors: true },
    onSuccess: () => invalidateTeams(client, orgId)
  })
}

export function useDeleteTeam(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (teamId: string) => api.request<void>('DELETE', `/v1/orgs/${orgId}/teams/${teamId}`),
    onSuccess: () => invalidateTeams(client, orgId)
  })
}

export function useAddTeamMembers(orgId: string, teamId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (userIds: string[]) => api.request<void>('PUT', `/v1/orgs/${orgId}/teams/${teamId}/members`, { add: userIds }),
    onSuccess: () => invalidateTeams(client, orgId)
  })
}

export function useSetTeamRole(orgId: string, teamId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: TeamRole }) =>
      api.request<void>('PUT', `/v1/orgs/${orgId}/teams/${teamId}/members/${userId}`, { role }),
    onSettled: () => invalidateTeams(client, orgId)
  })
}

export function useRemoveTeamMember(orgId: string, teamId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (userId: string) => api.request<void>('DELETE', `/v1/orgs/${orgId}/teams/${teamId}/members/${userId}`),
    onSuccess: () => invalidateTeams(client, orgId)
  })
}
