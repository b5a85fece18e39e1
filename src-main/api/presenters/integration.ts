import type { Installation, Integration } from '../../../src-shared/schemas/integrations'
import { integrationRepository, type InstallationRow, type IntegrationRow } from '../../storage/repositories/integrationRepository'
import type { OrganizationRow } from '../../storage/repositories/organizationRepository'
import type { Ctx } from '../../workspace/context'
import { integrationPermissions, integrationViewer } from '../policies/integration'
import { presentOrganization } from './organization'

export interface StoredImage {
  hash: string
  contentType: string
}

/** Images are served outside /v1 (an `<img src>` sends no token), by content hash under the integration's name. */
export const assetPath = (name: string, hash?: string) => `/integrations/${encodeURIComponent(name)}/assets${hash ? `/${hash}` : ''}`

/** A page of integrations, their owner organizations loaded in one query. */
export function presentIntegrations(rows: IntegrationRow[], ctx: Ctx): Integration[] {
  if (!rows.length) return []
  const owners = new Map(ctx.repo(integrationRepository).organizations(rows.map((r) => r.owner_id)).map((o) => [o.id, o]))
  return rows.map((row) => presentIntegration(row, owners.get(row.owner_id)!, ctx))
}

export function presentIntegration(row: IntegrationRow, owner: OrganizationRow, ctx: Ctx): Integration {
  const icon = row.icon ? (JSON.parse(row.icon) as StoredImage) : undefined
  const integration: Integration = {
    object: 'integration',
    name: row.name,
    version: row.version,
    title: row.title,
    description: row.description,
    previewImages: (JSON.parse(row.preview_images) as StoredImage[]).map((image) => ctx.url(assetPath(row.name, image.hash))),
    target: row.target as Integration['target'],
    verified: !!row.verified,
    visibility: row.visibility as Integration['visibility'],
    scopes: JSON.parse(row.scopes),
    categories: JSON.parse(row.categories),
    blocks: JSON.parse(row.blocks),
    contentSources: JSON.parse(row.content_sources),
    configurations: JSON.parse(row.configurations),
    externalLinks: JSON.parse(row.external_links),
    owner: presentOrganization(owner, ctx),
    urls: {
      location: ctx.url(`/v1/integrations/${encodeURIComponent(row.name)}`),
      app: ctx.appUrl(`/integrations/${encodeURIComponent(row.name)}`),
      assets: ctx.url(assetPath(row.name))
    },
    permissions: integrationPermissions(row, integrationViewer(ctx))
  }
  if (row.summary != null) integration.summary = row.summary
  if (icon) integration.urls.icon = ctx.url(assetPath(row.name, icon.hash))
  if (row.content_security_policy != null) integration.contentSecurityPolicy = row.content_security_policy
  return integration
}

export function presentInstallation(row: InstallationRow): Installation {
  return {
    id: row.id,
    status: row.status as Installation['status'],
    space_selection: row.space_selection as Installation['space_selection'],
    site_selection: row.site_selection as Installation['site_selection'],
    // Installations are organization-wide here: no space is selected individually.
    spaces: 0,
    configuration: JSON.parse(row.configuration),
    externalIds: JSON.parse(row.external_ids),
    target: { organization: row.organization_id },
    createdAt: row.created_at
  }
}
