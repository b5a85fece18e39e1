import type { Db } from '../database'
import { newId } from '../ids'
import { updateById } from './patch'

export interface SiteRedirectRow {
  seq: number
  id: string
  site_id: string
  source: string
  /** The source with its %-escapes decoded and without its trailing `*`: what a request path is compared with. */
  match_key: string
  wildcard: number
  draft: number
  capture_wildcard: number
  permanent: number
  /** The destination as JSON (`{kind, …}` as the wire has it). */
  destination: string
  created_at: string
  updated_at: string | null
}

export type SiteRedirectInput = Pick<
  SiteRedirectRow,
  'site_id' | 'source' | 'draft' | 'capture_wildcard' | 'permanent' | 'destination' | 'created_at'
>
export type SiteRedirectPatch = Partial<
  Pick<SiteRedirectRow, 'source' | 'draft' | 'capture_wildcard' | 'permanent' | 'destination' | 'updated_at'>
>

export type RedirectOrder = 'createdAt' | 'updatedAt' | 'source'

export interface RedirectListArgs {
  siteId: string
  draft: boolean
  order: RedirectOrder
  /** Text the source must contain (case-insensitive), if any. */
  search?: string
  /** The sort key of the last row of the previous page. */
  after?: unknown[]
  limit: number
}

/** Splits a source into what requests are compared with: its decoded path, and whether it ends with `*`. */
export function sourceKey(source: string): { match_key: string; wildcard: number } {
  const wildcard = source.endsWith('*')
  const path = wildcard ? source.slice(0, -1) : source
  let decoded = path
  try {
    decoded = decodeURIComponent(path)
  } catch {
    // A %-escape that is no UTF-8: compared as written.
  }
  return { match_key: decoded, wildcard: wildcard ? 1 : 0 }
}

export function siteRedirectRepository(db: Db) {
  const byId = db.prepare<[string], SiteRedirectRow>('SELECT * FROM site_redirects WHERE id = ?')
  const bySource = db.prepare<[string, number, string], SiteRedirectRow>(
    'SELECT * FROM site_redirects WHERE site_id = ? AND draft = ? AND source = ?'
  )
  const insert = db.prepare(
    `INSERT INTO site_redirects (id, site_id, source, match_key, wildcard, draft, capture_wildcard, permanent, destination, created_at)
     VALUES (@id, @site_id, @source, @match_key, @wildcard, @draft, @capture_wildcard, @permanent, @destination, @created_at)`
  )
  const remove = db.prepare('DELETE FROM site_redirects WHERE id = ?')
  const exact = db.prepare<[string, number, string], SiteRedirectRow>(
    'SELECT * FROM site_redirects WHERE site_id = ? AND draft = ? AND wildcard = 0 AND match_key = ? ORDER BY seq LIMIT 1'
  )
  // The longest wildcard prefix wins.
  const prefix = db.prepare<{ site: string; draft: number; path: string }, SiteRedirectRow>(
    `SELECT * FROM site_redirects WHERE site_id = @site AND draft = @draft AND wildcard = 1 AND substr(@path, 1, length(match_key)) = match_key
     ORDER BY length(match_key) DESC, seq LIMIT 1`
  )
  type Params = { site: string; draft: number; search: string | null; a: unknown; b: unknown; limit: number }
  const where = 'site_id = @site AND draft = @draft AND (@search IS NULL OR instr(lower(source), lower(@search)) > 0)'
  const count = db.prepare<Omit<Params, 'a' | 'b' | 'limit'>, number>(`SELECT count(*) FROM site_redirects WHERE ${where}`).pluck()
  const pages = {
    // Newest first.
    createdAt: db.prepare<Params, SiteRedirectRow>(
      `SELECT * FROM site_redirects WHERE ${where} AND (@a IS NULL OR seq < @a) AND @b IS NULL ORDER BY seq DESC LIMIT @limit`
    ),
    // Most recently updated first (created, for those never updated).
    updatedAt: db.prepare<Params, SiteRedirectRow>(
      `SELECT * FROM site_redirects WHERE ${where} AND (@a IS NULL OR (coalesce(updated_at, created_at), seq) < (@a, @b))
       ORDER BY coalesce(updated_at, created_at) DESC, seq DESC LIMIT @limit`
    ),
    source: db.prepare<Params, SiteRedirectRow>(
      `SELECT * FROM site_redirects WHERE ${where} AND (@a IS NULL OR source > @a) AND @b IS NULL ORDER BY source LIMIT @limit`
    )
  }

  return {
    get: (id: string) => byId.get(id),
    bySource: (siteId: string, draft: boolean, source: string) => bySource.get(siteId, draft ? 1 : 0, source),
    create(input: SiteRedirectInput): SiteRedirectRow {
      const id = newId()
      insert.run({ ...input, ...sourceKey(input.source), id })
      return byId.get(id)!
    },
    update(id: string, patch: SiteRedirectPatch): void {
      updateById(db, 'site_redirects', id, patch.source === undefined ? patch : { ...patch, ...sourceKey(patch.source) })
    },
    remove: (id: string) => void remove.run(id),
    count: (siteId: string, draft: boolean, search?: string) => count.get({ site: siteId, draft: draft ? 1 : 0, search: search ?? null })!,
    list(args: RedirectListArgs): SiteRedirectRow[] {
      const [a = null, b = null] = args.after ?? []
      return pages[args.order].all({ site: args.siteId, draft: args.draft ? 1 : 0, search: args.search ?? null, a, b, limit: args.limit })
    },
    /** The live (or draft) redirect a request path (decoded) meets: an exact source first, else the longest wildcard. */
    match(siteId: string, draft: boolean, path: string): SiteRedirectRow | undefined {
      const d = draft ? 1 : 0
      return exact.get(siteId, d, path) ?? prefix.get({ site: siteId, draft: d, path })
    }
  }
}
