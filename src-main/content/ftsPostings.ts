import type { Db } from '../storage/database'

/**
 * A term's postings (or those of every term a prefix starts) read from the FTS5 index's own records: for each row
 * the term is in, how often it is in each column. FTS5 answers that only through its vocabulary tables (a row per
 * occurrence, printed and parsed: ~0.4 µs each) or bm25() (a statement per matching row for its size); its
 * records hold it as varints, decoded here at ~30 ns a posting.
 *
 * The record formats are those documented at the top of SQLite's fts5_index.c: the structure record (levels of
 * segments, V2 with each segment's tombstone pages), each segment's leaf pages (terms prefix-compressed, each
 * followed by its doclist of rowids and position lists; a page footer locating the terms; a doclist or position
 * list may go on over the next pages) and the segment b-tree's `%_idx` table that locates a term's first leaf.
 * An entry is live unless its rowid is in its segment's tombstone hash (contentless_delete tables, as search's is,
 * delete that way: a row is in one segment at most, until deleted there). Read in one read transaction
 * (readIndex), so every record is of one state of the index.
 *
 * Anything unexpected (another structure version, a delete flag, a record that does not parse) answers
 * undefined, and the caller ranks with bm25() instead: the reader never guesses. ftsPostings.test.ts holds it
 * to FTS5's own answers (fts5vocab) through writes, deletes, merges and doclists over many pages.
 */

/** Rows in ascending order, each with its weighted count of the term; `length` of them. */
export interface Run {
  rows: Float64Array
  counts: Float64Array
  length: number
}

/** The FTS5 index format this reader knows (`%_config` version). */
const FORMAT_VERSION = 4
const STRUCTURE_ROWID = 10
/** `%_data` rowid parts: segment id << 37, page number in the low 31 bits (fts5_dri). */
const SEGMENT_SHIFT = 2 ** 37
const TOMBSTONE_SEGMENT = 2 ** 16
/** FTS5's main index terms start with this byte ('0'); prefix indexes use others. */
const MAIN_PREFIX = 0x30

interface Segment {
  id: number
  firstPage: number
  lastPage: number
  tombstonePages: number
}

function statements(db: Db, table: string) {
  return {
    version: db.prepare<[], number>(`SELECT v FROM "${table}_config" WHERE k = 'version'`).pluck(),
    block: db.prepare<[number], Buffer>(`SELECT block FROM "${table}_data" WHERE id = ?`).pluck(),
    // The rowids are past 2^32 and bound as REALs: cast, so the bounds are the rowid b-tree's own.
    blocks: db
      .prepare<[number, number], Buffer>(`SELECT block FROM "${table}_data" WHERE id >= CAST(? AS INTEGER) AND id <= CAST(? AS INTEGER)`)
      .pluck(),
    firstLeaf: db
      .prepare<[number, Buffer], number>(`SELECT pgno FROM "${table}_idx" WHERE segid = ? AND term <= ? ORDER BY term DESC LIMIT 1`)
      .pluck()
  }
}

type Statements = ReturnType<typeof statements>
const cache = new WeakMap<Db, Map<string, Statements>>()
function st(db: Db, table: string): Statements {
  let byTable = cache.get(db)
  if (!byTable) cache.set(db, (byTable = new Map()))
  let s = byTable.get(table)
  if (!s) byTable.set(table, (s = statements(db, table)))
  return s
}

class Corrupt extends Error {}

function readStructure(s: Statements): Segment[] | undefined {
  const record = s.block.get(STRUCTURE_ROWID)
  if (!record) return []
  // A 4-byte cookie, then the V2 marker (tombstones): a V1 structure is not what a contentless_delete table writes.
  if (record.length < 8 || record[4] !== 0xff || record[5] !== 0 || record[6] !== 0 || record[7] !== 1) return undefined
  let at = 8
  const varint = () => {
    const [value, next] = varintAt(record, at)
    at = next
    return value
  }
  const levels = varint()
  varint() // segments in all
  varint() // write counter
  const segments: Segment[] = []
  for (let level = 0; level < levels; level++) {
    varint() // segments being merged
    const count = varint()
    for (let i = 0; i < count; i++) {
      const id = varint()
      const firstPage = varint()
      const lastPage = varint()
      varint() // origin counter, lower
      varint() // and upper
      const tombstonePages = varint()
      varint() // tombstone entries
      varint() // entries
      if (lastPage < firstPage || id <= 0 || id >= TOMBSTONE_SEGMENT) throw new Corrupt('segment bounds')
      segments.push({ id, firstPage, lastPage, tombstonePages })
    }
  }
  return segments
}

/** Tombstones as last parsed, by segment, with the pages they were parsed from and the index state they were read at. */
const tombstoneCache = new WeakMap<Db, Map<number, { state: string | undefined; pages: Buffer[]; rows: Float64Array }>>()

/**
 * A segment's tombstones (the rowids whose entries in it are deleted), ascending: every key of its tombstone hash
 * pages (fts5IndexTombstoneQuery's table; rowid 0 by the first page's flag). Read again unless the caller's
 * `state` says the index is as it was when they were read; parsed again only when their bytes changed.
 */
function tombstones(db: Db, s: Statements, segment: Segment, state: string | undefined): Float64Array {
  if (!segment.tombstonePages) return NO_ROWS
  let bySegment = tombstoneCache.get(db)
  if (!bySegment) tombstoneCache.set(db, (bySegment = new Map()))
  const cached = bySegment.get(segment.id)
  if (cached && state !== undefined && cached.state === state && cached.pages.length === segment.tombstonePages) return cached.rows
  const first = (segment.id + TOMBSTONE_SEGMENT) * SEGMENT_SHIFT
  const pages = s.blocks.all(first, first + segment.tombstonePages - 1)
  if (cached && cached.pages.length === pages.length && cached.pages.every((page, i) => page.equals(pages[i]!))) {
    cached.state = state
    return cached.rows
  }
  const rows: number[] = []
  pages.forEach((page, i) => {
    const keySize = page[0]!
    if ((keySize !== 4 && keySize !== 8) || page.length < 8) throw new Corrupt('tombstone page')
    if (i === 0 && page[1]) rows.push(0)
    for (let at = 8; at + keySize <= page.length; at += keySize) {
      const key = keySize === 4 ? page.readUInt32BE(at) : page.readUInt32BE(at) * 2 ** 32 + page.readUInt32BE(at + 4)
      if (key) rows.push(key)
    }
  })
  const sorted = Float64Array.from(rows).sort()
  bySegment.set(segment.id, { state, pages, rows: sorted })
  return sorted
}

const NO_ROWS = new Float64Array(0)

/** Where a term stands against the one looked for: before it, one of its terms, or past every one of them. */
const BEFORE = 0
const MATCH = 1
const PAST = 2

function compareTerm(term: Uint8Array, length: number, wanted: Uint8Array, prefix: boolean): number {
  const n = Math.min(length, wanted.length)
  for (let i = 0; i < n; i++) {
    if (term[i]! !== wanted[i]!) return term[i]! < wanted[i]! ? BEFORE : PAST
  }
  if (length < wanted.length) return BEFORE
  return length === wanted.length || prefix ? MATCH : PAST
}

/**
 * A segment's reading: the doclist being read (its term's run so far, the entry it is in) and what to count.
 * The reading goes page by page; a doclist, and a position list, may go on over the next page.
 */
class Reading {
  rows = new Float64Array(1024)
  counts = new Float64Array(1024)
  /** The current doclist's run is [start, length) of the arrays. */
  start = 0
  length = 0
  rowid = 0
  /** Bytes of the current position list still to read (on the next page), -1 between entries. */
  left = -1
  column = 0
  /** The last byte read was a column marker: the next varint is a column number. */
  columnNext = false
  weighted = 0
  counting = false
  /** The segment's tombstones and the first one not below the current rowid. */
  tombs: Float64Array = NO_ROWS
  tomb = 0

  constructor(
    readonly weights: readonly number[],
    readonly from: number,
    readonly to: number
  ) {}

  /** Starts the doclist of a wanted term. */
  startDoclist(): void {
    this.start = this.length
    this.tomb = 0
    this.left = -1
  }

  /** The entry ends: kept unless its segment holds a tombstone for it. */
  endEntry(): void {
    this.left = -1
    const rowid = this.rowid
    const tombs = this.tombs
    while (this.tomb < tombs.length && tombs[this.tomb]! < rowid) this.tomb++
    if (this.tomb < tombs.length && tombs[this.tomb] === rowid) return
    if (this.length === this.rows.length) {
      // Runs handed out keep the arrays they are views of; the one being read moves to new ones.
      const size = Math.max(1024, (this.length - this.start) * 2)
      const rows = new Float64Array(size)
      rows.set(this.rows.subarray(this.start, this.length))
      const counts = new Float64Array(size)
      counts.set(this.counts.subarray(this.start, this.length))
      this.rows = rows
      this.counts = counts
      this.length -= this.start
      this.start = 0
    }
    this.rows[this.length] = rowid
    this.counts[this.length++] = this.weighted
  }

  /** The doclist's run (a view of the reading's arrays), when it has rows. */
  run(): Run | undefined {
    if (this.length === this.start) return undefined
    const run = {
      rows: this.rows.subarray(this.start, this.length),
      counts: this.counts.subarray(this.start, this.length),
      length: this.length - this.start
    }
    this.start = this.length
    return run
  }

  /**
   * Position list bytes from `at` (at most to `end`, the region's end): occurrences counted by column (varints
   * are never split over pages; a column marker's number may be). Returns where it stopped.
   */
  poslist(buf: Uint8Array, at: number, end: number): number {
    const stop = Math.min(end, at + this.left)
    this.left -= stop - at
    if (this.counting) {
      const weights = this.weights
      let column = this.column
      let columnNext = this.columnNext
      let weighted = this.weighted
      while (at < stop) {
        const byte = buf[at++]!
        if (columnNext) {
          let value = byte & 0x7f
          if (byte & 0x80) {
            let next: number
            do {
              next = buf[at++]!
              value = value * 128 + (next & 0x7f)
            } while (next & 0x80 && at < stop)
          }
          column = value
          columnNext = false
        } else if (byte === 0x01) columnNext = true
        else {
          if (byte & 0x80) while (buf[at++]! & 0x80 && at < stop);
          weighted += weights[column] ?? 0
        }
      }
      this.column = column
      this.columnNext = columnNext
      this.weighted = weighted
    }
    if (this.left === 0) this.endEntry()
    return stop
  }

  /** Doclist entries in [at, end), the first one's rowid whole (a doclist's or a page's first). */
  entries(buf: Uint8Array, at: number, end: number, firstWhole: boolean): void {
    while (at < end) {
      if (this.left > 0) {
        at = this.poslist(buf, at, end)
        continue
      }
      let byte = buf[at++]!
      let value = byte & 0x7f
      while (byte & 0x80) {
        byte = buf[at++]!
        value = value * 128 + (byte & 0x7f)
      }
      this.rowid = firstWhole ? value : this.rowid + value
      firstWhole = false
      byte = buf[at++]!
      let size = byte & 0x7f
      while (byte & 0x80) {
        byte = buf[at++]!
        size = size * 128 + (byte & 0x7f)
      }
      if (at > end) throw new Corrupt('entry past its region')
      // A delete flag: a table that deletes by delete keys, not tombstones. Not this reader's.
      if (size & 1) throw new Corrupt('delete key')
      this.left = size >> 1
      this.column = 0
      this.columnNext = false
      this.counting = this.rowid >= this.from && this.rowid < this.to
      this.weighted = 0
      if (this.left === 0) this.endEntry()
    }
  }
}

/**
 * SQLite's varint (FTS5 writes its records with it) at `at` of `buf`: [value, next offset]. Values past 2^56 (a
 * ninth byte) are refused: no rowid, count or size reaches them.
 */
export function varintAt(buf: Uint8Array, at: number): [number, number] {
  let value = 0
  for (let i = 0; i < 8; i++) {
    const byte = buf[at++]
    if (byte === undefined) throw new Corrupt('record ends inside a varint')
    value = value * 128 + (byte & 0x7f)
    if (!(byte & 0x80)) return [value, at]
  }
  throw new Corrupt('varint past 2^56')
}

/**
 * Reads one segment's doclists of the wanted terms into runs (one per term). Counts are weighted by column and
 * kept for rows in [from, to); rows outside it are listed with count 0 (they count for the term's row total).
 */
function scanSegment(
  db: Db,
  s: Statements,
  segment: Segment,
  wanted: Uint8Array,
  prefix: boolean,
  reading: Reading,
  runs: Run[],
  state: string | undefined
): void {
  const seek = s.firstLeaf.get(segment.id, Buffer.from(wanted))
  const startPage = Math.max(segment.firstPage, seek === undefined ? segment.firstPage : Math.floor(seek / 2))
  reading.tombs = tombstones(db, s, segment, state)
  reading.left = -1

  let term = new Uint8Array(64)
  let termLength = 0
  let termsSeen = false
  // The doclist being read belongs to a wanted term.
  let inDoclist = false
  const termsAt: number[] = []
  const endDoclist = () => {
    if (inDoclist) {
      const run = reading.run()
      if (run) runs.push(run)
    }
    inDoclist = false
  }

  const first = segment.id * SEGMENT_SHIFT + startPage
  const last = segment.id * SEGMENT_SHIFT + segment.lastPage
  for (const page of s.blocks.iterate(first, last)) {
    if (page.length < 4) throw new Corrupt('leaf header')
    const rowidAt = (page[0]! << 8) | page[1]!
    const footerAt = (page[2]! << 8) | page[3]!
    if (footerAt > page.length || footerAt < 4 || rowidAt >= footerAt) throw new Corrupt('leaf footer')
    // The footer: the offsets of the page's terms, each from the one before.
    termsAt.length = 0
    for (let at = footerAt, offset = 0; at < page.length;) {
      const [delta, next] = varintAt(page, at)
      termsAt.push((offset += delta))
      at = next
    }
    const firstTerm = termsAt.length ? termsAt[0]! : footerAt
    if (inDoclist) {
      // The doclist goes on: the rest of a position list, then entries from the page's first rowid (whole).
      if (reading.left > 0) reading.poslist(page, 4, rowidAt || firstTerm)
      if (rowidAt) reading.entries(page, rowidAt, firstTerm, true)
    }
    for (let t = 0; t < termsAt.length; t++) {
      if (reading.left > 0) throw new Corrupt('position list cut by a term')
      endDoclist()
      // The page's first term is whole; the others share a prefix with the term before.
      let at = termsAt[t]!
      let shared = 0
      if (t > 0) [shared, at] = varintAt(page, at)
      const [added, next] = varintAt(page, at)
      at = next
      if (shared > termLength || at + added > footerAt || (!termsSeen && shared)) throw new Corrupt('term')
      if (shared + added > term.length) {
        const grown = new Uint8Array(Math.max(term.length * 2, shared + added))
        grown.set(term.subarray(0, shared))
        term = grown
      }
      term.set(page.subarray(at, at + added), shared)
      termLength = shared + added
      at += added
      termsSeen = true
      const where = compareTerm(term, termLength, wanted, prefix)
      if (where === PAST) return
      if (where === BEFORE) continue
      inDoclist = true
      reading.startDoclist()
      reading.entries(page, at, t + 1 < termsAt.length ? termsAt[t + 1]! : footerAt, true)
    }
  }
  if (reading.left > 0) throw new Corrupt('segment ends inside a position list')
  endDoclist()
}

const reading = new WeakSet<Db>()

/**
 * Runs `read` (which reads postings, and whatever else must be of the same state of the index) in one read
 * transaction. Undefined inside a transaction already open: in a write, FTS5 holds terms in memory until its
 * commit, where its records do not show them.
 */
export function readIndex<T>(db: Db, read: () => T): T | undefined {
  if (db.inTransaction) return undefined
  reading.add(db)
  try {
    return db.transaction(read)()
  } finally {
    reading.delete(db)
  }
}

/**
 * The postings of `term` (UTF-8 as the index holds it; with `prefix`, of every term starting with it) in the FTS5
 * table `table`: one run per term and segment, rows ascending, each with its count of the term weighted by
 * column (`weights[column]` per occurrence) for rows in [from, to), 0 for the others. Undefined when the index is
 * not in the format this reader knows. Called inside readIndex. `state`: a value that changes whenever the table
 * may have been written (by this connection or another); tombstones read at the same state are not read again.
 */
export function termPostings(
  db: Db,
  table: string,
  term: string,
  prefix: boolean,
  weights: readonly number[],
  from: number,
  to: number,
  state?: string
): Run[] | undefined {
  if (!reading.has(db)) throw new Error('termPostings reads inside readIndex()')
  const s = st(db, table)
  const wanted = Buffer.concat([Buffer.of(MAIN_PREFIX), Buffer.from(term, 'utf8')])
  try {
    if (s.version.get() !== FORMAT_VERSION) return undefined
    const segments = readStructure(s)
    if (!segments) return undefined
    const runs: Run[] = []
    const reading = new Reading(weights, from, to)
    for (const segment of segments) scanSegment(db, s, segment, wanted, prefix, reading, runs, state)
    return runs
  } catch (error) {
    if (error instanceof Corrupt) return undefined
    throw error
  }
}
