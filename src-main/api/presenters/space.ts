import type { Role } from '../../../src-shared/schemas/common'
import type { Space } from '../../../src-shared/schemas/spaces'
import type { SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'
import { spaceRoles } from '../policies/access'
import { spacePermissions } from '../policies/space'
import { spacePublishedUrls } from './siteSpace'

/**
 * Spaces for the caller, their roles and published URLs computed in one batch (no query per space). `roles`: the
 * caller's roles when the route already computed them (the same `spaceRoles` answer).
 */
export function presentSpaces(rows: SpaceRow[], ctx: Ctx, roles?: Map<string, Role | null>): Space[] {
  if (!roles) {
    roles = new Map()
    const byOrg = new Map<string, SpaceRow[]>()
    for (const row of rows) {
      const list = byOrg.get(row.organization_id)
      if (list) list.push(row)
      else byOrg.set(row.organization_id, [row])
    }
    for (const [orgId, list] of byOrg) for (const [id, role] of spaceRoles(ctx, orgId, list)) roles.set(id, role)
  }
  const published = spacePublishedUrls(
    ctx,
    rows.map((r) => r.id)
  )
  return rows.map((row) => present(row, ctx, roles!.get(row.id) ?? null, published.get(row.id)))
}

/** One space: the batch of one, so every endpoint answers the same JSON for the same space. */
export const presentSpace = (row: SpaceRow, ctx: Ctx): Space => presentSpaces([row], ctx)[0]!

/** `published`: the space's preview URL on the first published site showing it (see spacePublishedUrls). */
function present(row: SpaceRow, ctx: Ctx, role: Role | null, published?: string): Space {
  const space: Space = {
    object: 'space',
    id: row.id,
    title: row.title,
    emoji: row.emoji,
    visibility: row.visibility as Space['visibility'],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    editMode: row.edit_mode as Space['editMode'],
    organization: row.organization_id,
    revision: row.revision_id ?? '',
    defaultLevel: row.default_level as Role | null,
    comments: row.comments_open,
    changeRequests: row.change_requests,
    changeRequestsOpen: row.change_requests_open,
    changeRequestsDraft: row.change_requests_draft,
    mergeRules: row.merge_rules ? JSON.parse(row.merge_rules) : { type: 'inherit' },
    urls: { location: ctx.url(`/v1/spaces/${row.id}`), app: ctx.appUrl(`/spaces/${row.id}`) },
    permissions: spacePermissions(role, row.edit_mode)
  }
  if (published) space.urls.published = published
  if (row.deleted_at) space.deletedAt = row.deleted_at
  if (row.parent_id) space.parent = row.parent_id
  if (row.visitor_auth) space.visitorAuth = JSON.parse(row.visitor_auth)
  if (row.git_sync) {
    // A space's Git sync is its own (one connection per space, no separate installation), so the space's id
    // names it; the member is written only after a sync succeeded, so the connection is active. A mirrored
    // space keeps what its server said.
    space.gitSync = { installationId: row.id, installationStatus: 'active', ...JSON.parse(row.git_sync) }
  }
  return space
}
