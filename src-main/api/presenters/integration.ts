import type { Installation, Integration, SiteInstallation, SpaceInstallation } from '../../../src-shared/schemas/integrations'
import { integrationRepository, type InstallationRow, type IntegrationRow } from '../../storage/repositories/integrationRepository'
import {
  installationRepository,
  type InstallationTarget,
  type TargetInstallationRow
} from '../../storage/repositories/installationRepository'
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
  const owners = new Map(
    ctx
      .repo(integrationRepository)
      .organizations(rows.map((r) => r.owner_id))
      .map((o) => [o.id, o])
  )
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

/** A page of installations of integrations, with how many spaces each is installed on (one query). */
export function presentInstallations(rows: InstallationRow[], integrationNames: Map<string, string>, ctx: Ctx): Installation[] {
  const spaces = ctx.repo(installationRepository).spaceCounts(rows.map((r) => r.id))
  return rows.map((row) => presentInstallation(row, integrationNames.get(row.integration_id)!, spaces.get(row.id) ?? 0, ctx))
}

export const installationPath = (integrationName: string, installationId: string) =>
  `/integrations/${encodeURIComponent(integrationName)}/installations/${encodeURIComponent(installationId)}`

export function presentInstallation(row: InstallationRow, integrationName: string, spaces: number, ctx: Ctx): Installation {
  return {
    id: row.id,
    integration: integrationName,
    status: row.status as Installation['status'],
    space_selection: row.space_selection as Installation['space_selection'],
    site_selection: row.site_selection as Installation['site_selection'],
    spaces,
    configuration: JSON.parse(row.configuration),
    externalIds: JSON.parse(row.external_ids),
    target: { organization: row.organization_id },
    urls: {
      location: ctx.url(`/v1${installationPath(integrationName, row.id)}`),
      app: ctx.appUrl(`/orgs/${row.organization_id}/integrations/${encodeURIComponent(integrationName)}`)
    },
    createdAt: row.created_at,
    updatedAt: row.updated_at
  }
}

export function presentSpaceInstallation(row: TargetInstallationRow, integrationName: string, ctx: Ctx): SpaceInstallation {
  return {
    integration: integrationName,
    installation: row.installation_id,
    space: row.target_id,
    ...targetFields(row, integrationName, 'spaces', ctx)
  }
}

export function presentSiteInstallation(row: TargetInstallationRow, integrationName: string, ctx: Ctx): SiteInstallation {
  return {
    integration: integrationName,
    installation: row.installation_id,
    site: row.target_id,
    ...targetFields(row, integrationName, 'sites', ctx)
  }
}

export const presentTargetInstallation = (target: InstallationTarget, row: TargetInstallationRow, integrationName: string, ctx: Ctx) =>
  target === 'space' ? presentSpaceInstallation(row, integrationName, ctx) : presentSiteInstallation(row, integrationName, ctx)

function targetFields(row: TargetInstallationRow, integrationName: string, kind: 'spaces' | 'sites', ctx: Ctx) {
  return {
    status: row.status as SpaceInstallation['status'],
    configuration: JSON.parse(row.configuration),
    externalIds: [],
    urls: {
      location: ctx.url(`/v1${installationPath(integrationName, row.installation_id)}/${kind}/${encodeURIComponent(row.target_id)}`)
    },
    createdAt: row.created_at,
    updatedAt: row.updated_at
  }
}
