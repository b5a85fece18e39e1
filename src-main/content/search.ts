import type { Db } from '../storage/database'
import { pageKeyOfRow, spaceOfRow, spaceRowRange } from './searchIndex'
import { kthSmallest } from './select'

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

// bm25 in millionths, as an integer: ranks the same (closer scores are ties, broken by key) and costs SQLite
// and JSON.parse less than a float's text form over thousands of matches.
const SCORE = `CAST(bm25(search_sections, ${TITLE_WEIGHT}, 1.0) * 1000000 AS INTEGER)`

function statements(db: Db) {
  // Every match's rowid and score, handed to JavaScript as two JSON arrays (one value instead of thousands of
  // rows: half the cost for broad queries), in rowid order: a page's matches are adjacent, and so are a space's.
  // Space search reads only the space's rowid range of the FTS5 doclists.
  const matches = (where: string) =>
    db
      .prepare<Record<string, unknown>, [string, string]>(
        `WITH hits AS MATERIALIZED (
           SELECT search_sections.rowid AS rid, ${SCORE} AS score FROM search_sections WHERE search_sections MATCH @match ${where})
         SELECT json_group_array(rid), json_group_array(score) FROM hits`
      )
      .raw()
  const spaceMatches = matches('AND search_sections.rowid >= @from AND search_sections.rowid < @to')
  const allMatches = matches('')
  // Organization search reads only live spaces the caller may list (the same rule as the organization's space list).
  const visibleSpaces = db.prepare<Record<string, unknown>, { ord: number; id: string }>(
    `SELECT ss.ord, s.id FROM search_spaces AS ss JOIN spaces AS s ON s.id = ss.space_id
     WHERE ss.ord IN (SELECT value FROM json_each(@ords)) AND s.organization_id = @org AND s.deleted_at IS NULL AND (@all = 1
       OR s.id IN (SELECT space_id FROM space_grants WHERE principal_id IN (SELECT value FROM json_each(@principals)))
       OR s.parent_id IN (SELECT value FROM json_each(@collections)))`
  )
  const rows = db.prepare<[string], { rid: number; page_id: string; section_id: string; title: string; body: string; page_title: string; path: string }>(
    `SELECT rowid AS rid, page_id, section_id, title, body, page_title, path FROM search_sections WHERE rowid IN (SELECT value FROM json_each(?))`
  )
  return { spaceMatches, allMatches, visibleSpaces, rows }
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

/** The matches of a query: rowids and bm25 scores (lower is better), in rowid order. */
interface Matches {
  rids: number[]
  scores: number[]
}

function parseMatches([rowIds, scoreList]: [string, string]): Matches {
  const rids = JSON.parse(rowIds) as number[]
  const scores = JSON.parse(scoreList) as number[]
  // FTS5 returns matches in rowid order; should it ever not, the two arrays are put in that order here.
  let ordered = true
  for (let i = 1; i < rids.length && ordered; i++) ordered = rids[i - 1]! < rids[i]!
  if (ordered) return { rids, scores }
  const order = rids.map((_, i) => i).sort((a, b) => rids[a]! - rids[b]!)
  return { rids: order.map((i) => rids[i]!), scores: order.map((i) => scores[i]!) }
}

/** The pages of matches [from, to): where each page's matches start (and end: the next start), its key, its best score. */
interface Pages {
  starts: number[]
  keys: number[]
  best: number[]
}

function pagesOf({ rids, scores }: Matches, from: number, to: number): Pages {
  const pages: Pages = { starts: [], keys: [], best: [] }
  const { starts, keys, best } = pages
  for (let i = from; i < to; i++) {
    const key = pageKeyOfRow(rids[i]!)
    const last = keys.length - 1
    if (last < 0 || keys[last] !== key) {
      starts.push(i)
      keys.push(key)
      best.push(scores[i]!)
    } else if (scores[i]! < best[last]!) best[last] = scores[i]!
  }
  starts.push(to)
  return pages
}

/**
 * The best `want` of the given items by (score, tiebreak), best first. A selection over the scores finds the
 * cut-off; only the items at or above it are sorted with a comparator (a broad query has thousands of items).
 */
function best<T>(items: T[], score: (item: T) => number, tiebreak: (a: T, b: T) => number, want: number): T[] {
  let chosen = items
  if (items.length > want) {
    const scores = new Float64Array(items.length)
    for (let i = 0; i < items.length; i++) scores[i] = score(items[i]!)
    const cutoff = kthSmallest(scores, want - 1)
    chosen = items.filter((item) => score(item) <= cutoff)
  }
  return chosen.sort((a, b) => score(a) - score(b) || tiebreak(a, b)).slice(0, want)
}

/** Page `p`'s best rows (at most SECTIONS_PER_PAGE), as found rows. */
function pageRowsFound({ rids, scores }: Matches, pages: Pages, p: number): Found[] {
  const hits: number[] = []
  for (let i = pages.starts[p]!; i < pages.starts[p + 1]!; i++) hits.push(i)
  hits.sort((a, b) => scores[a]! - scores[b]! || rids[a]! - rids[b]!)
  return hits.slice(0, SECTIONS_PER_PAGE).map((i) => ({ rid: rids[i]!, page_key: pages.keys[p]!, score: scores[i]! }))
}

/**
 * Pages of one space matching the query, best first, each with its best sections. SQLite finds and scores the
 * matching sections (FTS5, bm25) in the space's rowid range; grouping them by page (adjacent, by rowid) and
 * ranking the pages happens here, in a few passes over plain number arrays: for a broad query (thousands of
 * pages) a fraction of what SQL's grouping, ordering and window functions cost.
 */
export function searchSpace(db: Db, spaceId: string, query: SearchQuery, page: SearchPage): HitList<PageHit> {
  const range = spaceRowRange(db, spaceId)
  if (!range) return { items: [], count: 0, more: false }
  const found = parseMatches(st(db).spaceMatches.get({ match: query.match, from: range[0], to: range[1] })!)
  const pages = pagesOf(found, 0, found.rids.length)
  const after = page.after
  const all = pages.keys.map((_, p) => p)
  const admitted = after ? all.filter((p) => pages.best[p]! > after[0] || (pages.best[p] === after[0] && pages.keys[p]! > (after[1] as number))) : all
  const chosen = best(admitted, (p) => pages.best[p]!, (a, b) => pages.keys[a]! - pages.keys[b]!, page.limit + 1)
  const rows = chosen.flatMap((p) => pageRowsFound(found, pages, p))
  const items = groupPages(rows, sectionDetails(db, rows, query))
  return { items: items.slice(0, page.limit), count: pages.keys.length, more: items.length > page.limit }
}

/**
 * Spaces matching the query (those the scope admits), best first, each with its best pages and their sections.
 * The same arrays as space search: a space's matches are adjacent too (its number is the rowid's high part).
 */
export function searchOrganization(db: Db, organizationId: string, scope: SpaceScope, query: SearchQuery, page: SearchPage): HitList<SpaceHit> {
  const s = st(db)
  const found = parseMatches(s.allMatches.get({ match: query.match })!)
  // Runs of matches by space number, then which of those spaces the caller may read in this organization.
  const runs: { ord: number; from: number; to: number }[] = []
  for (let i = 0; i < found.rids.length; i++) {
    const ord = spaceOfRow(found.rids[i]!)
    const last = runs[runs.length - 1]
    if (last?.ord === ord) last.to = i + 1
    else runs.push({ ord, from: i, to: i + 1 })
  }
  const visibility = scope.all
    ? { all: 1, principals: '[]', collections: '[]' }
    : { all: 0, principals: scope.principals, collections: scope.collectionIds }
  const visible = new Map(
    (runs.length ? s.visibleSpaces.all({ ords: JSON.stringify(runs.map((r) => r.ord)), org: organizationId, ...visibility }) : []).map((v) => [v.ord, v.id])
  )
  // A space ranks by its best match; its pages are grouped only if it makes the window.
  const spaces = runs.flatMap((run) => {
    const id = visible.get(run.ord)
    if (!id) return []
    let score = found.scores[run.from]!
    for (let i = run.from + 1; i < run.to; i++) if (found.scores[i]! < score) score = found.scores[i]!
    return [{ id, run, score }]
  })
  const after = page.after
  const admitted = after ? spaces.filter((x) => x.score > after[0] || (x.score === after[0] && x.id > (after[1] as string))) : spaces
  const chosen = best(admitted, (x) => x.score, (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0), page.limit + 1)
  const perSpace = chosen.map((space) => {
    const pages = pagesOf(found, space.run.from, space.run.to)
    const top = best(pages.keys.map((_, p) => p), (p) => pages.best[p]!, (a, b) => pages.keys[a]! - pages.keys[b]!, PAGES_PER_SPACE)
    return { space, rows: top.flatMap((p) => pageRowsFound(found, pages, p)) }
  })
  const details = sectionDetails(db, perSpace.flatMap((x) => x.rows), query)
  const items = perSpace.map(({ space, rows }) => ({ spaceId: space.id, score: space.score, pages: groupPages(rows, details) }))
  return { items: items.slice(0, page.limit), count: spaces.length, more: items.length > page.limit }
}

type Details = Map<number, { page_id: string; section_id: string; title: string; body: string; page_title: string; path: string }>

function sectionDetails(db: Db, found: { rid: number }[], query: SearchQuery): Details {
  if (!found.length) return new Map()
  const rows = st(db).rows.all(JSON.stringify(found.map((r) => r.rid)))
  for (const row of rows) row.body = excerpt(row.body, query.pattern)
  return new Map(rows.map((r) => [r.rid, r]))
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
