import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import { fetchAll, fetchPage } from '../../api/lists.ts'
import type { Invite, Member, Role } from '../../api/types.ts'

export interface MemberFilters {
  search?: string
  role?: Role
  sort?: 'joinedAt' | 'lastSeenAt'
  order?: 'asc' | 'desc'
}

const MEMBERS_PAGE = 100

/** Members page by page (an organization can have thousands); the table asks for more as it scrolls. */
export const membersQuery = (orgId: string, filters: MemberFilters) =>
  infiniteQueryOptions({
    queryKey: ['orgs', orgId, 'members', filters],
    queryFn: ({ pageParam }) => fetchPage<Member>(`/v1/orgs/${orgId}/members`, { ...filters, limit: MEMBERS_PAGE }, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page
  })

/** Members matching a search, for pickers (team members, default team owners). */
export const memberSearchQuery = (orgId: string, search: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'members', { search, picker: true }],
    queryFn: () => fetchPage<Member>(`/v1/orgs/${orgId}/members`, { search: search || undefined, limit: 50 }).then((p) => p.items),
    staleTime: 10_000
  })

export function useUpdateMemberRole(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role | null }) =>
      api.request<Member>('PATCH', `/v1/orgs/${orgId}/members/${userId}`, { role }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ['orgs', orgId, 'members'] })
      // The caller's own role may have changed, and with it what the organization lets them do.
      void client.invalidateQueries({ queryKey: ['orgs', orgId], exact: true })
    }
  })
}

export function useRemoveMember(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (userId: string) => api.request<void>('DELETE', `/v1/orgs/${orgId}/members/${userId}`),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['orgs', orgId, 'members'] })
      void client.invalidateQueries({ queryKey: ['orgs', orgId, 'teams'] })
    }
  })
}

export function useInviteByEmail(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: { emails: string[]; role: Role | null }) => api.request<void>('POST', `/v1/orgs/${orgId}/invites`, body),
    meta: { inlineErrors: true },
    onSuccess: () => client.invalidateQueries({ queryKey: ['orgs', orgId, 'members'] })
  })
}

export const inviteLinksQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'link-invites'],
    queryFn: () => fetchAll<Invite>(`/v1/orgs/${orgId}/link-invites`)
  })

export function useCreateInviteLink(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (role: Role | null) => api.request<Invite>('POST', `/v1/orgs/${orgId}/link-invites`, { role }),
    onSuccess: () => client.invalidateQueries({ queryKey: inviteLinksQuery(orgId).queryKey })
  })
}

export function useUpdateInviteLink(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ inviteId, role }: { inviteId: string; role: Role | null }) =>
      api.request<Invite>('PATCH', `/v1/orgs/${orgId}/link-invites/${inviteId}`, { role }),
    onSettled: () => client.invalidateQueries({ queryKey: inviteLinksQuery(orgId).queryKey })
  })
}

export function useDeleteInviteLink(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (inviteId: string) => api.request<void>('DELETE', `/v1/orgs/${orgId}/link-invites/${inviteId}`),
    onSuccess: () => client.invalidateQueries({ queryKey: inviteLinksQuery(orgId).queryKey })
  })
}

export function useJoinWithInvite(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (inviteId: string) => api.request<void>('POST', `/v1/orgs/${orgId}/invites/${inviteId}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['orgs'] })
  })
}
