import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import { fetchAll } from '../../api/lists.ts'
import type { OrgMergeRules, Organization, Role, User } from '../../api/types.ts'

// Keys mirror API paths after /v1, so `main:data-changed` prefixes invalidate them directly.
export const userQuery = () =>
  queryOptions({
    queryKey: ['user'],
    queryFn: () => api.request<User>('GET', '/v1/user'),
    staleTime: 5 * 60_000
  })

export const orgsQuery = () =>
  queryOptions({
    queryKey: ['orgs'],
    queryFn: () => fetchAll<Organization>('/v1/orgs')
  })

export const orgQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId],
    queryFn: () => api.request<Organization>('GET', `/v1/orgs/${orgId}`)
  })

export interface OrgUpdate {
  title?: string
  hostname?: string
  defaultRole?: Role | null
  inviteLinks?: boolean
  emailDomains?: string[]
  mergeRules?: OrgMergeRules
}

export function useUpdateOrg(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: OrgUpdate) => api.request<Organization>('PATCH', `/v1/orgs/${orgId}`, body),
    meta: { inlineErrors: true },
    onSuccess: (org) => {
      client.setQueryData(orgQuery(orgId).queryKey, org)
      // `['orgs']` is also the prefix of everything in the organization: refresh only the list itself.
      void client.invalidateQueries({ queryKey: orgsQuery().queryKey, exact: true })
    }
  })
}

export function useCreateOrg() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: { title: string }) => api.request<Organization>('POST', '/v1/orgs', body),
    meta: { inlineErrors: true },
    onSuccess: () => client.invalidateQueries({ queryKey: orgsQuery().queryKey, exact: true })
  })
}
