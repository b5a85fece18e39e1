import type { Db } from '../database'
import { newId } from '../ids'
import { updateById } from './patch'

export interface SiteSpaceRow {
  seq: number
  id: string
  site_id: string
  section_id: string | null
  space_id: string
  path: string
  condition: string | null
  is_default: number
  position: number
  created_at: string
}

export type SiteSpacePatch = Partial<Pick<SiteSpaceRow, 'path' | 'condition' | 'position' | 'section_id' | 'is_default'>>

/**
 * Site spaces. Reads go through `live_site_spaces`, which hides those whose space is deleted or no longer in
 * the site's organization; path uniqueness is checked on the table itself (the constraint sees every row).
 */
/** Where a published site shows a space: the site space's path, under its section's path when it is in one. */
export interface PublishedPlace {
  space_id: string
  site_id: string
  path: string
  section_path: string | null
}

export function siteSpaceRepository(db: Db) {
  const byId = db.prepare<[string], SiteSpaceRow>('SELECT * FROM live_site_spaces WHERE id = ?')
  const insert = db.prepare(
    `INSERT INTO site_spaces (id, site_id, section_id, space_id, path, is_default, position, created_at)
     VALUES (@id, @site_id, @section_id, @space_id, @path, @is_default, @position, @created_at)`
  )
  const remove = db.prepare('DELETE FROM site_spaces WHERE id = ?')
  const pathOwner = db.prepare<[string, string], string>('SELECT id FROM site_spaces WHERE site_id = ? AND path = ?').pluck()
  const page = db.prepare<[string, number, number, number], SiteSpaceRow>(
    `SELECT * FROM live_site_spaces WHERE site_id = ? AND (position, seq) > (?, ?) ORDER BY position, seq LIMIT ?`
  )
  const pageDefault = db.prepare<[string, number, number, number, number], SiteSpaceRow>(
    `SELECT * FROM live_site_spaces WHERE site_id = ? AND is_default = ? AND (position, seq) > (?, ?) ORDER BY position, seq LIMIT ?`
  )
  const count = db.prepare<[string], number>('SELECT count(*) FROM live_site_spaces WHERE site_id = ?').pluck()
  const countDefault = db
    .prepare<[string, number], number>('SELECT count(*) FROM live_site_spaces WHERE site_id = ? AND is_default = ?')
    .pluck()
  const inSite = db.prepare<[string], SiteSpaceRow>('SELECT * FROM live_site_spaces WHERE site_id = ? ORDER BY position, seq')
  const inContainer = db.prepare<[string, string | null], SiteSpaceRow>(
    'SELECT * FROM live_site_spaces WHERE site_id = ? AND section_id IS ? ORDER BY position, seq'
  )
  const inSections = db.prepare<[string], SiteSpaceRow>(
    'SELECT * FROM live_site_spaces WHERE section_id IN (SELECT value FROM json_each(?)) ORDER BY position, seq'
  )
  const lastPosition = db
    .prepare<[string, string | null], number>('SELECT max(position) FROM site_spaces WHERE site_id = ? AND section_id IS ?')
    .pluck()
  const hasDefault = db
    .prepare<[string, string | null], number>('SELECT count(*) FROM site_spaces WHERE site_id = ? AND section_id IS ? AND is_default = 1')
    .pluck()
  const publishedFor = db.prepare<[string], PublishedPlace>(
    `SELECT ss.space_id, ss.site_id, ss.path, sec.path AS section_path
     FROM live_site_spaces ss JOIN sites st ON st.id = ss.site_id LEFT JOIN site_sections sec ON sec.id = ss.section_id
     WHERE ss.space_id IN (SELECT value FROM json_each(?)) AND st.published = 1
     ORDER BY st.seq, ss.position, ss.seq`
  )
  const publishedOn = db.prepare<[string, string], PublishedPlace>(
    `SELECT ss.space_id, ss.site_id, ss.path, sec.path AS section_path
     FROM live_site_spaces ss JOIN sites st ON st.id = ss.site_id LEFT JOIN site_sections sec ON sec.id = ss.section_id
     WHERE ss.site_id = ? AND ss.space_id = ? AND st.published = 1
     ORDER BY ss.position, ss.seq LIMIT 1`
  )
  const clearDefault = db.prepare('UPDATE site_spaces SET is_default = 0 WHERE site_id = ? AND section_id IS ? AND is_default = 1')
  const rootToSection = db.prepare(
    'UPDATE site_spaces SET section_id = ?, is_default = 0, position = position + ? WHERE site_id = ? AND section_id IS NULL'
  )

  return {
    get: (id: string) => byId.get(id),
    create(input: Omit<SiteSpaceRow, 'seq' | 'id' | 'condition'>): SiteSpaceRow {
      const id = newId()
      insert.run({ ...input, id })
      return byId.get(id)!
    },
    update: (id: string, patch: SiteSpacePatch) => updateById(db, 'site_spaces', id, patch),
    remove: (id: string) => void remove.run(id),
    pathTaken(siteId: string, path: string, exceptId?: string): boolean {
      const owner = pathOwner.get(siteId, path)
      return !!owner && owner !== exceptId
    },
    /** A page of the site's site spaces after the keyset `(position, seq)`; `isDefault` filters when given. */
    list(siteId: string, isDefault: boolean | undefined, after: [number, number], limit: number): SiteSpaceRow[] {
      return isDefault === undefined
        ? page.all(siteId, after[0], after[1], limit)
        : pageDefault.all(siteId, isDefault ? 1 : 0, after[0], after[1], limit)
    },
    count: (siteId: string, isDefault: boolean | undefined) =>
      isDefault === undefined ? count.get(siteId)! : countDefault.get(siteId, isDefault ? 1 : 0)!,
    inSite: (siteId: string) => inSite.all(siteId),
    /** Site spaces of one section (null: the root of the site), in order. */
    inContainer: (siteId: string, sectionId: string | null) => inContainer.all(siteId, sectionId),
    inSections: (sectionIds: string[]) => (sectionIds.length ? inSections.all(JSON.stringify(sectionIds)) : []),
    nextPosition: (siteId: string, sectionId: string | null) => (lastPosition.get(siteId, sectionId) ?? 0) + 1,
    setPosition: (id: string, position: number) => updateById(db, 'site_spaces', id, { position }),
    /** True when the section (null: the root) has a default, counting site spaces hidden with their space. */
    hasDefault: (siteId: string, sectionId: string | null) => hasDefault.get(siteId, sectionId)! > 0,
    /** Makes `id` the default of its section (or of the root), and no other. */
    makeDefault(row: Pick<SiteSpaceRow, 'id' | 'site_id' | 'section_id'>) {
      clearDefault.run(row.site_id, row.section_id)
      updateById(db, 'site_spaces', row.id, { is_default: 1 })
    },
    /** For each space, where a published site shows it first (the oldest site, then structure order). */
    publishedPlaces(spaceIds: string[]): Map<string, PublishedPlace> {
      const result = new Map<string, PublishedPlace>()
      if (spaceIds.length)
        for (const r of publishedFor.all(JSON.stringify(spaceIds))) if (!result.has(r.space_id)) result.set(r.space_id, r)
      return result
    },
    /** Where the site shows the space first, when the site is published and shows it. */
    publishedPlaceOn: (siteId: string, spaceId: string) => publishedOn.get(siteId, spaceId),
    /** Moves the site spaces at the root of a site into a section, after the positions it already has. */
    moveRootInto: (siteId: string, sectionId: string, offset: number) => void rootToSection.run(sectionId, offset, siteId)
  }
}
