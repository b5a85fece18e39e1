import { queryOptions, useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import { fetchAll } from '../../api/lists.ts'
import type { Collection, Space } from '../../api/types.ts'

// Keys mirror API paths after /v1: `/v1/orgs/{id}/spaces` → ['orgs', id, 'spaces']. Query parameters that
// change the answer go last, as an object, so the path prefix still invalidates every variant.
export const spacesQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'spaces'],
    queryFn: () => fetchAll<Space>(`/v1/orgs/${orgId}/spaces`)
  })

export const trashQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'spaces', { deleted: true }],
    queryFn: () => fetchAll<Space>(`/v1/orgs/${orgId}/spaces`, { deleted: true })
  })

export const collectionsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'collections'],
    queryFn: () => fetchAll<Collection>(`/v1/orgs/${orgId}/collections`)
  })

export const spaceQuery = (spaceId: string) =>
  queryOptions({
    queryKey: ['spaces', spaceId],
    queryFn: () => api.request<Space>('GET', `/v1/spaces/${spaceId}`)
  })

export const collectionQuery = (collectionId: string) =>
  queryOptions({
    queryKey: ['collections', collectionId],
    queryFn: () => api.request<Collection>('GET', `/v1/collections/${collectionId}`)
  })

export const collectionSpacesQuery = (collectionId: string) =>
  queryOptions({
    queryKey: ['collections', collectionId, 'spaces'],
    queryFn: () => fetchAll<Space>(`/v1/collections/${collectionId}/spaces`)
  })

/** Where a moved item lands among its new siblings (`before`/`after` another space or collection). */
export type Anchor = { type: 'space'; space: string } | { type: 'collection'; collection: string }
export interface MoveBody {
  parent?: string | null
  position?: { before: Anchor } | { after: Anchor }
}

/** After any write to the organization's content: the tree, the trash and the collection pages. */
function invalidateContent(client: QueryClient, orgId: string) {
  void client.invalidateQueries({ queryKey: ['orgs', orgId, 'spaces'] })
  void client.invalidateQueries({ queryKey: ['orgs', orgId, 'collections'] })
  void client.invalidateQueries({ queryKey: ['collections'] })
}

export function useCreateSpace(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: { title: string; emoji?: string; parent?: string }) => api.request<Space>('POST', `/v1/orgs/${orgId}/spaces`, body),
    meta: { inlineErrors: true },
    onSuccess: () => invalidateContent(client, orgId)
  })
}

export function useUpdateSpace(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ spaceId, ...body }: { spaceId: string; title?: string; emoji?: string }) =>
      api.request<Space>('PATCH', `/v1/spaces/${spaceId}`, body),
    meta: { inlineErrors: true },
    onSuccess: (space) => {
      client.setQueryData(spaceQuery(space.id).queryKey, space)
      invalidateContent(client, orgId)
    }
  })
}

export function useDeleteSpace(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (spaceId: string) => api.request<void>('DELETE', `/v1/spaces/${spaceId}`),
    // The space's own query stays cached: a screen still showing it would otherwise refetch it into a 404.
    onSuccess: () => invalidateContent(client, orgId)
  })
}

export function useRestoreSpace(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (spaceId: string) => api.request<Space>('POST', `/v1/spaces/${spaceId}/restore`),
    onSuccess: () => invalidateContent(client, orgId)
  })
}

export function useDuplicateSpace(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (spaceId: string) => api.request<Space>('POST', `/v1/spaces/${spaceId}/duplicate`),
    onSuccess: () => invalidateContent(client, orgId)
  })
}

export function useCreateCollection(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: { title: string; parent?: string }) => api.request<Collection>('POST', `/v1/orgs/${orgId}/collections`, body),
    meta: { inlineErrors: true },
    onSuccess: () => invalidateContent(client, orgId)
  })
}

export function useUpdateCollection(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ collectionId, ...body }: { collectionId: string; title?: string; description?: string | null }) =>
      api.request<Collection>('PATCH', `/v1/collections/${collectionId}`, body),
    meta: { inlineErrors: true },
    onSuccess: () => invalidateContent(client, orgId)
  })
}

export function useDeleteCollection(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (collectionId: string) => api.request<void>('DELETE', `/v1/collections/${collectionId}`),
    onSuccess: () => invalidateContent(client, orgId)
  })
}

/**
 * Moves a space or collection. The tree shows the new parent at once (optimistic), and rolls back if the
 * API refuses; sibling order is left to the refetch.
 */
export function useMoveItem(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ kind, id, body }: { kind: 'space' | 'collection'; id: string; body: MoveBody }) =>
      api.request<Space | Collection>('POST', `/v1/${kind === 'space' ? 'spaces' : 'collections'}/${id}/move`, body),
    onMutate: async ({ kind, id, body }) => {
      if (body.parent === undefined) return undefined
      // Untagged key: the updater below handles either list by id and parent alone.
      const key: QueryKey = kind === 'space' ? [...spacesQuery(orgId).queryKey] : [...collectionsQuery(orgId).queryKey]
      await client.cancelQueries({ queryKey: key, exact: true })
      const before = client.getQueryData<{ id: string; parent?: string }[]>(key)
      const parent = body.parent ?? undefined
      client.setQueryData<{ id: string; parent?: string }[]>(key, (items) =>
        items?.map((item) => (item.id === id ? { ...item, parent } : item))
      )
      return { key, before }
    },
    onError: (_error, _vars, context) => {
      if (context) client.setQueryData(context.key, context.before)
    },
    onSettled: () => invalidateContent(client, orgId)
  })
}
