import type { Db } from '../storage/database'
import { indexTotals, rowSizes } from './searchIndex'

/**
 * Ranking a one-word query without FTS5's bm25(). Most searches are one word (the last one a prefix while it is
 * typed), and a common word matches tens of thousands of rows: bm25() then looks up each row's size with a
 * statement of its own, most of the ranking's cost. Here the word's occurrences are read from the index's own
 * view of them (the `search_instances` fts5vocab table: one row per occurrence, in term and row order), summed
 * per row, and scored with the row sizes kept in memory (searchIndex.ts, rowSizes), by bm25's own formula and
 * arithmetic: the same scores, to the last bit, as `CAST(bm25(search_sections, TITLE_WEIGHT, 1.0) * 1e9 AS
 * INTEGER)` (searchWord.test.ts compares them row by row), so both ways of ranking can serve one list.
 *
 * A word is one term to FTS5 only if unicode61 reads it as one token: ASCII letters and digits are (folded to
 * lower case); anything else goes through bm25().
 */

export interface Word {
  /** The term as the index holds it (lower case). */
  term: string
  /** Whether every term starting with it matches (the word being typed). */
  prefix: boolean
}

/** The MATCH expressions buildSearchQuery writes for one ASCII word: `"word"`, or `"word"*` for a prefix. */
const ONE_WORD = /^"([A-Za-z0-9]+)"(\*?)$/

/** The query's word when its MATCH expression is one ASCII word (whole or prefix), else undefined. */
export function oneWord(match: string): Word | undefined {
  const found = ONE_WORD.exec(match)
  return found ? { term: found[1]!.toLowerCase(), prefix: found[2] === '*' } : undefined
}

/**
 * Every occurrence of the word's term (or of every term it starts, for a prefix: the terms are bytes in UTF-8
 * order, and none of them goes on with U+10FFFF, a noncharacter) in rows [@from, @to), as two JSON arrays of the
 * rows they are in: those in the body, those in the title. Rows are given less @base (the start of the range
 * being ranked), so a space's rows are small integers that JSON.parse reads without allocating each (a rowid is
 * past 2^32): a fifth less to build and parse than whole rowids. The ranking query's shape (two arrays), so the
 * search pool runs it too. Two parts read at once (a thread and this one) answer in ~80% of the time of one:
 * each walks every occurrence (the table takes no row bounds) but builds and parses only its own.
 */
export function occurrencesSql(word: Word): string {
  const terms = word.prefix ? 'term >= @term AND term < @term || char(1114111)' : 'term = @term'
  const row = 'doc - CAST(@base AS INTEGER)'
  return `SELECT json_group_array(${row}) FILTER (WHERE col = 'body'), json_group_array(${row}) FILTER (WHERE col = 'title')
    FROM (SELECT doc, col FROM search_instances
      WHERE ${terms} AND doc >= CAST(@from AS INTEGER) AND doc < CAST(@to AS INTEGER) LIMIT ${MAX_OCCURRENCES})`
}

/** What the occurrence query binds: the term, the rows [from, to) to read and the row they are given from. */
export const occurrenceParams = (word: Word, from: number, to: number, base: number) => ({ term: word.term, from, to, base })

/** A word's occurrences in one range of rows: the rows (less `base`) of those in the body and of those in the title. */
export interface Occurrences {
  base: number
  body: Float64Array
  title: Float64Array
}

// --- which way to rank ------------------------------------------------------------------------------------------
// Reading occurrences costs per occurrence (~0.25 µs, one thread); bm25() costs per matching row (~0.75 µs, its
// size lookup and position walk) and is split between the search threads. So a word is ranked from its
// occurrences while they are fewer than 3 / parts per matching row: for words that are not repeated much through
// the text, on machines of one or two cores (with more, bm25()'s parts win). A word's ratio is learnt the first
// time it is ranked this way (assumed 1 until then); past MAX_OCCURRENCES its reading stops, and it is ranked
// by bm25() from then on. Both ways give the same scores, so the choice never changes an answer.

/** Occurrences read at most (~50 ms); a word with more is ranked by bm25(). */
const MAX_OCCURRENCES = 200_000
/** Words whose ratio is kept (the oldest forgotten first). */
const RATIOS_KEPT = 4096
const ratios = new WeakMap<Db, Map<string, number>>()
const ratioKey = (word: Word) => (word.prefix ? `${word.term}*` : word.term)

function noteRatio(db: Db, word: Word, ratio: number): void {
  let kept = ratios.get(db)
  if (!kept) ratios.set(db, (kept = new Map()))
  kept.delete(ratioKey(word))
  kept.set(ratioKey(word), ratio)
  if (kept.size > RATIOS_KEPT) kept.delete(kept.keys().next().value!)
}

/** Whether the word is better ranked from its occurrences when bm25() would run in `parts` parts. */
export function preferOccurrences(db: Db, word: Word, parts: number): boolean {
  return (ratios.get(db)?.get(ratioKey(word)) ?? 1) < 3 / parts
}

const statements = new WeakMap<Db, Map<string, { get(params: { term: string }): unknown }>>()

/** The word's occurrences in rows [from, to) (less `base`), read on this thread. */
export function occurrencesHere(db: Db, word: Word, from: number, to: number, base: number): Occurrences {
  let byWord = statements.get(db)
  if (!byWord) statements.set(db, (byWord = new Map()))
  const sql = occurrencesSql(word)
  let statement = byWord.get(sql)
  if (!statement) byWord.set(sql, (statement = db.prepare(sql).raw()))
  const [body, title] = statement.get(occurrenceParams(word, from, to, base)) as [string, string]
  return { base, body: Float64Array.from(JSON.parse(body) as number[]), title: Float64Array.from(JSON.parse(title) as number[]) }
}

const lnStatements = new WeakMap<Db, { get(x: number): unknown }>()

/** The natural logarithm as FTS5 takes it (C's log(), through SQLite's ln()), so the idf is bm25's to the bit. */
function ln(db: Db, x: number): number {
  let statement = lnStatements.get(db)
  if (!statement) lnStatements.set(db, (statement = db.prepare('SELECT ln(?)').pluck()))
  return statement.get(x) as number
}

/** Rows in order with the weighted count of the word in each (the title's occurrences count `titleWeight`). */
interface Counts {
  rows: Float64Array
  counts: Float64Array
  length: number
}

/**
 * Sums occurrences per row. They come in parts of ascending row ranges, each part's body and title occurrences in
 * term order and each term's in row order: runs in row order (one per term), summed within a run first, then a
 * part's runs merged (adding up the counts of a row several terms or both columns are in), then the parts.
 */
function countsPerRow(parts: Occurrences[], titleWeight: number): Counts {
  return mergeRuns(parts.map((part) => mergeRuns([...runsOf(part.body, part.base, 1.0), ...runsOf(part.title, part.base, titleWeight)])))
}

/** The runs of occurrences (rows less `base`, in term order, each term's in row order), each row once with its count. */
function runsOf(occurrences: Float64Array, base: number, weight: number): Counts[] {
  const rows = new Float64Array(occurrences.length)
  const counts = new Float64Array(occurrences.length)
  const runs: Counts[] = []
  let start = 0
  let length = 0
  for (let i = 0; i < occurrences.length; i++) {
    const row = occurrences[i]! + base
    if (length > start && rows[length - 1] === row) counts[length - 1]! += weight
    else {
      // A row below the last one starts the next term's run.
      if (length > start && row < rows[length - 1]!) {
        runs.push({ rows: rows.subarray(start, length), counts: counts.subarray(start, length), length: length - start })
        start = length
      }
      rows[length] = row
      counts[length++] = weight
    }
  }
  if (length > start) runs.push({ rows: rows.subarray(start, length), counts: counts.subarray(start, length), length: length - start })
  return runs
}

/**
 * Runs merged into one, the two shortest first: a prefix's rare terms make short runs, merged into a long one by
 * finding each of their rows in it (and copying what lies between in blocks); runs of ranges that follow one
 * another are put end to end.
 */
function mergeRuns(runs: Counts[]): Counts {
  runs = runs.filter((run) => run.length > 0)
  if (!runs.length) return { rows: new Float64Array(0), counts: new Float64Array(0), length: 0 }
  while (runs.length > 1) {
    runs.sort((a, b) => b.length - a.length)
    const shorter = runs.pop()!
    const longer = runs.pop()!
    // Finding each row costs log2(longer) steps; walking both costs one step per row of either.
    runs.push(shorter.length * Math.log2(longer.length + 1) < longer.length ? insertInto(longer, shorter) : merge(longer, shorter))
  }
  return runs[0]!
}

/** The rows of a short run put into a long one: each found by binary search, the long run copied between them. */
function insertInto(long: Counts, short: Counts): Counts {
  const out: Counts = {
    rows: new Float64Array(long.length + short.length),
    counts: new Float64Array(long.length + short.length),
    length: 0
  }
  let i = 0
  for (let j = 0; j < short.length; j++) {
    const row = short.rows[j]!
    let lo = i
    let hi = long.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (long.rows[mid]! < row) lo = mid + 1
      else hi = mid
    }
    out.rows.set(long.rows.subarray(i, lo), out.length)
    out.counts.set(long.counts.subarray(i, lo), out.length)
    out.length += lo - i
    i = lo
    const same = i < long.length && long.rows[i] === row
    out.rows[out.length] = row
    out.counts[out.length++] = short.counts[j]! + (same ? long.counts[i++]! : 0)
  }
  out.rows.set(long.rows.subarray(i, long.length), out.length)
  out.counts.set(long.counts.subarray(i, long.length), out.length)
  out.length += long.length - i
  return out
}

/** Two runs merged by walking both (or put end to end, when one's rows all come before the other's). */
function merge(a: Counts, b: Counts): Counts {
  const out: Counts = { rows: new Float64Array(a.length + b.length), counts: new Float64Array(a.length + b.length), length: 0 }
  if (!a.length || !b.length || a.rows[a.length - 1]! < b.rows[0]! || b.rows[b.length - 1]! < a.rows[0]!) {
    const [first, second] = !a.length || (b.length && b.rows[b.length - 1]! < a.rows[0]!) ? [b, a] : [a, b]
    out.rows.set(first.rows.subarray(0, first.length))
    out.counts.set(first.counts.subarray(0, first.length))
    out.rows.set(second.rows.subarray(0, second.length), first.length)
    out.counts.set(second.counts.subarray(0, second.length), first.length)
    out.length = a.length + b.length
    return out
  }
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    const ra = i < a.length ? a.rows[i]! : Infinity
    const rb = j < b.length ? b.rows[j]! : Infinity
    out.rows[out.length] = Math.min(ra, rb)
    out.counts[out.length++] = (ra <= rb ? a.counts[i++]! : 0) + (rb <= ra ? b.counts[j++]! : 0)
  }
  return out
}

/** The first index of `rows` (ascending, first `length`) at or after `value`. */
function lowerBound(rows: Float64Array, length: number, value: number): number {
  let lo = 0
  let hi = length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (rows[mid]! < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** bm25's constants (FTS5 fixes them). */
const K1 = 1.2
const B = 0.75

/**
 * The word's matches in rowid range [from, to) with their scores, in rowid order, from its occurrences in the
 * whole index (read as the index is now, in parts of ascending row ranges that cover every row). Undefined when they were too many to read all, or a matching row has
 * no size (the occurrences were read from another state of the index than this connection's): the caller ranks
 * with bm25() instead.
 */
export function wordMatches(
  db: Db,
  word: Word,
  occurrences: Occurrences[],
  titleWeight: number,
  from: number,
  to: number
): { rids: Float64Array; scores: Float64Array } | undefined {
  if (occurrences.some((part) => part.body.length + part.title.length >= MAX_OCCURRENCES)) {
    noteRatio(db, word, Infinity)
    return undefined
  }
  const { rows, counts, length } = countsPerRow(occurrences, titleWeight)
  noteRatio(db, word, occurrences.reduce((n, part) => n + part.body.length + part.title.length, 0) / Math.max(1, length))
  // bm25 (fts5Bm25Function, fts5Bm25GetData), term for term: the idf from the rows the phrase matches in the whole
  // table, the average row length from the table's totals, each row's weighted count and total size.
  const totals = indexTotals(db)
  const avgdl = totals.tokens / totals.rows
  let idf = ln(db, (totals.rows - length + 0.5) / (length + 0.5))
  if (idf <= 0.0) idf = 1e-6
  const first = lowerBound(rows, length, from)
  const end = lowerBound(rows, length, to)
  const rids = rows.slice(first, end)
  const scores = new Float64Array(end - first)
  const sizeOf = rowSizes(db)
  for (let i = first; i < end; i++) {
    const size = sizeOf(rows[i]!)
    if (size < 0) return undefined
    const f = counts[i]!
    let score = 0.0
    score += idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * size) / avgdl)))
    // As the ranking query scores: bm25() is the negated sum, kept in billionths as an integer.
    // (+ 0: a score truncated to -0 is SQLite's 0.)
    scores[i - first] = Math.trunc(-1.0 * score * 1000000000) + 0
  }
  return { rids, scores }
}
