import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import { fetchAll } from '../../api/lists.ts'
import type { Role, SamlProvider } from '../../api/types.ts'

export const samlProvidersQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'saml'],
    queryFn: () => fetchAll<SamlProvider>(`/v1/orgs/${orgId}/saml`)
  })

export interface SamlProviderInput {
  label: string
  ssoURL?: string
  entityID?: string
  certificate?: string
  defaultRole?: Role | null
  defaultTeam?: string | null
}

export function useSaveSamlProvider(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: SamlProviderInput }) =>
      id
        ? api.request<SamlProvider>('PATCH', `/v1/orgs/${orgId}/saml/${id}`, body)
        : api.request<SamlProvider>('POST', `/v1/orgs/${orgId}/saml`, body),
    meta: { inlineErrors: true },
    onSuccess: () => client.invalidateQueries({ queryKey: ['orgs', orgId, 'saml'] })
  })
}

export function useDeleteSamlProvider(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.request<void>('DELETE', `/v1/orgs/${orgId}/saml/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['orgs', orgId, 'saml'] })
  })
}
