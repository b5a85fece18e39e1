import type { Role } from '../../../src-shared/schemas/common'
import type { Space } from '../../../src-shared/schemas/spaces'
import type { SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'
import { spaceRoles } from '../policies/access'
import { spacePermissions } from '../policies/space'
import { spacePublishedUrls } from './siteSpace'

/** Spaces for the caller, their permissions computed in one batch (no query per space). */
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
  const published = spacePublishedUrls(ctx, rows.map((r) => r.id))
  return rows.map((row) => presentSpace(row, ctx, roles!.get(row.id) ?? null, published.get(row.id)))
}

/** `published`: the space's preview URL on the first published site showing it (see spacePublishedUrls). */
export function presentSpace(row: SpaceRow, ctx: Ctx, role: Role | null, published?: string): Space {
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
  if (row.git_sync) space.gitSync = JSON.parse(row.git_sync)
  return space
}
