import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { Db } from '../storage/database'
import { prng } from '../testing/prng'
import { readIndex, termPostings as postingsIn, type Run } from './ftsPostings'

// The postings reader against FTS5's own answer (its fts5vocab 'instance' table, one row per occurrence) on a
// table made as search's is (contentless, deleting by tombstones), in states that exercise every part of the
// record format: pages of 64 bytes (doclists and position lists over many pages, terms cut by page ends), rows
// written, deleted and written again (tombstones of 4- and 8-byte keys), many segments, incremental merges and an
// optimize.

const WEIGHTS = [5, 1]
const WORDS = ['alpha', 'alphabet', 'alps', 'beta', 'bet', 'betting', 'gamma', 'delta', 'd', 'x9', 'zulu']

/** The postings, read as search reads them: in a read transaction of their own. */
const termPostings = (db: Db, ...args: Parameters<typeof postingsIn> extends [Db, ...infer Rest] ? Rest : never) =>
  readIndex(db, () => postingsIn(db, ...args))

function table(pgsz = 64): Db {
  const db = new Database(':memory:') as unknown as Db
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(title, body, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');
    CREATE VIRTUAL TABLE t_instances USING fts5vocab(t, 'instance');`)
  db.prepare("INSERT INTO t (t, rank) VALUES ('pgsz', ?)").run(BigInt(pgsz))
  return db
}

/** Rows → weighted count, from FTS5's occurrences of the term (or of every term it starts). */
function expected(db: Db, term: string, prefix: boolean): Map<number, number> {
  const where = prefix ? 'term >= ? AND term < ? || char(1114111)' : 'term = ? AND ? IS NOT NULL'
  const rows = new Map<number, number>()
  for (const row of db.prepare(`SELECT doc, col FROM t_instances WHERE ${where}`).iterate(term, term) as Iterable<{
    doc: number
    col: string
  }>)
    rows.set(row.doc, (rows.get(row.doc) ?? 0) + (row.col === 'title' ? WEIGHTS[0]! : WEIGHTS[1]!))
  return rows
}

/** The runs summed per row (a row of several terms of a prefix is in several runs); each run ascending. */
function summed(runs: Run[], from: number, to: number): { counts: Map<number, number>; rows: Set<number> } {
  const counts = new Map<number, number>()
  const rows = new Set<number>()
  for (const run of runs) {
    expect(run.rows.length).toBe(run.length)
    for (let i = 0; i < run.length; i++) {
      const row = run.rows[i]!
      if (i > 0) expect(row).toBeGreaterThan(run.rows[i - 1]!)
      rows.add(row)
      if (row >= from && row < to) counts.set(row, (counts.get(row) ?? 0) + run.counts[i]!)
      else expect(run.counts[i]).toBe(0)
    }
  }
  return { counts, rows }
}

/**
 * Every word and prefix of the vocabulary, over the whole table and over a part of it, as FTS5 reads them; read
 * with the index's state given (tombstones kept from one call to the next while it holds) and without.
 */
function compareAll(db: Db, ranges: [number, number][], state: string): number {
  let compared = 0
  const queries: [string, boolean][] = []
  for (const word of WORDS) {
    queries.push([word, false])
    for (let n = 1; n < word.length; n++) queries.push([word.slice(0, n), true])
  }
  queries.push(['absent', false], ['zz', true])
  for (const [term, prefix] of queries) {
    const want = expected(db, term, prefix)
    for (const [from, to] of ranges) {
      const runs = termPostings(db, 't', term, prefix, WEIGHTS, from, to, state)
      expect(runs, `${term}${prefix ? '*' : ''}`).toBeDefined()
      expect(termPostings(db, 't', term, prefix, WEIGHTS, from, to)).toEqual(runs)
      const got = summed(runs!, from, to)
      expect(
        [...got.rows].sort((a, b) => a - b),
        term
      ).toEqual([...want.keys()].sort((a, b) => a - b))
      const inRange = new Map([...want].filter(([row]) => row >= from && row < to))
      expect(new Map([...got.counts].sort((a, b) => a[0] - b[0])), term).toEqual(new Map([...inRange].sort((a, b) => a[0] - b[0])))
      compared += got.rows.size
    }
  }
  return compared
}

function text(next: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(next() ** 2 * WORDS.length)]).join(' ')
}

describe('FTS5 postings', () => {
  it('reads what FTS5 holds through writes, deletes, rewrites, merges and an optimize, on pages of 64 bytes', () => {
    const db = table()
    // Small merges, often: many segments and incremental merges in progress between the checks.
    db.prepare("INSERT INTO t (t, rank) VALUES ('automerge', 2)").run()
    const next = prng(23)
    const insert = db.prepare('INSERT INTO t (rowid, title, body) VALUES (?, ?, ?)')
    const remove = db.prepare('DELETE FROM t WHERE rowid = ?')
    // Rowids both below 2^32 (4-byte tombstone keys) and past it (8-byte keys), in bursts of one transaction each.
    const rowids = [...Array.from({ length: 150 }, (_, i) => i * 7 + 1), ...Array.from({ length: 150 }, (_, i) => 2 ** 40 + i * 4096)]
    const live = new Set<number>()
    const write = (rowid: number) => {
      if (live.has(rowid)) remove.run(BigInt(rowid))
      // Now and then a long row: a position list longer than a page.
      const body = next() < 0.05 ? `${'alpha '.repeat(200)}${text(next, 20)}` : text(next, 1 + Math.floor(next() * 30))
      insert.run(BigInt(rowid), text(next, 1 + Math.floor(next() * 3)), body)
      live.add(rowid)
    }
    for (let burst = 0; burst < 30; burst++) db.transaction(() => rowids.slice(burst * 10, burst * 10 + 10).forEach(write))()
    const ranges: [number, number][] = [
      [0, Number.MAX_SAFE_INTEGER],
      [0, 2 ** 32],
      [2 ** 40 + 4096 * 20, 2 ** 40 + 4096 * 90]
    ]
    expect(compareAll(db, ranges, 'written')).toBeGreaterThan(3000)

    // Rows written again and deleted, in many small transactions: tombstones in older segments.
    for (let round = 0; round < 40; round++) {
      db.transaction(() => {
        for (let i = 0; i < 8; i++) {
          const rowid = rowids[Math.floor(next() * rowids.length)]!
          if (next() < 0.3 && live.has(rowid)) {
            remove.run(BigInt(rowid))
            live.delete(rowid)
          } else write(rowid)
        }
      })()
    }
    // Records by segment id (the rowid's bits from 37): leaves of several segments, and tombstone pages.
    const count = (sql: string) => db.prepare(`SELECT count(DISTINCT id >> 37) FROM t_data WHERE ${sql}`).pluck().get()
    expect(count('id > 10 AND id >> 37 < 65536'), 'segments').toBeGreaterThan(2)
    expect(count('id >> 37 >= 65536'), 'segments with tombstones').toBeGreaterThan(0)
    compareAll(db, ranges, 'rewritten')

    // One segment, no tombstones.
    db.prepare("INSERT INTO t (t) VALUES ('optimize')").run()
    compareAll(db, ranges, 'optimized')
  })

  it('refuses an index it does not know: one that deletes by delete keys', () => {
    const db = new Database(':memory:') as unknown as Db
    db.exec("CREATE VIRTUAL TABLE t USING fts5(title, body, content = '')")
    db.prepare('INSERT INTO t (rowid, title, body) VALUES (1, ?, ?)').run('alpha', 'beta')
    expect(termPostings(db, 't', 'alpha', false, WEIGHTS, 0, 10)).toBeUndefined()
  })

  it('is read in a read transaction of its own, never inside a write', () => {
    const db = table()
    db.prepare('INSERT INTO t (rowid, title, body) VALUES (3, ?, ?)').run('Beta', 'gamma')
    expect(() => postingsIn(db, 't', 'gamma', false, WEIGHTS, 0, 10)).toThrow('readIndex')
    // FTS5 holds a write's terms in memory until its commit: inside it, the records do not show them.
    db.transaction(() => {
      db.prepare('INSERT INTO t (rowid, title, body) VALUES (4, ?, ?)').run('gamma', '')
      expect(termPostings(db, 't', 'gamma', false, WEIGHTS, 0, 10)).toBeUndefined()
    })()
    expect(termPostings(db, 't', 'gamma', false, WEIGHTS, 0, 10)!.flatMap((run) => Array.from(run.rows))).toEqual([3, 4])
  })

  it('reads an empty table and terms it does not hold', () => {
    const db = table()
    expect(termPostings(db, 't', 'alpha', true, WEIGHTS, 0, 10)).toEqual([])
    db.prepare('INSERT INTO t (rowid, title, body) VALUES (3, ?, ?)').run('Beta', 'gamma gamma')
    expect(termPostings(db, 't', 'alpha', true, WEIGHTS, 0, 10)).toEqual([])
    const runs = termPostings(db, 't', 'gamma', false, WEIGHTS, 0, 10)!
    expect(runs.map((run) => [Array.from(run.rows), Array.from(run.counts)])).toEqual([[[3], [2]]])
    expect(termPostings(db, 't', 'bet', true, WEIGHTS, 0, 10)!.map((run) => Array.from(run.counts))).toEqual([[5]])
  })
})
