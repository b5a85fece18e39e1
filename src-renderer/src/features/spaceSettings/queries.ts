import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import type { Collection, Role, Space, SpaceMergeRules } from '../../api/types.ts'
import { collectionQuery, spaceQuery } from '../content/queries.ts'
import type { StoredValue } from './customFieldForm.ts'

export interface SpaceCustomFieldValue {
  customField: { name: string }
  value: StoredValue
}

export const spaceCustomFieldsQuery = (spaceId: string) =>
  queryOptions({
    queryKey: ['spaces', spaceId, 'custom-fields'],
    queryFn: () => api.request<SpaceCustomFieldValue[]>('GET', `/v1/spaces/${spaceId}/custom-fields`)
  })

export interface SpaceSettingsUpdate {
  editMode?: 'live' | 'locked'
  visibility?: Space['visibility']
  defaultLevel?: Role | null
  mergeRules?: SpaceMergeRules
}

/** The space as it is now everywhere it shows: its own query and the organization's lists. */
function keepSpace(client: QueryClient, space: Space) {
  client.setQueryData(spaceQuery(space.id).queryKey, space)
  void client.invalidateQueries({ queryKey: ['orgs', space.organization, 'spaces'] })
  void client.invalidateQueries({ queryKey: ['collections'] })
}

/** PATCH the space's lock, visibility or general access. */
export function useUpdateSpaceSettings(spaceId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: SpaceSettingsUpdate) => api.request<Space>('PATCH', `/v1/spaces/${spaceId}`, body),
    meta: { inlineErrors: true },
    onSuccess: (space) => {
      keepSpace(client, space)
      // A lock changes what the pages, change requests and their actions allow.
      void client.invalidateQueries({ queryKey: ['spaces', spaceId] })
    }
  })
}

/** Lock or unlock, from the notices where an edit is refused (errors toast). */
export function useSetEditMode(spaceId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (editMode: 'live' | 'locked') => api.request<Space>('PATCH', `/v1/spaces/${spaceId}`, { editMode }),
    onSuccess: (space) => {
      keepSpace(client, space)
      void client.invalidateQueries({ queryKey: ['spaces', spaceId] })
    }
  })
}

export function useSaveCustomFieldValues(spaceId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: { values: Record<string, { value: StoredValue | null }> }) =>
      api.request<void>('PATCH', `/v1/spaces/${spaceId}/custom-fields`, body),
    meta: { inlineErrors: true },
    onSuccess: () => client.invalidateQueries({ queryKey: spaceCustomFieldsQuery(spaceId).queryKey })
  })
}

export function useUpdateCollectionSettings(collectionId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: { defaultLevel: Role | null }) => api.request<Collection>('PATCH', `/v1/collections/${collectionId}`, body),
    meta: { inlineErrors: true },
    onSuccess: (collection) => {
      client.setQueryData(collectionQuery(collectionId).queryKey, collection)
      void client.invalidateQueries({ queryKey: ['orgs', collection.organization, 'collections'] })
      // The default level reaches the spaces inside: their permissions change.
      void client.invalidateQueries({ queryKey: ['spaces'] })
    }
  })
}

/** Moves a space or a collection (with everything in it) to another organization. */
export function useTransfer() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ kind, id, organization }: { kind: 'space' | 'collection'; id: string; organization: string; from: string }) =>
      api.request<Space | Collection>('POST', `/v1/${kind === 'space' ? 'spaces' : 'collections'}/${id}/transfer`, { organization }),
    onSuccess: (moved, { kind, id, from }) => {
      if (kind === 'space') client.setQueryData(spaceQuery(id).queryKey, moved as Space)
      else client.setQueryData(collectionQuery(id).queryKey, moved as Collection)
      // Both organizations' trees, every collection page and space (a collection's spaces moved with it).
      for (const org of [from, moved.organization]) {
        void client.invalidateQueries({ queryKey: ['orgs', org, 'spaces'] })
        void client.invalidateQueries({ queryKey: ['orgs', org, 'collections'] })
      }
      void client.invalidateQueries({ queryKey: ['collections'] })
      void client.invalidateQueries({ queryKey: ['spaces'] })
    }
  })
}
