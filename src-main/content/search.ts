import { searchTerms, wordTokens } from '../../src-shared/searchTerms'
import type { Db } from '../storage/database'
import {
  indexedRows,
  indexRowParts,
  isLargeSpace,
  pageKeyOfRow,
  type IndexedRow,
  searchIndexVersion,
  spaceOfRow,
  spaceRowParts,
  spaceRowRange
} from './searchIndex'
import type { SearchPool } from './searchPool'
import { HAS_CJK, spellings, STARTS_CJK } from './searchText'
import { kthSmallest } from './select'
import { plainWords, wordMatches, type Word } from './searchWord'

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
/** Sections listed per page, best first; pages per space in organization search. */
export const SECTIONS_PER_PAGE = 5
export const PAGES_PER_SPACE = 10

export interface SearchQuery {
  /** The FTS5 MATCH expression; never raw user syntax. */
  match: string
  /** The terms as typed. */
  terms: string[]
  /** Finds the first term in a section's text (where its excerpt starts). */
  pattern: RegExp
}

/** Most spellings of one phrase tried (every ß/ss spelling of each of its words, combined). */
const MAX_SPELLINGS = 8
/** Most tokens of one phrase used (a CJK run is a token per character); a cut phrase matches a little more. */
const MAX_PHRASE_TOKENS = 32

/**
 * Turns user text into a safe FTS5 expression: every word is quoted (FTS5 operators, column filters and
 * parentheses in the text are plain words), words and quoted phrases must all match (AND), a quoted phrase's
 * words adjacent and in order, and the last word matches as a prefix unless the text ends with a separator (the
 * word is complete). A run of CJK characters is a phrase of single characters, as the index holds them
 * (searchText.ts), and a word with ß or ss matches either spelling. Undefined when the text has no word at all.
 */
export function buildSearchQuery(text: string): SearchQuery | undefined {
  const { terms, phrases, prefixLast } = searchTerms(text, MAX_TERMS)
  if (!phrases.length) return undefined
  const last = phrases.length - 1
  const match = phrases
    .map((words, i) => {
      const tokens = words.flatMap(wordTokens).slice(0, MAX_PHRASE_TOKENS)
      // A prefix of one CJK character would only match that character.
      const prefix = i === last && prefixLast && !HAS_CJK.test(tokens[tokens.length - 1]!) ? '*' : ''
      let variants: string[][] = [[]]
      for (const token of tokens) variants = variants.flatMap((v) => spellings(token).map((s) => [...v, s])).slice(0, MAX_SPELLINGS)
      const alternatives = variants.map((v) => `"${v.join(' ')}"${prefix}`)
      return alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(' OR ')})`
    })
    .join(' AND ')
  const patterns = terms.map((term) => {
    const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ss|\u00df/giu, '(?:ss|ß)')
    // Inside CJK running text a word has letters on both sides.
    return STARTS_CJK.test(term) ? escaped : `(?<![\\p{L}\\p{N}])${escaped}`
  })
  return { match, terms, pattern: new RegExp(`(?:${patterns.join('|')})`, 'iu') }
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
  /** One-based position among all the query's matching pages (of every readable space, for organization search). */
  rank: number
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

// bm25 in billionths, as an integer: ranks the same (closer scores are ties, broken by key) and costs SQLite
// and JSON.parse less than a float's text form over thousands of matches. Billionths, not millionths: FTS5
// clamps the idf of a word on more than half of the rows to 1e-6, so such a word's scores are a few millionths,
// and millionths would turn them into one or two ties ranked by page order instead of frequency and length.
const SCORE = `CAST(bm25(search_sections, ${TITLE_WEIGHT}, 1.0) * 1000000000 AS INTEGER)`

/**
 * The ranking query: every match in the rowid range [@from, @to) with its score, handed over as two JSON arrays
 * (one value instead of thousands of rows: half the cost for broad queries), in rowid order: a page's matches are
 * adjacent, and so are a space's. FTS5 reads only that range of each doclist. Runs here or on the search pool's
 * threads (searchPool.ts), one part of the range each.
 *
 * The inner query's `LIMIT -1` (no limit) keeps SQLite from flattening it into the aggregate, where bm25() cannot
 * run: the rows stream from the FTS5 scan into json_group_array as a co-routine, with no temporary table in
 * between (a MATERIALIZED CTE stores them first: 15% slower on 6,000 matches).
 *
 * The bounds are cast to INTEGER because better-sqlite3 binds every JavaScript number as a REAL, and FTS5 takes a
 * rowid bound only when it is an INTEGER value: given REALs it ignores them, walks the whole doclist of every
 * term, and SQLite drops the rows outside the range one by one. A space's search then cost as much as walking
 * every space's matches (a one-row range of a 50,000-row doclist: 3.7 ms, against 0.015 ms with the cast).
 */
export const MATCHES_SQL = `SELECT json_group_array(rid), json_group_array(score) FROM (
  SELECT search_sections.rowid AS rid, ${SCORE} AS score FROM search_sections
  WHERE search_sections MATCH @match
    AND search_sections.rowid >= CAST(@from AS INTEGER) AND search_sections.rowid < CAST(@to AS INTEGER)
  LIMIT -1)`

/** Past every rowid (they stay below 2^53). */
const ROWID_END = Number.MAX_SAFE_INTEGER

function statements(db: Db) {
  const matches = db.prepare<Record<string, unknown>, [string, string]>(MATCHES_SQL).raw()
  // Organization search reads only live spaces the caller may list (the same rule as the organization's space list).
  const visibleSpaces = db.prepare<Record<string, unknown>, { ord: number; id: string }>(
    `SELECT ss.ord, s.id FROM search_spaces AS ss JOIN spaces AS s ON s.id = ss.space_id
     WHERE ss.ord IN (SELECT value FROM json_each(@ords)) AND s.organization_id = @org AND s.deleted_at IS NULL AND (@all = 1
       OR s.id IN (SELECT space_id FROM space_grants WHERE principal_id IN (SELECT value FROM json_each(@principals)))
       OR s.parent_id IN (SELECT value FROM json_each(@collections)))`
  )
  return { matches, visibleSpaces }
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
  rids: Float64Array
  scores: Float64Array
}

/** Parts of the ranking query's answer, in range order, as one list in rowid order. */
function joinMatches(parts: [Float64Array, Float64Array][]): Matches {
  let rids: Float64Array
  let scores: Float64Array
  if (parts.length === 1) [rids, scores] = parts[0]!
  else {
    const total = parts.reduce((n, [r]) => n + r.length, 0)
    rids = new Float64Array(total)
    scores = new Float64Array(total)
    let at = 0
    for (const [r, sc] of parts) {
      rids.set(r, at)
      scores.set(sc, at)
      at += r.length
    }
  }
  // FTS5 returns matches in rowid order; should it ever not, the two arrays are put in that order here.
  let ordered = true
  for (let i = 1; i < rids.length && ordered; i++) ordered = rids[i - 1]! < rids[i]!
  if (ordered) return { rids, scores }
  const order = Array.from(rids, (_, i) => i).sort((x, y) => rids[x]! - rids[y]!)
  return { rids: Float64Array.from(order, (i) => rids[i]!), scores: Float64Array.from(order, (i) => scores[i]!) }
}

/** The ranking query, here: the matches of `match` in rowid range [from, to), as rowids and scores. */
function matchesRaw(db: Db, match: string, from: number, to: number): [Float64Array, Float64Array] {
  const [rowIds, scoreList] = st(db).matches.get({ match, from, to })!
  return [Float64Array.from(JSON.parse(rowIds) as number[]), Float64Array.from(JSON.parse(scoreList) as number[])]
}

/** The ranking query, here, as matches. */
const matchesHere = (db: Db, match: string, from: number, to: number): Matches => joinMatches([matchesRaw(db, match, from, to)])

/**
 * A query's matches ranked ahead of the search, on the search pool's threads (and this one), and the state of the
 * index they were ranked at. The search uses them only if the index is still in that state (else it ranks again,
 * here).
 */
export interface Ranked {
  matches: Matches
  version: string
}

/**
 * Ranks over the given rowid bounds ([b0, b1), [b1, b2)…): one part per thread, and the last part here while the
 * threads rank theirs (this thread would only wait otherwise). Every query is split, however few rows it matches:
 * the threads' parts go out first, so a thread's hand-over overlaps this thread's part instead of adding to it
 * (measured: a query matching a few hundred rows answers faster split than whole, and a count to tell narrow
 * queries apart cost broad ones about as much as ranking a tenth of their rows).
 */
async function rankOnPool(db: Db, pool: SearchPool, match: string, bounds: number[]): Promise<Ranked | undefined> {
  if (pool.closed) return undefined
  const version = searchIndexVersion(db)
  const params = bounds.slice(1).map((end, i) => ({ match, from: bounds[i]!, to: end }))
  const mine = params.pop()!
  const theirs = pool.run(MATCHES_SQL, params)
  // The threads' failure is awaited (and handled) below, after this thread's part.
  theirs.catch(() => {})
  const here = matchesRaw(db, match, mine.from, mine.to)
  try {
    return { matches: joinMatches([...(await theirs), here]), version }
  } catch (error) {
    // The search ranks in process instead; a pool that failed (not one closed with its workspace) says so once.
    if (!pool.closed) reportPoolFailure(pool, error)
    return undefined
  }
}

const reportedPools = new WeakSet<SearchPool>()
function reportPoolFailure(pool: SearchPool, error: unknown): void {
  if (reportedPools.has(pool)) return
  reportedPools.add(pool)
  console.error('Search threads failed; searches rank in process:', error instanceof Error ? error.message : error)
}

/**
 * The query's words when they are ASCII words that must all match (searchWord.ts), ranked from their postings over
 * rows [from, to). The postings are read from the whole index (bm25's idf counts a word's rows everywhere), so a
 * space with less than half of the index's pages ranks its own range with bm25() instead, which reads only that
 * range. Either way gives the same scores.
 */
function wordsFor(db: Db, match: string, from: number, to: number): Word[] | undefined {
  const words = plainWords(match)
  return words && (to - from >= ROWID_END || isLargeSpace(db, spaceOfRow(from))) ? words : undefined
}

/** A query of plain words ranked from their postings, with the state of the index they were read at. */
function rankWords(db: Db, match: string, from: number, to: number): Ranked | undefined {
  const words = wordsFor(db, match, from, to)
  const version = searchIndexVersion(db)
  const matches = words && wordMatches(db, words, TITLE_WEIGHT, from, to)
  return matches && { matches, version }
}

/**
 * Ranks a space search's matches: a query of plain words here from its postings, any other on the pool's threads and
 * this one, the space's pages split between them.
 */
export async function rankSpace(db: Db, pool: SearchPool | undefined, spaceId: string, query: SearchQuery): Promise<Ranked | undefined> {
  const range = pool && spaceRowRange(db, spaceId)
  const byWord = range && rankWords(db, query.match, range[0], range[1])
  if (byWord) return byWord
  const bounds = pool && spaceRowParts(db, spaceId, pool.threads + 1)
  return bounds && pool ? rankOnPool(db, pool, query.match, bounds) : undefined
}

/**
 * Ranks an organization search's matches: a query of plain words here from its postings, any other on the pool's
 * threads and this one, the whole index split between them.
 */
export async function rankAll(db: Db, pool: SearchPool | undefined, query: SearchQuery): Promise<Ranked | undefined> {
  if (!pool) return undefined
  return rankWords(db, query.match, 0, ROWID_END) || rankOnPool(db, pool, query.match, indexRowParts(db, pool.threads + 1, ROWID_END))
}

/** The matches ranked ahead if the index has not changed since, else ranked now. */
function matchesOf(db: Db, ranked: Ranked | undefined, match: string, from: number, to: number): Matches {
  if (ranked && ranked.version === searchIndexVersion(db)) return ranked.matches
  const words = wordsFor(db, match, from, to)
  return (words && wordMatches(db, words, TITLE_WEIGHT, from, to)) || matchesHere(db, match, from, to)
}

/** The matches of `match` in [from, to) ranked by bm25() (tests compare the plain-word ranking with it). */
export const bm25Matches = (db: Db, match: string, from: number, to: number): Matches => matchesHere(db, match, from, to)

/** The matches of a query of plain words in [from, to) ranked from their postings; undefined for any other query. */
export function wordRankedMatches(db: Db, match: string, from: number, to: number): Matches | undefined {
  const words = plainWords(match)
  return words && wordMatches(db, words, TITLE_WEIGHT, from, to)
}

/**
 * The pages of matches [from, to): where each page's matches start (and end: the next start), its key, its best
 * score, for pages 0 ..< count. Typed arrays sized for the worst case (a page per match): a broad query has
 * thousands of pages, and typed arrays' storage is outside the young heap that every search allocates from.
 */
interface Pages {
  count: number
  starts: Uint32Array
  keys: Float64Array
  best: Float64Array
}

function pagesOf({ rids, scores }: Matches, from: number, to: number): Pages {
  const n = to - from
  const starts = new Uint32Array(n + 1)
  const keys = new Float64Array(n)
  const best = new Float64Array(n)
  let count = 0
  for (let i = from; i < to; i++) {
    const key = pageKeyOfRow(rids[i]!)
    if (count === 0 || keys[count - 1] !== key) {
      starts[count] = i
      keys[count] = key
      best[count] = scores[i]!
      count++
    } else if (scores[i]! < best[count - 1]!) best[count - 1] = scores[i]!
  }
  starts[count] = to
  return { count, starts, keys, best }
}

/**
 * The best `want` pages by (best score, key), best first, as page indexes; `after` admits only pages ranking
 * after a cursor's [score, key]. A selection over the scores finds the cut-off; only the pages at or above it
 * are sorted.
 */
function bestPages(pages: Pages, want: number, after?: [number, number | string]): number[] {
  const { count, keys, best } = pages
  const admitted = (p: number) => !after || best[p]! > after[0] || (best[p] === after[0] && keys[p]! > (after[1] as number))
  let cutoff = Infinity
  if (count > want) {
    const scores = new Float64Array(count)
    let n = 0
    for (let p = 0; p < count; p++) if (admitted(p)) scores[n++] = best[p]!
    if (n > want) cutoff = kthSmallest(scores.subarray(0, n), want - 1)
  }
  const chosen: number[] = []
  for (let p = 0; p < count; p++) if (best[p]! <= cutoff && admitted(p)) chosen.push(p)
  return chosen.sort((a, b) => best[a]! - best[b]! || keys[a]! - keys[b]!).slice(0, want)
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
export function searchSpace(db: Db, spaceId: string, query: SearchQuery, page: SearchPage, ranked?: Ranked): HitList<PageHit> {
  const range = spaceRowRange(db, spaceId)
  if (!range) return { items: [], count: 0, more: false }
  const found = matchesOf(db, ranked, query.match, range[0], range[1])
  const pages = pagesOf(found, 0, found.rids.length)
  const rows = bestPages(pages, page.limit + 1, page.after).flatMap((p) => pageRowsFound(found, pages, p))
  const items = groupPages(rows, sectionDetails(db, rows, query))
  // The pages ranking at or before the cursor come before this list page.
  let before = 0
  const after = page.after
  if (after)
    for (let p = 0; p < pages.count; p++)
      if (pages.best[p]! < after[0] || (pages.best[p] === after[0] && pages.keys[p]! <= (after[1] as number))) before++
  items.forEach((item, i) => (item.rank = before + i + 1))
  return { items: items.slice(0, page.limit), count: pages.count, more: items.length > page.limit }
}

/**
 * Spaces matching the query (those the scope admits), best first, each with its best pages and their sections.
 * The same arrays as space search: a space's matches are adjacent too (its number is the rowid's high part).
 */
export function searchOrganization(
  db: Db,
  organizationId: string,
  scope: SpaceScope,
  query: SearchQuery,
  page: SearchPage,
  ranked?: Ranked
): HitList<SpaceHit> {
  const s = st(db)
  const found = matchesOf(db, ranked, query.match, 0, ROWID_END)
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
    (runs.length ? s.visibleSpaces.all({ ords: JSON.stringify(runs.map((r) => r.ord)), org: organizationId, ...visibility }) : []).map(
      (v) => [v.ord, v.id]
    )
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
  const chosen = best(
    admitted,
    (x) => x.score,
    (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    page.limit + 1
  )
  const perSpace = chosen.map((space) => {
    const pages = pagesOf(found, space.run.from, space.run.to)
    return { space, rows: bestPages(pages, PAGES_PER_SPACE).flatMap((p) => pageRowsFound(found, pages, p)) }
  })
  const details = sectionDetails(
    db,
    perSpace.flatMap((x) => x.rows),
    query
  )
  const items = perSpace.map(({ space, rows }) => ({ spaceId: space.id, score: space.score, pages: groupPages(rows, details) }))
  rankAmong(
    found,
    spaces.map((x) => x.run),
    items.slice(0, page.limit).flatMap((x) => x.pages)
  )
  return { items: items.slice(0, page.limit), count: spaces.length, more: items.length > page.limit }
}

type Details = Map<number, IndexedRow>

/**
 * Sets each shown page's rank among all the pages of the given runs of matches (by best score, then key): one pass
 * over the matches, each page's best placed among the shown pages' by binary search, then counted up.
 */
function rankAmong({ rids, scores }: Matches, runs: { from: number; to: number }[], shown: PageHit[]): void {
  if (!shown.length) return
  const sorted = [...shown].sort((a, b) => a.score - b.score || a.key - b.key)
  // ahead[i]: the pages ranking before sorted[i] and after sorted[i - 1].
  const ahead = new Array<number>(sorted.length + 1).fill(0)
  const place = (score: number, key: number) => {
    let lo = 0
    let hi = sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      const s = sorted[mid]!
      if (s.score < score || (s.score === score && s.key <= key)) lo = mid + 1
      else hi = mid
    }
    ahead[lo]!++
  }
  for (const run of runs) {
    let key = -1
    let bestScore = 0
    for (let i = run.from; i < run.to; i++) {
      const k = pageKeyOfRow(rids[i]!)
      if (k !== key) {
        if (key >= 0) place(bestScore, key)
        key = k
        bestScore = scores[i]!
      } else if (scores[i]! < bestScore) bestScore = scores[i]!
    }
    if (key >= 0) place(bestScore, key)
  }
  // A page lands in the bucket after the last shown page at or before it (a shown page in its own next one), so
  // sorted[i] ranks after the pages of buckets 0..i.
  let total = 0
  sorted.forEach((page, i) => {
    total += ahead[i]!
    page.rank = total + 1
  })
}

/** The found rows' pages and sections, each section's text cut to an excerpt around the query's first term. */
function sectionDetails(db: Db, found: { rid: number }[], query: SearchQuery): Details {
  const details = indexedRows(
    db,
    found.map((r) => r.rid)
  )
  for (const row of details.values()) row.body = excerpt(row.body, query.pattern)
  return details
}

/** Rows ordered by page (best first) become pages; the page's title row (no heading, no text) is not a section. */
function groupPages(found: Found[], details: Details): PageHit[] {
  const pages: PageHit[] = []
  let current: PageHit | undefined
  for (const row of found) {
    const d = details.get(row.rid)
    if (!d) continue
    if (current?.key !== row.page_key) {
      current = { key: row.page_key, pageId: d.pageId, title: d.pageTitle, path: d.path, score: row.score, rank: 0, sections: [] }
      pages.push(current)
    }
    if (d.sectionId || d.body)
      current.sections.push({ rowId: row.rid, sectionId: d.sectionId, title: d.title, body: d.body, score: row.score })
  }
  return pages
}

/** Excerpt length of a section's body, in characters. */
export const EXCERPT_LENGTH = 240
/** Characters of a long body normalized around its first match (the excerpt is cut from them). */
const EXCERPT_WINDOW = EXCERPT_LENGTH * 4
/**
 * Whitespace to fold into one space: runs of two or more, and single characters other than a space. The same
 * result as replacing every `\s+`, without rewriting each single space between words (3× faster on prose).
 */
const FOLDED_WHITESPACE = /\s{2,}|[^\S ]/g

/**
 * The part of a section's text around the first query term (whole words, `…` where cut), so a result list does
 * not carry whole documents. Text shorter than the excerpt comes back whole.
 */
export function excerpt(body: string, pattern: RegExp): string {
  // Only a window of the body around the first match is normalized (whitespace runs → one space): sections can
  // be long, and a result page holds hundreds of them. The window starts at a whitespace boundary, so the
  // pattern's word-boundary lookbehind sees the same words as in the whole text.
  // A body up to the window's length is normalized whole: finding its first match first would only cost a scan.
  const first = body.length <= EXCERPT_WINDOW ? 0 : (pattern.exec(body)?.index ?? 0)
  let from = Math.max(0, first - EXCERPT_LENGTH)
  if (from > 0) {
    const space = body.slice(0, from).search(/\s\S*$/)
    from = space < 0 ? 0 : space
  }
  const to = Math.min(body.length, first + EXCERPT_WINDOW)
  let text = body.slice(from, to).replace(FOLDED_WHITESPACE, ' ')
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
