import type { Db } from '../storage/database'
import { readIndex, termPostings, type Run } from './ftsPostings'
import { indexTotals, rowSizes, searchIndexVersion } from './searchIndex'

/**
 * Ranking a one-word query without FTS5's bm25(). Most searches are one word (the last one a prefix while it is
 * typed), and a common word matches tens of thousands of rows: bm25() then looks up each row's size with a
 * statement of its own, most of the ranking's cost. Here the word's postings are read from the index's own
 * records (ftsPostings.ts: for each row, its occurrences in each column), and scored with the row sizes kept in
 * memory (searchIndex.ts, rowSizes), by bm25's own formula and arithmetic: the same scores, to the last bit, as
 * `CAST(bm25(search_sections, TITLE_WEIGHT, 1.0) * 1e9 AS INTEGER)` (searchWord.test.ts compares them row by
 * row), so both ways of ranking can serve one list.
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

/** The MATCH expression buildSearchQuery writes for one ASCII word: `"word"`, or `"word"*` for a prefix. */
const ONE_WORD = /^"([A-Za-z0-9]+)"(\*?)$/

/**
 * The query's words when its MATCH expression is ASCII words that must all match (`"one" AND "two"*`), each a
 * phrase of its own, in the expression's order; else undefined (phrases of several words, spellings joined by OR).
 */
export function plainWords(match: string): Word[] | undefined {
  const words: Word[] = []
  for (const phrase of match.split(' AND ')) {
    const found = ONE_WORD.exec(phrase)
    if (!found) return undefined
    words.push({ term: found[1]!.toLowerCase(), prefix: found[2] === '*' })
  }
  return words
}

const lnStatements = new WeakMap<Db, { get(x: number): unknown }>()

/** The natural logarithm as FTS5 takes it (C's log(), through SQLite's ln()), so the idf is bm25's to the bit. */
function ln(db: Db, x: number): number {
  let statement = lnStatements.get(db)
  if (!statement) lnStatements.set(db, (statement = db.prepare('SELECT ln(?)').pluck()))
  return statement.get(x) as number
}

/**
 * Runs merged into one, the two shortest first: a prefix's rare terms make short runs, merged into a long one by
 * finding each of their rows in it (and copying what lies between in blocks); runs of ranges that follow one
 * another are put end to end.
 */
function mergeRuns(runs: Run[]): Run {
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
function insertInto(long: Run, short: Run): Run {
  const out: Run = {
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
function merge(a: Run, b: Run): Run {
  const out: Run = { rows: new Float64Array(a.length + b.length), counts: new Float64Array(a.length + b.length), length: 0 }
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
 * The rows in rowid range [from, to) that hold every word, with their scores, in rowid order, from the words'
 * postings in the whole index (bm25's idf counts the rows a word is in everywhere). Undefined when the index is
 * not in a format the postings reader knows, or a matching row has no size (the postings were read from another
 * state of the index than the sizes): the caller ranks with bm25() instead.
 */
export function wordMatches(
  db: Db,
  words: Word[],
  titleWeight: number,
  from: number,
  to: number
): { rids: Float64Array; scores: Float64Array } | undefined {
  // One read transaction: the postings and the sizes of one state of the index.
  return readIndex(db, () => {
    const lists: Run[] = []
    const state = searchIndexVersion(db)
    for (const word of words) {
      const runs = termPostings(db, 'search_sections', word.term, word.prefix, [titleWeight, 1.0], from, to, state)
      if (!runs) return undefined
      lists.push(mergeRuns(runs))
    }
    // bm25 (fts5Bm25Function, fts5Bm25GetData), phrase for phrase: the idf from the rows the phrase matches in the
    // whole table, the average row length from the table's totals, each row's weighted count and total size.
    const totals = indexTotals(db)
    const avgdl = totals.tokens / totals.rows
    const idfs = lists.map(({ length }) => {
      const idf = ln(db, (totals.rows - length + 0.5) / (length + 0.5))
      return idf <= 0.0 ? 1e-6 : idf
    })
    // The rows every list holds, walked from the shortest list's rows in range; each other list's position only
    // moves forward.
    const shortest = lists.reduce((a, b) => (b.length < a.length ? b : a))
    const at = lists.map((list) => lowerBound(list.rows, list.length, from))
    const found = new Float64Array(
      Math.max(0, lowerBound(shortest.rows, shortest.length, to) - lowerBound(shortest.rows, shortest.length, from))
    )
    const scores = new Float64Array(found.length)
    let n = 0
    const sizeOf = rowSizes(db)
    const i0 = lists.indexOf(shortest)
    rows: for (let j = at[i0]!; j < shortest.length; j++) {
      const row = shortest.rows[j]!
      if (row >= to) break
      for (let w = 0; w < lists.length; w++) {
        if (w === i0) continue
        const list = lists[w]!
        let k = at[w]!
        while (k < list.length && list.rows[k]! < row) k++
        at[w] = k
        if (k === list.length) break rows
        if (list.rows[k] !== row) continue rows
      }
      at[i0] = j
      const size = sizeOf(row)
      if (size < 0) return undefined
      let score = 0.0
      for (let w = 0; w < lists.length; w++) {
        const f = lists[w]!.counts[at[w]!]!
        score += idfs[w]! * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * size) / avgdl)))
      }
      // As the ranking query scores: bm25() is the negated sum, kept in billionths as an integer.
      // (+ 0: a score truncated to -0 is SQLite's 0.)
      found[n] = row
      scores[n++] = Math.trunc(-1.0 * score * 1000000000) + 0
    }
    return { rids: found.slice(0, n), scores: scores.slice(0, n) }
  })
}
