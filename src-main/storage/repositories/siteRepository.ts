import type { Db } from '../database'
import { newId } from '../ids'
import { updateById } from './patch'

export interface SiteRow {
  seq: number
  id: string
  organization_id: string
  type: string
  title: string
  icon: string | null
  hostname: string | null
  basename: string | null
  proxy: string | null
  visibility: string
  published: number
  adaptive_enabled: number
  adaptive_schema: string | null
  adaptive_schema_updated_at: string | null
  default_section_id: string | null
  customization: string | null
  /** When the visitor settings last changed (visitor tokens issued until then are refused); null until they do. */
  visitor_settings_at: string | null
  created_at: string
  updated_at: string
}

export type SitePatch = Partial<
  Pick<
    SiteRow,
    | 'title'
    | 'hostname'
    | 'basename'
    | 'proxy'
    | 'visibility'
    | 'published'
    | 'adaptive_enabled'
    | 'adaptive_schema'
    | 'adaptive_schema_updated_at'
    | 'default_section_id'
    | 'customization'
    | 'visitor_settings_at'
    | 'updated_at'
  >
>

export interface SiteFilter {
  organizationId: string
  /** Only sites with a (live) site space of this space. */
  space?: string
  /** Case-insensitive substring of the title. */
  title?: string
  published?: boolean
}

function siteWhere(f: SiteFilter): string {
  const parts = ['s.organization_id = @org']
  if (f.published !== undefined) parts.push('s.published = @published')
  if (f.title !== undefined) parts.push('instr(casefold(s.title), @title) > 0')
  if (f.space !== undefined) parts.push('s.id IN (SELECT site_id FROM live_site_spaces WHERE space_id = @space)')
  return parts.join(' AND ')
}

function filterParams(f: SiteFilter): Record<string, unknown> {
  return {
    org: f.organizationId,
    published: f.published === undefined ? undefined : f.published ? 1 : 0,
    title: f.title?.toLowerCase(),
    space: f.space
  }
}

export function siteRepository(db: Db) {
  const byId = db.prepare<[string], SiteRow>('SELECT * FROM sites WHERE id = ?')
  const insert = db.prepare(
    `INSERT INTO sites (id, organization_id, type, title, visibility, created_at, updated_at)
     VALUES (@id, @organization_id, @type, @title, @visibility, @created_at, @updated_at)`
  )
  const remove = db.prepare('DELETE FROM sites WHERE id = ?')
  const hostnameOwner = db.prepare<[string], string>('SELECT id FROM sites WHERE hostname = ?').pluck()
  const siteSpaceCounts = db.prepare<[string], { site_id: string; n: number }>(
    'SELECT site_id, count(*) AS n FROM live_site_spaces WHERE site_id IN (SELECT value FROM json_each(?)) GROUP BY site_id'
  )

  // One statement per filter combination, prepared on first use and kept.
  const lists = new Map<string, ReturnType<typeof db.prepare<[Record<string, unknown>], SiteRow>>>()
  const counts = new Map<string, ReturnType<typeof db.prepare<[Record<string, unknown>], number>>>()
  const shape = (f: SiteFilter) => `${f.published !== undefined}:${f.title !== undefined}:${f.space !== undefined}`

  return {
    get: (id: string) => byId.get(id),
    create(input: { organization_id: string; type: string; title: string; visibility: string; created_at: string }): SiteRow {
      const id = newId()
      insert.run({ ...input, id, updated_at: input.created_at })
      return byId.get(id)!
    },
    update: (id: string, patch: SitePatch) => updateById(db, 'sites', id, patch),
    remove: (id: string) => void remove.run(id),
    hostnameTaken: (hostname: string, exceptId: string) => {
      const owner = hostnameOwner.get(hostname)
      return !!owner && owner !== exceptId
    },
    list(f: SiteFilter, afterSeq: number, limit: number): SiteRow[] {
      const key = shape(f)
      let st = lists.get(key)
      if (!st)
        lists.set(key, (st = db.prepare(`SELECT s.* FROM sites s WHERE ${siteWhere(f)} AND s.seq > @after ORDER BY s.seq LIMIT @limit`)))
      return st.all(stripUndefined({ ...filterParams(f), after: afterSeq, limit }))
    },
    count(f: SiteFilter): number {
      const key = shape(f)
      let st = counts.get(key)
      if (!st)
        counts.set(key, (st = db.prepare<[Record<string, unknown>], number>(`SELECT count(*) FROM sites s WHERE ${siteWhere(f)}`).pluck()))
      return st.get(stripUndefined(filterParams(f)))!
    },
    /** Number of live site spaces of each site, in one query. */
    siteSpaceCounts(siteIds: string[]): Map<string, number> {
      const result = new Map(siteIds.map((id) => [id, 0]))
      if (siteIds.length) for (const r of siteSpaceCounts.all(JSON.stringify(siteIds))) result.set(r.site_id, r.n)
      return result
    }
  }
}

/** better-sqlite3 refuses named parameters the statement does not use; filters leave theirs undefined. */
function stripUndefined(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined))
}
