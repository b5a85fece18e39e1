import type { Role } from '../../../src-shared/schemas/common'
import type { Organization } from '../../../src-shared/schemas/orgs'
import type { OrganizationRow } from '../../storage/repositories/organizationRepository'
import type { Ctx } from '../../workspace/context'
import { membership } from '../policies/access'
import { organizationPermissions } from '../policies/organization'

/** Organizations for the caller (`membership` is memoized per request: no query per row after the first). */
export function presentOrganizations(rows: OrganizationRow[], ctx: Ctx): Organization[] {
  return rows.map((row) => present(row, ctx))
}

/** One organization: the batch of one, so every endpoint answers the same JSON for the same organization. */
export const presentOrganization = (row: OrganizationRow, ctx: Ctx): Organization => presentOrganizations([row], ctx)[0]!

function present(row: OrganizationRow, ctx: Ctx): Organization {
  const member = membership(ctx, row.id)
  const org: Organization = {
    object: 'organization',
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    emailDomains: JSON.parse(row.email_domains) as string[],
    type: row.type as Organization['type'],
    defaultRole: row.default_role as Role | null,
    sso: !!row.sso,
    ai: !!row.ai,
    inviteLinks: !!row.invite_links,
    plan: row.plan,
    mergeRules: row.merge_rules ? JSON.parse(row.merge_rules) : { type: 'none' },
    // Quire has no billing and so no trial: the published "no trial can be started" form.
    trial: { status: 'notapplicable', count: 0 },
    urls: { location: ctx.url(`/v1/orgs/${row.id}`), app: ctx.appUrl(`/orgs/${row.id}`) },
    permissions: organizationPermissions(member?.role as Role | null | undefined, !!member)
  }
  if (row.default_content) org.defaultContent = JSON.parse(row.default_content)
  if (row.hostname) org.hostname = row.hostname
  if (row.use_case) org.useCase = row.use_case as Organization['useCase']
  if (row.community_type) org.communityType = row.community_type as Organization['communityType']
  if (row.custom_hostname) org.customHostname = row.custom_hostname
  if (row.logo) org.urls.logo = row.logo
  return org
}
