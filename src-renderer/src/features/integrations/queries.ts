import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import { fetchAll } from '../../api/lists.ts'
import type { Installation, Integration, SiteInstallation, SpaceInstallation } from '../../api/types.ts'
import type { ConfigurationValues } from '../../../../src-shared/integrationConfiguration.ts'

// Keys mirror API paths after /v1: `/v1/integrations/{name}/installations/{id}/spaces` →
// ['integrations', name, 'installations', id, 'spaces']; the registry's filters go last as an object.

export type IntegrationCategory = Integration['categories'][number]
export interface IntegrationFilters {
  search?: string
  category?: IntegrationCategory
}
export type InstallTarget = 'spaces' | 'sites'
export type TargetInstallation = SpaceInstallation | SiteInstallation
export interface OrgInstallation {
  installation: Installation
  integration: Integration
}

const integrationPath = (name: string) => `/v1/integrations/${encodeURIComponent(name)}`
const installationPath = (name: string, id: string) => `${integrationPath(name)}/installations/${encodeURIComponent(id)}`

export const integrationsQuery = (filters: IntegrationFilters = {}) =>
  queryOptions({
    queryKey: Object.keys(filters).length ? ['integrations', filters] : ['integrations'],
    queryFn: () => fetchAll<Integration>('/v1/integrations', { search: filters.search, category: filters.category })
  })

export const integrationQuery = (name: string) =>
  queryOptions({
    queryKey: ['integrations', name],
    queryFn: () => api.request<Integration>('GET', integrationPath(name))
  })

/** The organization's installations, each with its integration. */
export const orgInstallationsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'installations'],
    queryFn: () => fetchAll<OrgInstallation>(`/v1/orgs/${orgId}/installations`)
  })

/** The spaces or the sites an installation is installed on. */
export const targetInstallationsQuery = (name: string, installationId: string, target: InstallTarget) =>
  queryOptions({
    queryKey: ['integrations', name, 'installations', installationId, target],
    queryFn: () => fetchAll<TargetInstallation>(`${installationPath(name, installationId)}/${target}`)
  })

/** After any installation write: the organization's list and everything under the integration's installations. */
function invalidateInstallations(client: QueryClient, orgId: string, name: string) {
  void client.invalidateQueries({ queryKey: ['orgs', orgId, 'installations'] })
  void client.invalidateQueries({ queryKey: ['integrations', name, 'installations'] })
}

export function useInstall(orgId: string, name: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (configuration: ConfigurationValues) =>
      api.request<Installation>('POST', `${integrationPath(name)}/installations`, { organization: orgId, configuration }),
    meta: { inlineErrors: true },
    onSuccess: () => invalidateInstallations(client, orgId, name)
  })
}

export function useUpdateInstallation(orgId: string, name: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, configuration }: { id: string; configuration: ConfigurationValues }) =>
      api.request<Installation>('PATCH', installationPath(name, id), { configuration }),
    meta: { inlineErrors: true },
    onSuccess: () => invalidateInstallations(client, orgId, name)
  })
}

export function useUninstall(orgId: string, name: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.request<void>('DELETE', installationPath(name, id)),
    onSuccess: () => invalidateInstallations(client, orgId, name)
  })
}

export function useInstallOnTarget(orgId: string, name: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({
      id,
      target,
      targetId,
      configuration
    }: {
      id: string
      target: InstallTarget
      targetId: string
      configuration: ConfigurationValues
    }) =>
      api.request<TargetInstallation>('POST', `${installationPath(name, id)}/${target}`, {
        [target === 'spaces' ? 'space' : 'site']: targetId,
        configuration
      }),
    meta: { inlineErrors: true },
    onSuccess: () => invalidateInstallations(client, orgId, name)
  })
}

export function useUpdateTargetInstallation(orgId: string, name: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({
      id,
      target,
      targetId,
      configuration
    }: {
      id: string
      target: InstallTarget
      targetId: string
      configuration: ConfigurationValues
    }) =>
      api.request<TargetInstallation>('PATCH', `${installationPath(name, id)}/${target}/${encodeURIComponent(targetId)}`, {
        configuration
      }),
    meta: { inlineErrors: true },
    onSuccess: () => invalidateInstallations(client, orgId, name)
  })
}

export function useUninstallTarget(orgId: string, name: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, target, targetId }: { id: string; target: InstallTarget; targetId: string }) =>
      api.request<void>('DELETE', `${installationPath(name, id)}/${target}/${encodeURIComponent(targetId)}`),
    onSuccess: () => invalidateInstallations(client, orgId, name)
  })
}
