import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import { fetchAll } from '../../api/lists.ts'
import type {
  PublishedSite,
  ShareLink,
  Site,
  SiteAdaptiveSchema,
  SiteCustomization,
  SiteDraftPreview,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  SiteVisitorToken,
  SiteVisitorTokenCreate
} from '../../api/types.ts'
import type { CustomizationUpdate } from './customization.ts'
import { movePath, type MoveRequest } from './siteTree.ts'
import { batches } from './redirects.ts'
import type { SiteRedirect, SiteRedirectBulkItem, SiteRedirectBulkResult, SiteRedirectCreate, SiteRedirectUpdate } from '../../api/types.ts'

// Keys mirror API paths after /v1: `/v1/orgs/{org}/sites/{site}/share-links` → ['orgs', org, 'sites', site,
// 'share-links']; list filters go last as an object.

export type SiteVisibility = Site['visibility']
export interface SiteFilters {
  title?: string
  published?: boolean
}

const sitesPath = (orgId: string) => `/v1/orgs/${orgId}/sites`
const sitePath = (orgId: string, siteId: string) => `${sitesPath(orgId)}/${siteId}`

export const sitesQuery = (orgId: string, filters: SiteFilters = {}) =>
  queryOptions({
    queryKey: Object.keys(filters).length ? ['orgs', orgId, 'sites', filters] : ['orgs', orgId, 'sites'],
    queryFn: () => fetchAll<Site>(sitesPath(orgId), { title: filters.title, published: filters.published })
  })

export const siteQuery = (orgId: string, siteId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'sites', siteId],
    queryFn: () => api.request<Site>('GET', sitePath(orgId, siteId))
  })

/** The site's structure in reading order (sections and groups interleaved), from the published shape. */
export const siteStructureQuery = (orgId: string, siteId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'sites', siteId, 'published'],
    queryFn: () => api.request<PublishedSite>('GET', `${sitePath(orgId, siteId)}/published`),
    select: (published) => published.structure
  })

export const shareLinksQuery = (orgId: string, siteId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'sites', siteId, 'share-links'],
    queryFn: () => fetchAll<ShareLink>(`${sitePath(orgId, siteId)}/share-links`)
  })

export const customizationQuery = (orgId: string, siteId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'sites', siteId, 'customization'],
    queryFn: () => api.request<SiteCustomization>('GET', `${sitePath(orgId, siteId)}/customization`)
  })

export const adaptiveSchemaQuery = (orgId: string, siteId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'sites', siteId, 'adaptive-schema'],
    queryFn: () => api.request<SiteAdaptiveSchema>('GET', `${sitePath(orgId, siteId)}/adaptive-schema`)
  })

/**
 * The draft preview's address (the caller's, for an hour). Kept for 50 minutes, so a refetch of the site's
 * queries does not reload the panel by giving a new address.
 */
export const draftPreviewQuery = (orgId: string, siteId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'sites', siteId, 'draft-preview'],
    queryFn: () => api.request<SiteDraftPreview>('GET', `${sitePath(orgId, siteId)}/draft-preview`),
    staleTime: 50 * 60 * 1000,
    refetchOnWindowFocus: false
  })

/** Signs a visitor token with chosen claims (admins): nothing to invalidate, the answer is used once. */
export function useMintVisitorToken(orgId: string, siteId: string) {
  return useMutation({
    mutationFn: (body: SiteVisitorTokenCreate) => api.request<SiteVisitorToken>('POST', `${sitePath(orgId, siteId)}/visitor-tokens`, body)
  })
}

/**
 * After a write to a site: the site and everything under it, and the organization's site lists (counts,
 * badges). Other sites' queries are left alone.
 */
function invalidateSite(client: QueryClient, orgId: string, siteId: string) {
  void client.invalidateQueries({ queryKey: ['orgs', orgId, 'sites', siteId] })
  invalidateSiteLists(client, orgId)
}

/** The organization's site lists, filtered or not (`['orgs', org, 'sites']` and `[…, {filters}]`), not the sites. */
function invalidateSiteLists(client: QueryClient, orgId: string) {
  void client.invalidateQueries({
    queryKey: ['orgs', orgId, 'sites'],
    predicate: (q) => q.queryKey.length === 3 || (q.queryKey.length === 4 && typeof q.queryKey[3] === 'object')
  })
}

// --- sites ------------------------------------------------------------------------------------------------

export interface SiteCreateBody {
  title: string
  visibility: SiteVisibility
  spaces?: string[]
}

export function useCreateSite(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: SiteCreateBody) => api.request<Site>('POST', sitesPath(orgId), body),
    meta: { inlineErrors: true },
    onSuccess: (site) => {
      client.setQueryData(siteQuery(orgId, site.id).queryKey, site)
      invalidateSiteLists(client, orgId)
    }
  })
}

export interface SiteUpdate {
  title?: string
  visibility?: SiteVisibility
  basename?: string | null
  hostname?: string | null
  proxy?: string | null
  adaptiveContent?: { enabled: boolean }
  defaultSiteSpace?: string
  defaultSiteSection?: string
}

/** PATCH the site. `inline`: the caller shows a refusal by its field instead of a toast. */
export function useUpdateSite(orgId: string, siteId: string, { inline = false } = {}) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: SiteUpdate) => api.request<Site>('PATCH', sitePath(orgId, siteId), body),
    meta: { inlineErrors: inline },
    onSuccess: (site) => {
      client.setQueryData(siteQuery(orgId, siteId).queryKey, site)
      invalidateSite(client, orgId, siteId)
    }
  })
}

export function useDeleteSite(orgId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (siteId: string) => api.request<void>('DELETE', sitePath(orgId, siteId)),
    // The site's own queries stay cached: the editor still showing it would otherwise refetch it into a 404.
    onSuccess: () => invalidateSiteLists(client, orgId)
  })
}

export function usePublishSite(orgId: string, siteId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (publish: boolean) => api.request<Site>('POST', `${sitePath(orgId, siteId)}/${publish ? 'publish' : 'unpublish'}`),
    onSuccess: (site) => {
      client.setQueryData(siteQuery(orgId, siteId).queryKey, site)
      invalidateSite(client, orgId, siteId)
    }
  })
}

// --- structure --------------------------------------------------------------------------------------------

/** Every structure write answers with the changed item; the tree refetches in reading order. */
function useStructureMutation<V, R>(orgId: string, siteId: string, fn: (base: string, vars: V) => Promise<R>, inline = false) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (vars: V) => fn(sitePath(orgId, siteId), vars),
    meta: { inlineErrors: inline },
    onSuccess: () => invalidateSite(client, orgId, siteId)
  })
}

export const useAddSiteSpace = (orgId: string, siteId: string) =>
  useStructureMutation(orgId, siteId, (base, body: { spaceId: string; sectionId?: string }) =>
    api.request<SiteSpace>('POST', `${base}/site-spaces`, body)
  )

export const useUpdateSiteSpace = (orgId: string, siteId: string) =>
  useStructureMutation(
    orgId,
    siteId,
    (base, { siteSpaceId, ...body }: { siteSpaceId: string; path?: string; condition?: string | null }) =>
      api.request<SiteSpace>('PATCH', `${base}/site-spaces/${siteSpaceId}`, body),
    true
  )

export const useRemoveSiteSpace = (orgId: string, siteId: string) =>
  useStructureMutation(orgId, siteId, (base, siteSpaceId: string) => api.request<void>('DELETE', `${base}/site-spaces/${siteSpaceId}`))

export const useMoveStructureItem = (orgId: string, siteId: string) =>
  useStructureMutation(orgId, siteId, (base, move: MoveRequest) => api.request<unknown>('POST', `${base}/${movePath(move)}`, move.body))

export const useAddSection = (orgId: string, siteId: string) =>
  useStructureMutation(
    orgId,
    siteId,
    (base, body: { spaceId: string | null; title?: string; path?: string }) => api.request<SiteSection>('POST', `${base}/sections`, body),
    true
  )

export interface SectionUpdate {
  title?: string
  path?: string
  description?: string | null
  condition?: string | null
  defaultSiteSpace?: string
}

export const useUpdateSection = (orgId: string, siteId: string, { inline = true } = {}) =>
  useStructureMutation(
    orgId,
    siteId,
    (base, { sectionId, ...body }: SectionUpdate & { sectionId: string }) =>
      api.request<SiteSection>('PATCH', `${base}/sections/${sectionId}`, body),
    inline
  )

export const useDeleteSection = (orgId: string, siteId: string) =>
  useStructureMutation(orgId, siteId, (base, sectionId: string) => api.request<void>('DELETE', `${base}/sections/${sectionId}`))

export const useCreateGroup = (orgId: string, siteId: string) =>
  useStructureMutation(
    orgId,
    siteId,
    (base, body: { title: string; sections?: string[] }) => api.request<SiteSectionGroup>('POST', `${base}/section-groups`, body),
    true
  )

export const useRenameGroup = (orgId: string, siteId: string) =>
  useStructureMutation(
    orgId,
    siteId,
    (base, { groupId, title }: { groupId: string; title: string }) =>
      api.request<SiteSectionGroup>('PATCH', `${base}/section-groups/${groupId}`, { title }),
    true
  )

export const useDeleteGroup = (orgId: string, siteId: string) =>
  useStructureMutation(orgId, siteId, (base, groupId: string) => api.request<void>('DELETE', `${base}/section-groups/${groupId}`))

export const useAddToGroup = (orgId: string, siteId: string) =>
  useStructureMutation(orgId, siteId, (base, { groupId, sectionId }: { groupId: string; sectionId: string }) =>
    api.request<SiteSectionGroup>('POST', `${base}/section-groups/${groupId}/sections`, { sectionId })
  )

export const useRemoveFromGroup = (orgId: string, siteId: string) =>
  useStructureMutation(orgId, siteId, (base, { groupId, sectionId }: { groupId: string; sectionId: string }) =>
    api.request<void>('DELETE', `${base}/section-groups/${groupId}/sections/${sectionId}`)
  )

// --- share links ------------------------------------------------------------------------------------------

function useShareLinkMutation<V, R>(orgId: string, siteId: string, fn: (base: string, vars: V) => Promise<R>, inline = false) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (vars: V) => fn(`${sitePath(orgId, siteId)}/share-links`, vars),
    meta: { inlineErrors: inline },
    onSuccess: () => void client.invalidateQueries({ queryKey: shareLinksQuery(orgId, siteId).queryKey })
  })
}

/**
 * The addresses (with their keys) of the share links this window created, by link id. The API shows a link's key
 * only in the answer that creates it; kept here, "Open preview" works for the rest of the session.
 */
export const createdShareLinkUrls = new Map<string, string>()

export const useCreateShareLink = (orgId: string, siteId: string) =>
  useShareLinkMutation(
    orgId,
    siteId,
    async (base, body: { name: string }) => {
      const link = await api.request<ShareLink>('POST', base, body)
      createdShareLinkUrls.set(link.id, link.urls.published)
      return link
    },
    true
  )

export const useUpdateShareLink = (orgId: string, siteId: string, { inline = false } = {}) =>
  useShareLinkMutation(
    orgId,
    siteId,
    (base, { linkId, ...body }: { linkId: string; active?: boolean; name?: string }) =>
      api.request<ShareLink>('PATCH', `${base}/${linkId}`, body),
    inline
  )

export const useDeleteShareLink = (orgId: string, siteId: string) =>
  useShareLinkMutation(orgId, siteId, (base, linkId: string) => api.request<void>('DELETE', `${base}/${linkId}`))

// --- customization and adaptive content -------------------------------------------------------------------

export function useSaveCustomization(orgId: string, siteId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: CustomizationUpdate) => api.request<SiteCustomization>('PUT', `${sitePath(orgId, siteId)}/customization`, body),
    meta: { inlineErrors: true },
    onSuccess: (saved) => {
      client.setQueryData(customizationQuery(orgId, siteId).queryKey, saved)
      void client.invalidateQueries({ queryKey: [...siteQuery(orgId, siteId).queryKey, 'published'] })
    }
  })
}

export function useSaveAdaptiveSchema(orgId: string, siteId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (jsonSchema: Record<string, unknown>) =>
      api.request<SiteAdaptiveSchema>('PUT', `${sitePath(orgId, siteId)}/adaptive-schema`, { jsonSchema }),
    meta: { inlineErrors: true },
    onSuccess: (saved) => client.setQueryData(adaptiveSchemaQuery(orgId, siteId).queryKey, saved)
  })
}

// --- redirects --------------------------------------------------------------------------------------------

/** Every live redirect of the site, newest first. */
export const redirectsQuery = (orgId: string, siteId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'sites', siteId, 'redirects'],
    queryFn: () => fetchAll<SiteRedirect>(`${sitePath(orgId, siteId)}/redirects`)
  })

function useRedirectMutation<V, R>(orgId: string, siteId: string, fn: (base: string, vars: V) => Promise<R>, inline = false) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (vars: V) => fn(`${sitePath(orgId, siteId)}/redirects`, vars),
    meta: { inlineErrors: inline },
    onSettled: () => client.invalidateQueries({ queryKey: ['orgs', orgId, 'sites', siteId, 'redirects'] })
  })
}

export const useCreateRedirect = (orgId: string, siteId: string) =>
  useRedirectMutation(orgId, siteId, (base, body: SiteRedirectCreate) => api.request<SiteRedirect>('POST', base, body), true)

export const useUpdateRedirect = (orgId: string, siteId: string) =>
  useRedirectMutation(
    orgId,
    siteId,
    (base, { id, ...body }: SiteRedirectUpdate & { id: string }) => api.request<SiteRedirect>('PATCH', `${base}/${id}`, body),
    true
  )

export const useDeleteRedirect = (orgId: string, siteId: string) =>
  useRedirectMutation(orgId, siteId, (base, id: string) => api.request<void>('DELETE', `${base}/${id}`))

/**
 * Writes rows with the bulk PUT, a batch of at most 500 at a time (each batch one transaction: a refused
 * batch writes nothing, and the batches before it stay written). Answers how many rows were written.
 */
export const useBulkRedirects = (orgId: string, siteId: string) =>
  useRedirectMutation(orgId, siteId, async (base, rows: SiteRedirectBulkItem[]) => {
    let written = 0
    for (const batch of batches(rows)) {
      await api.request<SiteRedirectBulkResult>('PUT', base, { redirects: batch })
      written += batch.length
    }
    return written
  })
