import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import { fetchAll, fetchPage } from '../../api/lists.ts'
import type { OpenAPISpec, OpenAPISpecVersion } from '../../api/types.ts'

// Keys mirror API paths after /v1: `/v1/orgs/{org}/openapi/{slug}/versions` → ['orgs', org, 'openapi', slug, 'versions'].

const specsPath = (orgId: string) => `/v1/orgs/${orgId}/openapi`
const specPath = (orgId: string, slug: string) => `${specsPath(orgId)}/${encodeURIComponent(slug)}`

/** While any spec waits or runs, its state is asked again this often (the processing writes each phase). */
export const POLL_MS = 500
const running = (spec: OpenAPISpec) => spec.processingState !== 'complete'

export const specsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'openapi'],
    queryFn: () => fetchAll<OpenAPISpec>(specsPath(orgId)),
    refetchInterval: (query) => (query.state.data?.some(running) ? POLL_MS : false)
  })

export const specQuery = (orgId: string, slug: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'openapi', slug],
    queryFn: () => api.request<OpenAPISpec>('GET', specPath(orgId, slug)),
    refetchInterval: (query) => (query.state.data && running(query.state.data) ? POLL_MS : false)
  })

/** The versions, newest first, 50 a page; "Load more" asks for the next one. */
export const versionsQuery = (orgId: string, slug: string) =>
  infiniteQueryOptions({
    queryKey: ['orgs', orgId, 'openapi', slug, 'versions'],
    queryFn: ({ pageParam }) => fetchPage<OpenAPISpecVersion>(`${specPath(orgId, slug)}/versions`, { limit: 50 }, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page
  })

export interface VersionContent {
  filesystem: Record<string, unknown>
  url: string
}

export const versionContentQuery = (orgId: string, slug: string, versionId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'openapi', slug, 'versions', versionId, 'content'],
    queryFn: () => api.request<VersionContent>('GET', `${specPath(orgId, slug)}/versions/${encodeURIComponent(versionId)}/content`),
    // A version never changes.
    staleTime: Infinity
  })

export type SpecSource = { url: string } | { text: string }

export function useCreateSpec(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: { slug: string; source: SpecSource }) => api.request<OpenAPISpec>('POST', specsPath(orgId), body),
    meta: { inlineErrors: true },
    onSuccess: (spec) => {
      client.setQueryData(specQuery(orgId, spec.slug).queryKey, spec)
      void client.invalidateQueries({ queryKey: ['orgs', orgId, 'openapi'], exact: true })
    }
  })
}

/** A new source for the spec: it is processed again. */
export function useReplaceSource(orgId: string, slug: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (source: SpecSource) => api.request<OpenAPISpec>('PUT', specPath(orgId, slug), { source }),
    meta: { inlineErrors: true },
    onSuccess: (spec) => {
      client.setQueryData(specQuery(orgId, slug).queryKey, spec)
      void client.invalidateQueries({ queryKey: ['orgs', orgId, 'openapi'] })
    }
  })
}

export function useDeleteSpec(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (slug: string) => api.request<void>('DELETE', specPath(orgId, slug)),
    onSuccess: (_, slug) => {
      client.removeQueries({ queryKey: ['orgs', orgId, 'openapi', slug] })
      void client.invalidateQueries({ queryKey: ['orgs', orgId, 'openapi'], exact: true })
    }
  })
}
