import { asciiSlug } from '../../../src-shared/slug'
import type { SiteRow } from '../../storage/repositories/siteRepository'
import { siteSpaceRepository, type SiteSpaceRow } from '../../storage/repositories/siteSpaceRepository'
import type { SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'

/** A path for a new site space: the space title's slug, numbered when the site already uses it. */
function freePath(ctx: Ctx, siteId: string, title: string): string {
  const repo = ctx.repo(siteSpaceRepository)
  // Site paths are ASCII (PATH_PATTERN).
  const base = asciiSlug(title, 90) || 'space'
  let path = base
  for (let n = 2; repo.pathTaken(siteId, path); n++) path = `${base}-${n}`
  return path
}

/**
 * Links a space to a site, at the end of a section (null: the root of the site). The first site space of a
 * section (or of the root) becomes its default.
 */
export function linkSiteSpace(ctx: Ctx, site: SiteRow, space: SpaceRow, sectionId: string | null): SiteSpaceRow {
  const repo = ctx.repo(siteSpaceRepository)
  return repo.create({
    site_id: site.id,
    section_id: sectionId,
    space_id: space.id,
    path: freePath(ctx, site.id, space.title),
    is_default: repo.hasDefault(site.id, sectionId) ? 0 : 1,
    position: repo.nextPosition(site.id, sectionId),
    created_at: ctx.now
  })
}

/** Unlinks a site space; when it was its section's default, the next one in order takes over. */
export function unlinkSiteSpace(ctx: Ctx, row: SiteSpaceRow): void {
  const repo = ctx.repo(siteSpaceRepository)
  repo.remove(row.id)
  if (!row.is_default) return
  const next = repo.inContainer(row.site_id, row.section_id)[0]
  if (next) repo.makeDefault(next)
}
