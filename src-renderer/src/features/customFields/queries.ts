import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import { fetchAll } from '../../api/lists.ts'
import type { CustomField, CustomFieldType } from '../../api/types.ts'

export const customFieldsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'custom-fields'],
    queryFn: () => fetchAll<CustomField>(`/v1/orgs/${orgId}/custom-fields`)
  })

export interface CustomFieldInput {
  name: string
  type: CustomFieldType
  title?: string | null
  description?: string | null
  placeholder?: string | null
  options?: string[]
}

export function useSaveCustomField(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ existing, body }: { existing?: string; body: CustomFieldInput }) => {
      if (!existing) return api.request<CustomField>('POST', `/v1/orgs/${orgId}/custom-fields`, body)
      // name and type are fixed once created; the update takes only the describing members.
      const { name: _name, type: _type, ...update } = body
      return api.request<CustomField>('PATCH', `/v1/orgs/${orgId}/custom-fields/${encodeURIComponent(existing)}`, update)
    },
    meta: { inlineErrors: true },
    onSuccess: () => client.invalidateQueries({ queryKey: ['orgs', orgId, 'custom-fields'] })
  })
}

export function useDeleteCustomField(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (name: string) => api.request<void>('DELETE', `/v1/orgs/${orgId}/custom-fields/${encodeURIComponent(name)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['orgs', orgId, 'custom-fields'] })
  })
}
