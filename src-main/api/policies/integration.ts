import type { Integration } from '../../../src-shared/schemas/integrations'
import type { IntegrationRow } from '../../storage/repositories/integrationRepository'
import { integrationRepository } from '../../storage/repositories/integrationRepository'
import type { Ctx } from '../../workspace/context'
import { forbidden, notFound } from '../../base/errors'

/**
 * Who sees and may do what with an integration, from the caller's memberships:
 * - public ones are seen and listed by every authenticated user; unlisted ones are seen by name by everyone
 *   but listed only for members of their owner organization; private ones exist only for those members
 *   (guests of the owner organization count as outsiders everywhere here);
 * - admins of the owner organization publish new versions, unpublish and read installations (`admin`);
 * - `install`: admins of some organization may install public and unlisted ones; private ones install only
 *   into their owner organization.
 */
export interface IntegrationViewer {
  /** Organization id -> the caller's role there (null for a guest). */
  roles: Map<string, string | null>
  adminSomewhere: boolean
}

export function integrationViewer(ctx: Ctx): IntegrationViewer {
  const key = 'integration-viewer'
  let viewer = ctx.memo.get(key) as IntegrationViewer | undefined
  if (!viewer) {
    const roles = new Map(
      ctx
        .repo(integrationRepository)
        .memberships(ctx.actor.id)
        .map((m) => [m.organization_id, m.role])
    )
    viewer = { roles, adminSomewhere: [...roles.values()].includes('admin') }
    ctx.memo.set(key, viewer)
  }
  return viewer
}

const memberOf = (viewer: IntegrationViewer, orgId: string) => viewer.roles.get(orgId) != null
const adminOf = (viewer: IntegrationViewer, orgId: string) => viewer.roles.get(orgId) === 'admin'

export const canSee = (row: IntegrationRow, viewer: IntegrationViewer) => row.visibility !== 'private' || memberOf(viewer, row.owner_id)

/** Organizations whose unlisted and private integrations the caller's list includes. */
export const listableOwners = (viewer: IntegrationViewer) => [...viewer.roles].filter(([, role]) => role != null).map(([id]) => id)

export function integrationPermissions(row: IntegrationRow, viewer: IntegrationViewer): Integration['permissions'] {
  const admin = adminOf(viewer, row.owner_id)
  return { admin, install: row.visibility === 'private' ? admin : viewer.adminSomewhere }
}

/** 404 when the caller may not see it, 403 when they may see it but are not an admin of its owner. */
export function authorizeIntegration(ctx: Ctx, row: IntegrationRow | undefined, action: 'view' | 'admin'): IntegrationRow {
  const viewer = integrationViewer(ctx)
  if (!row || !canSee(row, viewer)) throw notFound('Integration')
  if (action === 'admin' && !adminOf(viewer, row.owner_id))
    throw forbidden('This operation needs the admin role in the organization that owns the integration')
  return row
}

export const isAdminOf = (ctx: Ctx, orgId: string) => adminOf(integrationViewer(ctx), orgId)
