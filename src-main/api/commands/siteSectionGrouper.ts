import type { SiteRow } from '../../storage/repositories/siteRepository'
import {
  siteSectionRepository,
  type SiteSectionGroupRow,
  type SiteSectionRow,
  type StructureItem
} from '../../storage/repositories/siteSectionRepository'
import type { Ctx } from '../../workspace/context'
import { positionAmong, type Anchor } from './positioning'

function place(ctx: Ctx, level: StructureItem[], anchor: Anchor | undefined): number {
  const repo = ctx.repo(siteSectionRepository)
  return positionAmong(level, anchor, (spaced) => spaced.forEach((s) => repo.setPosition(s as StructureItem)))
}

/** Puts a section at the end of a group (it leaves the top of the site or its former group). */
export function addToGroup(ctx: Ctx, group: SiteSectionGroupRow, section: SiteSectionRow): void {
  if (section.group_id === group.id) return
  const repo = ctx.repo(siteSectionRepository)
  repo.update(section.id, { group_id: group.id, position: place(ctx, repo.inGroup(group.id), undefined) })
}

/** Takes sections out of their group and puts them, in order, at the top of the site right after `after`. */
export function ungroup(ctx: Ctx, site: SiteRow, sections: SiteSectionRow[], after: Pick<StructureItem, 'kind' | 'id'>): void {
  const repo = ctx.repo(siteSectionRepository)
  let anchor: Anchor = { ...after, side: 'after' }
  for (const section of sections) {
    repo.update(section.id, { group_id: null, position: place(ctx, repo.topLevel(site.id), anchor) })
    anchor = { kind: 'site-section', id: section.id, side: 'after' }
  }
}

/** Creates a group at the end of the site's structure, gathering `sections` in the order given. */
export function createGroup(
  ctx: Ctx,
  site: SiteRow,
  input: { title: string; icon: string | null; sections: SiteSectionRow[] }
): SiteSectionGroupRow {
  const repo = ctx.repo(siteSectionRepository)
  const group = repo.createGroup({
    site_id: site.id,
    title: input.title,
    icon: input.icon,
    position: place(ctx, repo.topLevel(site.id), undefined),
    created_at: ctx.now
  })
  for (const section of input.sections) addToGroup(ctx, group, repo.get(section.id)!)
  return group
}

/** Deletes a group; its sections stay, at the group's place in the structure. */
export function removeGroup(ctx: Ctx, site: SiteRow, group: SiteSectionGroupRow): void {
  const repo = ctx.repo(siteSectionRepository)
  const sections = repo.inGroup(group.id).map((item) => repo.get(item.id)!)
  ungroup(ctx, site, sections, { kind: 'site-section-group', id: group.id })
  repo.removeGroup(group.id)
}

/** Moves a group among the top of the site (absent anchor: to the end). */
export function moveGroup(ctx: Ctx, site: SiteRow, group: SiteSectionGroupRow, anchor: Anchor | undefined): void {
  const repo = ctx.repo(siteSectionRepository)
  const level = repo.topLevel(site.id).filter((item) => !(item.kind === 'site-section-group' && item.id === group.id))
  repo.updateGroup(group.id, { position: place(ctx, level, anchor) })
}
