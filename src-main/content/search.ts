import type { Db } from '../storage/database'
import { pageKeyOfRow, SECTION_SPAN, SPACE_SPAN, spaceRowRange } from './searchIndex'

/**
 * Queries over the section index that syncSearchIndex keeps (one FTS5 row per section of every page of each
 * space's primary revision). Ranking is bm25 with the title column weighted above the body; a page ranks by its
 * best section, a space (organization search) by its best page. Lists are keyset-paginated over that ranking:
 * the cursor is the last item's [score, id], and the next page holds the items ranking strictly after it.
 */

/** bm25 weights of the indexed columns: title, body. */
const TITLE_WEIGHT = 5
/** At most this many query terms are used (the rest are ignored): every term is one more doclist to intersect. */
export const MAX_TERMS = 12
/** The last term is matched as a prefix (search as you type) from this length: the table's prefix index starts at 3. */
export const PREFIX_MIN_LENGTH = 3
/** Sections listed per page, best first; pages per space in organization search. */
export const SECTIONS_PER_PAGE = 5
export const PAGES_PER_SPACE = 10

// unicode61 (the table's tokenizer) splits on everything but letters, numbers, marks and private-use characters.
const TERM = /[\p{L}\p{N}\p{M}\p{Co}]+/gu

export interface SearchQuery {
  /** The FTS5 MATCH expression; never raw user syntax. */
  match: string
  /** The terms as typed. */
  terms: string[]
  /** Finds the first term in a section's text (where its excerpt starts). */
  pattern: RegExp
}

/**
 * Turns user text into a safe FTS5 expression: every term is quoted (FTS5 operators, column filters and
 * parentheses in the text are plain words), terms must all match (AND), and the last one matches as a prefix
 * unless the text ends with a separator (the word is complete). Undefined when the text has no word at all.
 */
export function buildSearchQuery(text: string): SearchQuery | undefined {
  const terms = [...new Set(text.normalize('NFC').match(TERM) ?? [])].slice(0, MAX_TERMS)
  if (!terms.length) return undefined
  const complete = /[^\p{L}\p{N}\p{M}\p{Co}]$/u.test(text)
  const last = terms.length - 1
  const match = terms
    .map((term, i) => (i === last && !complete && [...term].length >= PREFIX_MIN_LENGTH ? `"${term}"*` : `"${term}"`))
    .join(' ')
  const escaped = terms.map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return { match, terms, pattern: new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})`, 'iu') }
}

export interface SectionHit {
  rowId: number
  sectionId: string
  title: string
  body: string
  score: number
}

export interface PageHit {
  /** The page's key in the index: ranks ties (and the list's cursor) by a number, not by reading the page id. */
  key: number
  pageId: string
  title: string
  path: string
  score: number
  sections: SectionHit[]
}

export interface SpaceHit {
  spaceId: string
  score: number
  pages: PageHit[]
}

export interface HitList<T> {
  items: T[]
  /** Matching pages (space search) or spaces (organization search), over every page of the list. */
  count: number
  /** True when items rank after the last one returned. */
  more: boolean
}

/** Which spaces organization search may read: all live spaces of the organization, or a guest's scope. */
export type SpaceScope = { all: true } | { all: false; principals: string; collectionIds: string }

const SCORE = `bm25(search_sections, ${TITLE_WEIGHT}, 1.0)`
/** A row's space number and page key from its rowid (see searchIndex.ts). */
const SPACE_OF_ROW = `(search_sections.rowid >> ${Math.log2(SPACE_SPAN)})`
const PAGE_OF_ROW = `(search_sections.rowid >> ${Math.log2(SECTION_SPAN)})`

function statements(db: Db) {
  // Space search: the space's rowid range of the index, every matching row's rowid and score, handed to
  // JavaScript as two JSON arrays (one value instead of thousands of rows: half the cost for broad queries);
  // searchSpace groups them by page (from the rowid) and ranks. Organization search ranks in SQL: pages are
  // ranked once (MATERIALIZED) and only the window's sections come back to JavaScript.
  const spaceHits = db
    .prepare<Record<string, unknown>, [string, string]>(
      `WITH hits AS MATERIALIZED (
         SELECT search_sections.rowid AS rid, ${SCORE} AS score FROM search_sections
         WHERE search_sections MATCH @match AND search_sections.rowid >= @from AND search_sections.rowid < @to)
       SELECT json_group_array(rid), json_group_array(score) FROM hits`
    )
    .raw()
  // Organization search reads only live spaces the caller may list (the same rule as the organization's space list).
  const visible = `s.organization_id = @org AND s.deleted_at IS NULL AND (@all = 1
       OR s.id IN (SELECT space_id FROM space_grants WHERE principal_id IN (SELECT value FROM json_each(@principals)))
       OR s.parent_id IN (SELECT value FROM json_each(@collections)))`
  const hits = `SELECT search_sections.rowid AS rid, ss.space_id AS space_id, ${PAGE_OF_ROW} AS page_key, ${SCORE} AS score
    FROM search_sections CROSS JOIN search_spaces AS ss ON ss.ord = ${SPACE_OF_ROW} CROSS JOIN spaces AS s ON s.id = ss.space_id
    WHERE search_sections MATCH @match AND ${visible}`
  const orgSearch = db.prepare<Record<string, unknown>, { rid: number; space_id: string; page_key: number; score: number; total: number }>(
    `WITH hits AS MATERIALIZED (${hits}),
     pages AS MATERIALIZED (SELECT space_id, page_key, min(score) AS score FROM hits GROUP BY space_id, page_key),
     spaces_ AS MATERIALIZED (SELECT space_id, min(score) AS score FROM pages GROUP BY space_id),
     win AS MATERIALIZED (
       SELECT space_id, score FROM spaces_
       WHERE @afterScore IS NULL OR score > @afterScore OR (score = @afterScore AND space_id > @afterId)
       ORDER BY score, space_id LIMIT @limit),
     top AS MATERIALIZED (
       SELECT * FROM (
         SELECT pages.space_id, pages.page_key, pages.score, win.score AS space_score,
           row_number() OVER (PARTITION BY pages.space_id ORDER BY pages.score, pages.page_key) AS n
         FROM win JOIN pages ON pages.space_id = win.space_id)
       WHERE n <= @pagesPerSpace),
     ranked AS (
       SELECT hits.rid, hits.space_id, hits.page_key, hits.score, top.score AS page_score, top.space_score,
         row_number() OVER (PARTITION BY hits.page_key ORDER BY hits.score, hits.rid) AS n
       FROM top JOIN hits ON hits.page_key = top.page_key)
     SELECT rid, space_id, page_key, score, (SELECT count(*) FROM spaces_) AS total FROM ranked WHERE n <= @sections
     ORDER BY space_score, space_id, page_score, page_key, score, rid`
  )
  const orgCount = db.prepare<Record<string, unknown>, number>(
    `SELECT count(DISTINCT space_id) FROM (${hits})`
  ).pluck()
  const rows = db.prepare<[string], { rid: number; page_id: string; section_id: string; title: string; body: string; page_title: string; path: string }>(
    `SELECT rowid AS rid, page_id, section_id, title, body, page_title, path FROM search_sections WHERE rowid IN (SELECT value FROM json_each(?))`
  )
  return { spaceHits, orgSearch, orgCount, rows }
}

const cache = new WeakMap<Db, ReturnType<typeof statements>>()
const st = (db: Db) => {
  let s = cache.get(db)
  if (!s) cache.set(db, (s = statements(db)))
  return s
}

export interface SearchPage {
  /** [score, key] of the last item of the previous page: a page key (space search) or a space id (organization search). */
  after?: [number, number | string]
  limit: number
}

interface Found {
  rid: number
  page_key: number
  score: number
}

/**
 * Pages of one space matching the query, best first, each with its best sections. SQLite finds and scores the
 * matching sections (FTS5, bm25) in the space's rowid range, in rowid order, so a page's matches are adjacent;
 * grouping them by page and ranking the pages happens here, in a few passes over plain number arrays (a broad
 * query matches thousands of pages: this is a fraction of what SQL's grouping and ordering cost, and allocates
 * next to nothing per match).
 */
export function searchSpace(db: Db, spaceId: string, query: SearchQuery, page: SearchPage): HitList<PageHit> {
  const range = spaceRowRange(db, spaceId)
  if (!range) return { items: [], count: 0, more: false }
  const [rowIds, scoreList] = st(db).spaceHits.get({ match: query.match, from: range[0], to: range[1] })!
  const { rids, scores } = inRowOrder(JSON.parse(rowIds) as number[], JSON.parse(scoreList) as number[])

  // Pages: where each one's matches start, its key, its best (lowest) score.
  const starts: number[] = []
  const keys: number[] = []
  const best: number[] = []
  for (let i = 0; i < rids.length; i++) {
    const key = pageKeyOfRow(rids[i]!)
    const last = keys.length - 1
    if (last < 0 || keys[last] !== key) {
      starts.push(i)
      keys.push(key)
      best.push(scores[i]!)
    } else if (scores[i]! < best[last]!) best[last] = scores[i]!
  }
  starts.push(rids.length)

  // The window: pages after the cursor, the best `limit + 1` of them (ties by key). A native sort of the scores
  // finds the cut-off score; only the pages at or above it are sorted with a comparator.
  const after = page.after
  const admitted = after
    ? keys.map((_, p) => p).filter((p) => best[p]! > after[0] || (best[p] === after[0] && keys[p]! > (after[1] as number)))
    : keys.map((_, p) => p)
  const want = page.limit + 1
  let chosen = admitted
  if (admitted.length > want) {
    const sorted = Float64Array.from(admitted, (p) => best[p]!).sort()
    const cutoff = sorted[want - 1]!
    chosen = admitted.filter((p) => best[p]! <= cutoff)
  }
  chosen.sort((a, b) => best[a]! - best[b]! || keys[a]! - keys[b]!)
  chosen = chosen.slice(0, want)

  const found: Found[] = []
  for (const p of chosen) {
    const hits: number[] = []
    for (let i = starts[p]!; i < starts[p + 1]!; i++) hits.push(i)
    hits.sort((a, b) => scores[a]! - scores[b]! || rids[a]! - rids[b]!)
    for (const i of hits.slice(0, SECTIONS_PER_PAGE)) found.push({ rid: rids[i]!, page_key: keys[p]!, score: scores[i]! })
  }
  const pages = groupPages(found, sectionDetails(db, found, query))
  return { items: pages.slice(0, page.limit), count: keys.length, more: pages.length > page.limit }
}

/** FTS5 returns matches in rowid order; should it ever not, the two arrays are put in that order here. */
function inRowOrder(rids: number[], scores: number[]): { rids: number[]; scores: number[] } {
  let ordered = true
  for (let i = 1; i < rids.length && ordered; i++) ordered = rids[i - 1]! < rids[i]!
  if (ordered) return { rids, scores }
  const order = rids.map((_, i) => i).sort((a, b) => rids[a]! - rids[b]!)
  return { rids: order.map((i) => rids[i]!), scores: order.map((i) => scores[i]!) }
}

/** Spaces matching the query (those the scope admits), best first, each with its best pages and their sections. */
export function searchOrganization(db: Db, organizationId: string, scope: SpaceScope, query: SearchQuery, page: SearchPage): HitList<SpaceHit> {
  const s = st(db)
  const visibility = scope.all
    ? { all: 1, principals: '[]', collections: '[]' }
    : { all: 0, principals: scope.principals, collections: scope.collectionIds }
  const params = {
    match: query.match, org: organizationId, ...visibility, afterScore: page.after?.[0] ?? null, afterId: page.after?.[1] ?? null,
    limit: page.limit + 1, pagesPerSpace: PAGES_PER_SPACE, sections: SECTIONS_PER_PAGE
  }
  const found = s.orgSearch.all(params)
  const details = sectionDetails(db, found, query)
  const spaces: SpaceHit[] = []
  let start = 0
  for (let i = 1; i <= found.length; i++) {
    if (i < found.length && found[i]!.space_id === found[start]!.space_id) continue
    const rows = found.slice(start, i)
    const pages = groupPages(rows, details)
    spaces.push({ spaceId: rows[0]!.space_id, score: pages[0]!.score, pages })
    start = i
  }
  const count = found.length ? found[0]!.total : page.after ? s.orgCount.get({ match: query.match, org: organizationId, ...visibility })! : 0
  return { items: spaces.slice(0, page.limit), count, more: spaces.length > page.limit }
}

type Details = Map<number, { page_id: string; section_id: string; title: string; body: string; page_title: string; path: string }>

function sectionDetails(db: Db, found: { rid: number }[], query: SearchQuery): Details {
  if (!found.length) return new Map()
  const rows = st(db).rows.all(JSON.stringify(found.map((r) => r.rid)))
  return new Map(rows.map((r) => [r.rid, { ...r, body: excerpt(r.body, query.pattern) }]))
}

/** Rows ordered by page (best first) become pages; the page's title row (no heading, no text) is not a section. */
function groupPages(found: Found[], details: Details): PageHit[] {
  const pages: PageHit[] = []
  let current: PageHit | undefined
  for (const row of found) {
    const d = details.get(row.rid)
    if (!d) continue
    if (current?.key !== row.page_key) {
      current = { key: row.page_key, pageId: d.page_id, title: d.page_title, path: d.path, score: row.score, sections: [] }
      pages.push(current)
    }
    if (d.section_id || d.body) current.sections.push({ rowId: row.rid, sectionId: d.section_id, title: d.title, body: d.body, score: row.score })
  }
  return pages
}

/** Excerpt length of a section's body, in characters. */
export const EXCERPT_LENGTH = 240

/**
 * The part of a section's text around the first query term (whole words, `…` where cut), so a result list does
 * not carry whole documents. Text shorter than the excerpt comes back whole.
 */
export function excerpt(body: string, pattern: RegExp): string {
  // Only a window of the body around the first match is normalized (whitespace runs → one space): sections can
  // be long, and a result page holds hundreds of them. The window starts at a whitespace boundary, so the
  // pattern's word-boundary lookbehind sees the same words as in the whole text.
  const first = pattern.exec(body)?.index ?? 0
  let from = Math.max(0, first - EXCERPT_LENGTH)
  if (from > 0) {
    const space = body.slice(0, from).search(/\s\S*$/)
    from = space < 0 ? 0 : space
  }
  const to = Math.min(body.length, first + EXCERPT_LENGTH * 4)
  let text = body.slice(from, to).replace(/\s+/g, ' ')
  const whole = from === 0 && to === body.length
  if (from === 0) text = text.trimStart()
  if (to === body.length) text = text.trimEnd()
  if (whole && text.length <= EXCERPT_LENGTH) return text
  const at = pattern.exec(text)?.index ?? 0
  let start = Math.max(0, at - EXCERPT_LENGTH / 4)
  if (start > 0) {
    const space = text.lastIndexOf(' ', start)
    start = space < 0 ? 0 : space + 1
  }
  let end = Math.min(text.length, start + EXCERPT_LENGTH)
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end)
    if (space > start) end = space
  }
  const cutBefore = from > 0 || start > 0
  const cutAfter = to < body.length || end < text.length
  return `${cutBefore ? '…' : ''}${text.slice(start, end).trim()}${cutAfter ? '…' : ''}`
}
