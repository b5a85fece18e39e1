import type { Role } from '../../../src-shared/schemas/common'
import type { SamlProvider } from '../../../src-shared/schemas/sso'
import type { Team } from '../../../src-shared/schemas/teams'
import { samlRepository, type SamlProviderRow } from '../../storage/repositories/samlRepository'
import type { Ctx } from '../../workspace/context'
import { presentTeams } from './team'

/** Where the identity provider sends the browser and assertions: this server's own endpoints for the provider. */
export function samlServiceUrls(ctx: Ctx, row: Pick<SamlProviderRow, 'id' | 'organization_id'>): SamlProvider['service'] {
  const base = `/v1/orgs/${row.organization_id}/saml/${row.id}`
  return { acsURL: ctx.url(`${base}/acs`), startURL: ctx.url(`${base}/start`), entityID: ctx.url(base) }
}

/** Providers of one organization for the caller; their default teams are read and presented in one batch. */
export function presentSamlProviders(organizationId: string, rows: SamlProviderRow[], ctx: Ctx): SamlProvider[] {
  const teamRows = ctx.repo(samlRepository).defaultTeams(rows.flatMap((r) => (r.default_team_id ? [r.default_team_id] : [])))
  const teams = new Map(presentTeams(organizationId, teamRows, ctx).map((t) => [t.id, t]))
  return rows.map((row) => presentSamlProvider(row, ctx, teams))
}

export function presentSamlProvider(row: SamlProviderRow, ctx: Ctx, teams?: Map<string, Team>): SamlProvider {
  if (!teams) return presentSamlProviders(row.organization_id, [row], ctx)[0]!
  const provider: SamlProvider = {
    object: 'saml-provider',
    id: row.id,
    label: row.label,
    defaultRole: row.default_role as Role | null,
    createdAt: row.created_at,
    status: row.sso_url !== null && row.entity_id !== null && row.certificate !== null ? 'active' : 'pending',
    service: samlServiceUrls(ctx, row),
    urls: { location: ctx.url(`/v1/orgs/${row.organization_id}/saml/${row.id}`) }
  }
  if (row.sso_url !== null) provider.ssoURL = row.sso_url
  if (row.entity_id !== null) provider.entityID = row.entity_id
  if (row.certificate !== null) provider.certificate = row.certificate
  const team = row.default_team_id ? teams.get(row.default_team_id) : undefined
  if (team) provider.defaultTeam = team
  return provider
}
