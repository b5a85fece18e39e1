import type { Db } from '../database'
import { newId } from '../ids'
import { updateById } from './patch'

export interface SiteSectionRow {
  seq: number
  id: string
  site_id: string
  group_id: string | null
  title: string
  description: string | null
  path: string
  icon: string | null
  condition: string | null
  position: number
  created_at: string
}

export interface SiteSectionGroupRow {
  seq: number
  id: string
  site_id: string
  title: string
  icon: string | null
  position: number
  created_at: string
}

export type SiteSectionPatch = Partial<
  Pick<SiteSectionRow, 'title' | 'description' | 'path' | 'icon' | 'condition' | 'position' | 'group_id'>
>
export type SiteSectionGroupPatch = Partial<Pick<SiteSectionGroupRow, 'title' | 'icon' | 'position'>>

/** An item of an ordering (the top of a site: ungrouped sections and groups; or a group's sections). */
export interface StructureItem {
  kind: 'site-section' | 'site-section-group'
  id: string
  position: number
}

/** Sections of sites and the groups that gather them. */
export function siteSectionRepository(db: Db) {
  const section = db.prepare<[string], SiteSectionRow>('SELECT * FROM site_sections WHERE id = ?')
  const insertSection = db.prepare(
    `INSERT INTO site_sections (id, site_id, group_id, title, path, icon, position, created_at)
     VALUES (@id, @site_id, NULL, @title, @path, @icon, @position, @created_at)`
  )
  const removeSection = db.prepare('DELETE FROM site_sections WHERE id = ?')
  const pathOwner = db.prepare<[string, string], string>('SELECT id FROM site_sections WHERE site_id = ? AND path = ?').pluck()
  const sectionPage = db.prepare<[string, number, number, number], SiteSectionRow>(
    'SELECT * FROM site_sections WHERE site_id = ? AND (position, seq) > (?, ?) ORDER BY position, seq LIMIT ?'
  )
  const sectionCount = db.prepare<[string], number>('SELECT count(*) FROM site_sections WHERE site_id = ?').pluck()
  const sectionsInSite = db.prepare<[string], SiteSectionRow>('SELECT * FROM site_sections WHERE site_id = ? ORDER BY position, seq')
  const sectionsInGroups = db.prepare<[string], SiteSectionRow>(
    'SELECT * FROM site_sections WHERE group_id IN (SELECT value FROM json_each(?)) ORDER BY position, seq'
  )
  const firstSection = db.prepare<[string], SiteSectionRow>(
    `SELECT s.* FROM site_sections s LEFT JOIN site_section_groups g ON g.id = s.group_id
     WHERE s.site_id = ? ORDER BY coalesce(g.position, s.position), s.position, s.seq LIMIT 1`
  )

  const group = db.prepare<[string], SiteSectionGroupRow>('SELECT * FROM site_section_groups WHERE id = ?')
  const insertGroup = db.prepare(
    'INSERT INTO site_section_groups (id, site_id, title, icon, position, created_at) VALUES (@id, @site_id, @title, @icon, @position, @created_at)'
  )
  const removeGroup = db.prepare('DELETE FROM site_section_groups WHERE id = ?')
  const groupPage = db.prepare<[string, number, number, number], SiteSectionGroupRow>(
    'SELECT * FROM site_section_groups WHERE site_id = ? AND (position, seq) > (?, ?) ORDER BY position, seq LIMIT ?'
  )
  const groupCount = db.prepare<[string], number>('SELECT count(*) FROM site_section_groups WHERE site_id = ?').pluck()
  const groupsInSite = db.prepare<[string], SiteSectionGroupRow>(
    'SELECT * FROM site_section_groups WHERE site_id = ? ORDER BY position, seq'
  )

  const topLevel = db.prepare<[string, string], StructureItem>(
    `SELECT 'site-section' AS kind, id, position FROM site_sections WHERE site_id = ? AND group_id IS NULL
     UNION ALL SELECT 'site-section-group', id, position FROM site_section_groups WHERE site_id = ?
     ORDER BY position`
  )
  const inGroup = db.prepare<[string], StructureItem>(
    "SELECT 'site-section' AS kind, id, position FROM site_sections WHERE group_id = ? ORDER BY position"
  )

  return {
    get: (id: string) => section.get(id),
    create(input: Pick<SiteSectionRow, 'site_id' | 'title' | 'path' | 'icon' | 'position' | 'created_at'>): SiteSectionRow {
      const id = newId()
      insertSection.run({ ...input, id })
      return section.get(id)!
    },
    update: (id: string, patch: SiteSectionPatch) => updateById(db, 'site_sections', id, patch),
    remove: (id: string) => void removeSection.run(id),
    pathTaken(siteId: string, path: string, exceptId?: string): boolean {
      const owner = pathOwner.get(siteId, path)
      return !!owner && owner !== exceptId
    },
    list: (siteId: string, after: [number, number], limit: number) => sectionPage.all(siteId, after[0], after[1], limit),
    count: (siteId: string) => sectionCount.get(siteId)!,
    inSite: (siteId: string) => sectionsInSite.all(siteId),
    inGroups: (groupIds: string[]) => (groupIds.length ? sectionsInGroups.all(JSON.stringify(groupIds)) : []),
    /** The section that comes first in the site's structure (the fallback default section). */
    first: (siteId: string) => firstSection.get(siteId),

    getGroup: (id: string) => group.get(id),
    createGroup(input: Pick<SiteSectionGroupRow, 'site_id' | 'title' | 'icon' | 'position' | 'created_at'>): SiteSectionGroupRow {
      const id = newId()
      insertGroup.run({ ...input, id })
      return group.get(id)!
    },
    updateGroup: (id: string, patch: SiteSectionGroupPatch) => updateById(db, 'site_section_groups', id, patch),
    removeGroup: (id: string) => void removeGroup.run(id),
    listGroups: (siteId: string, after: [number, number], limit: number) => groupPage.all(siteId, after[0], after[1], limit),
    countGroups: (siteId: string) => groupCount.get(siteId)!,
    groupsInSite: (siteId: string) => groupsInSite.all(siteId),

    /** The top of a site's structure: ungrouped sections and groups, in order. */
    topLevel: (siteId: string) => topLevel.all(siteId, siteId),
    /** A group's sections, in order. */
    inGroup: (groupId: string) => inGroup.all(groupId),
    setPosition(item: Pick<StructureItem, 'kind' | 'id' | 'position'>) {
      if (item.kind === 'site-section') updateById(db, 'site_sections', item.id, { position: item.position })
      else updateById(db, 'site_section_groups', item.id, { position: item.position })
    }
  }
}
