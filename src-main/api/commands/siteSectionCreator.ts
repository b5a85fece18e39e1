import { asciiSlug } from '../../../src-shared/slug'
import { siteRepository, type SiteRow } from '../../storage/repositories/siteRepository'
import { siteSectionRepository, type SiteSectionRow } from '../../storage/repositories/siteSectionRepository'
import { siteSpaceRepository } from '../../storage/repositories/siteSpaceRepository'
import type { SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'
import { badRequest, conflict } from '../../base/errors'
import { positionAmong } from './positioning'
import { createSpace } from './spaceCreator'
import { linkSiteSpace } from './siteSpaceLinker'

export interface SectionCreateInput {
  /** The section's first site space; null creates a new space for it. */
  space: SpaceRow | null
  title?: string
  path?: string
  icon?: string
}

export function requireFreeSectionPath(ctx: Ctx, siteId: string, path: string, exceptId?: string): void {
  if (ctx.repo(siteSectionRepository).pathTaken(siteId, path, exceptId)) {
    throw conflict(`path: ${path} is already the path of another section of this site`)
  }
}

/**
 * Adds a section at the end of a site's structure with its first site space. The first section of a site
 * becomes its default section and takes in the site spaces that were at the root (after its own), so none
 * drops out of the structure.
 */
export function createSection(ctx: Ctx, site: SiteRow, input: SectionCreateInput): SiteSectionRow {
  const sections = ctx.repo(siteSectionRepository)
  const siteSpaces = ctx.repo(siteSpaceRepository)
  // A section title has 2 characters or more: a shorter space title cannot be the section's.
  if (input.title === undefined && input.space && input.space.title.trim().length < 2) {
    throw badRequest(`title: is required when the space's title is shorter than 2 characters`)
  }
  const space =
    input.space ??
    createSpace(ctx, { organizationId: site.organization_id, parentId: null, title: (input.title ?? 'New section').slice(0, 50) })
  const title = input.title ?? space.title
  let path = input.path
  if (path) requireFreeSectionPath(ctx, site.id, path)
  else {
    // Site paths are ASCII (PATH_PATTERN).
    const base = asciiSlug(title, 90) || 'section'
    path = base
    for (let n = 2; sections.pathTaken(site.id, path); n++) path = `${base}-${n}`
  }
  const isFirst = sections.count(site.id) === 0
  const position = positionAmong(sections.topLevel(site.id), undefined, () => {})
  const section = sections.create({ site_id: site.id, title, path, icon: input.icon ?? null, position, created_at: ctx.now })
  const first = linkSiteSpace(ctx, site, space, section.id)
  if (isFirst) {
    siteSpaces.moveRootInto(site.id, section.id, first.position)
    ctx.repo(siteRepository).update(site.id, { default_section_id: section.id, updated_at: ctx.now })
  }
  return section
}

/** Deletes a section with its site spaces; when it was the default section, the first remaining one takes over. */
export function removeSection(ctx: Ctx, site: SiteRow, section: SiteSectionRow): void {
  const sections = ctx.repo(siteSectionRepository)
  sections.remove(section.id)
  if (site.default_section_id === section.id) {
    ctx.repo(siteRepository).update(site.id, { default_section_id: sections.first(site.id)?.id ?? null, updated_at: ctx.now })
  }
}
