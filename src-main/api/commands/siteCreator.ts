import { NEW_SPACE } from '../../../src-shared/schemas/sites'
import { siteRepository, type SiteRow } from '../../storage/repositories/siteRepository'
import { spaceRepository, type SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'
import { badRequest } from '../../base/errors'
import { spaceRole } from '../policies/access'
import { createSpace } from './spaceCreator'
import { linkSiteSpace } from './siteSpaceLinker'

export interface SiteCreateInput {
  organizationId: string
  type?: string
  title?: string
  visibility?: string
  /** Spaces to link in this order, or `new` for a new space of its own. */
  spaces?: string[] | typeof NEW_SPACE
}

/**
 * A space of the organization that the caller can see, named in a request body as `field`: 400 otherwise
 * (a body reference is an input error, and an invisible space is reported exactly like an unknown one).
 */
export function spaceForSite(ctx: Ctx, organizationId: string, spaceId: string, field: string): SpaceRow {
  const space = ctx.repo(spaceRepository).get(spaceId)
  if (!space || space.deleted_at || space.organization_id !== organizationId || !spaceRole(ctx, space)) {
    throw badRequest(`${field}: no space ${spaceId} in this organization`)
  }
  return space
}

/** Creates a site (unpublished) and links its spaces at its root, the first one as the default. */
export function createSite(ctx: Ctx, input: SiteCreateInput): SiteRow {
  const spaces = Array.isArray(input.spaces) ? input.spaces.map((id, i) => spaceForSite(ctx, input.organizationId, id, `spaces.${i}`)) : []
  const site = ctx.repo(siteRepository).create({
    organization_id: input.organizationId,
    type: input.type ?? 'basic',
    title: input.title ?? 'Untitled site',
    visibility: input.visibility ?? 'public',
    created_at: ctx.now
  })
  if (input.spaces === NEW_SPACE)
    spaces.push(createSpace(ctx, { organizationId: input.organizationId, parentId: null, title: site.title.slice(0, 50) }))
  for (const space of spaces) linkSiteSpace(ctx, site, space, null)
  return site
}
