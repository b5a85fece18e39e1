import type Database from 'better-sqlite3'
import { dataVersion, type Db } from '../storage/database'
import { documentSections } from './documents'
import { varintAt } from './ftsPostings'
import type { Section } from './markdown'
import { PageTree } from './pageTree'
import { loadPages } from './revisions'
import { indexedText } from './searchText'

// --- row keys ------------------------------------------------------------------------------------------------
// A row's rowid packs where it belongs: its space's number (21 bits), its page's number in the space (20 bits)
// and its position among the page's rows (12 bits), 53 bits in all so it stays an exact JavaScript number. A
// space's rows are one rowid range (FTS5 reads only that part of each doclist) and a row's page is its rowid
// divided by SECTION_SPAN: search groups matches by page with no lookup per row.

/** Rowids per page: a page's rows are its title row and sections, up to this many (later sections fold into the last). */
export const SECTION_SPAN = 2 ** 12
/** Page numbers per space: when a space has handed them all out, its index is rebuilt and numbered anew. */
const PAGE_ORDS = 2 ** 20
/** Rowids per space. */
const SPACE_SPAN = SECTION_SPAN * PAGE_ORDS
/** Space numbers (1 ..< SPACE_ORDS); numbers of spaces removed for good are handed out again once all are used. */
const SPACE_ORDS = 2 ** 21

/** The rowid range [from, to) of a space's rows, or undefined when the space has no rows. */
export function spaceRowRange(db: Db, spaceId: string): [number, number] | undefined {
  const space = st(db).space.get(spaceId)
  return space ? [space.ord * SPACE_SPAN, (space.ord + 1) * SPACE_SPAN] : undefined
}

/**
 * Bounds [b0, b1, …, b<parts>] that split a space's rows into `parts` rowid ranges of about as many pages each
 * (page numbers are handed out in turn, so they are dense), or undefined when the space has no rows.
 */
export function spaceRowParts(db: Db, spaceId: string, parts: number): number[] | undefined {
  const space = st(db).space.get(spaceId)
  if (!space) return undefined
  const from = space.ord * SPACE_SPAN
  return Array.from({ length: parts + 1 }, (_, i) =>
    i === parts ? from + SPACE_SPAN : from + Math.floor((space.next_page * i) / parts) * SECTION_SPAN
  )
}

/** Whether the space numbered `ord` has at least half of the index's pages (by the page numbers handed out). */
export function isLargeSpace(db: Db, ord: number): boolean {
  const share = st(db).spaceShare.get(ord)
  return !!share && share.pages * 2 >= share.total
}

const rowPartsCache = new WeakMap<Db, { version: string; parts: number; bounds: number[] }>()

/**
 * Bounds [0, b1, …, end] that split the whole index into `parts` rowid ranges of about as many pages each: its
 * page quantiles (in rowid order), found once per state of the index (a walk over the page numbers, not per
 * search).
 */
export function indexRowParts(db: Db, parts: number, end: number): number[] {
  const version = searchIndexVersion(db)
  const cached = rowPartsCache.get(db)
  if (cached && cached.version === version && cached.parts === parts) return cached.bounds
  const s = st(db)
  const pages = s.pageCount.get()!
  const bounds = [0]
  for (let i = 1; i < parts; i++) {
    const at = s.pageAt.get(Math.floor((pages * i) / parts))
    bounds.push(Math.max(bounds[i - 1]!, at ? at.space_ord * SPACE_SPAN + at.ord * SECTION_SPAN : end))
  }
  bounds.push(end)
  rowPartsCache.set(db, { version, parts, bounds })
  return bounds
}

// --- index version ---------------------------------------------------------------------------------------------
// Search ranks on threads with their own connections (searchPool.ts), then reads the chosen rows here. The
// version tells whether the index changed in between: this process's index writes, counted, and commits by
// other connections (SQLite's data_version).

const generations = new WeakMap<Db, number>()

function indexChanged(db: Db): void {
  generations.set(db, (generations.get(db) ?? 0) + 1)
}

/** The state of the search index, as a value that differs after any change to it. */
export function searchIndexVersion(db: Db): string {
  return `${generations.get(db) ?? 0}.${dataVersion(db)}`
}

/** The page a row belongs to, as a number unique in the whole index (rows of one page share it). */
export const pageKeyOfRow = (rowid: number): number => Math.floor(rowid / SECTION_SPAN)

/** The number of the space a row belongs to (search_spaces.ord). */
export const spaceOfRow = (rowid: number): number => Math.floor(rowid / SPACE_SPAN)

/** What search shows of an indexed row: its page (as indexed) and the section the row holds. */
export interface IndexedRow {
  pageId: string
  pageTitle: string
  path: string
  sectionId: string
  /** The section's title (the page's title for its title row). */
  title: string
  body: string
}

/**
 * The rows' pages and sections, read back from what indexed them: the index holds no text (contentless FTS5), a
 * row's page is in search_pages by its number, and its section is at the row's position in the rows of the page's
 * document (pageRows), as syncSearchIndex wrote them. Rows whose page is gone are left out.
 */
export function indexedRows(db: Db, rowids: Iterable<number>): Map<number, IndexedRow> {
  const result = new Map<number, IndexedRow>()
  const byPage = new Map<number, number[]>()
  for (const rid of rowids) {
    const key = pageKeyOfRow(rid)
    const list = byPage.get(key)
    if (list) list.push(rid)
    else byPage.set(key, [rid])
  }
  if (!byPage.size) return result
  const keys = [...byPage.keys()].map((key) => [Math.floor(key / PAGE_ORDS), key % PAGE_ORDS])
  const pages = st(db).pagesAt.all(JSON.stringify(keys))
  const docs = documentSections(
    db,
    pages.map((p) => p.document_hash)
  )
  for (const page of pages) {
    const rows = pageRows(page.title, (page.document_hash && docs.get(page.document_hash)) || [])
    for (const rid of byPage.get(page.space_ord * PAGE_ORDS + page.ord)!) {
      const row = rows[rid % SECTION_SPAN]
      if (row)
        result.set(rid, {
          pageId: page.page_id,
          pageTitle: page.title,
          path: page.path,
          sectionId: row.sectionId,
          title: row.title,
          body: row.body
        })
    }
  }
  return result
}

/** A found page's description and its ancestors' titles (top-level first), in the revision the index describes. */
export interface FoundPageContext {
  description: string
  ancestors: string[]
}

/** The context of found pages (`spaceId/pageId` keys), in one query for a whole result list. */
export function foundPageContexts(db: Db, pages: { spaceId: string; pageId: string }[]): Map<string, FoundPageContext> {
  const result = new Map<string, FoundPageContext>()
  if (!pages.length) return result
  const rows = st(db).pageContexts.all(JSON.stringify(pages.map((p) => [p.spaceId, p.pageId])))
  for (const row of rows) {
    const key = `${row.space_id}/${row.page_id}`
    let context = result.get(key)
    if (!context) result.set(key, (context = { description: '', ancestors: [] }))
    // Rows come nearest first: the page itself (depth 0), then its parent, up to the top level.
    if (row.depth === 0) context.description = row.description ?? ''
    else context.ancestors.unshift(row.title)
  }
  return result
}

interface SpaceEntry {
  ord: number
  next_page: number
}

function statements(db: Db) {
  return {
    state: db.prepare<[string], string>('SELECT revision_id FROM search_state WHERE space_id = ?').pluck(),
    setState: db.prepare(
      'INSERT INTO search_state (space_id, revision_id) VALUES (?, ?) ON CONFLICT (space_id) DO UPDATE SET revision_id = excluded.revision_id'
    ),
    space: db.prepare<[string], SpaceEntry>('SELECT ord, next_page FROM search_spaces WHERE space_id = ?'),
    spaceShare: db.prepare<[number], { pages: number; total: number }>(
      'SELECT next_page AS pages, (SELECT sum(next_page) FROM search_spaces) AS total FROM search_spaces WHERE ord = ?'
    ),
    lastSpaceOrd: db.prepare<[], number>('SELECT coalesce(max(ord), 0) FROM search_spaces').pluck(),
    // The smallest number no space holds (only needed once every number was handed out).
    freeSpaceOrd: db
      .prepare<[], number>(
        `SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM search_spaces WHERE ord = 1) THEN 1
         ELSE (SELECT min(a.ord) + 1 FROM search_spaces a WHERE NOT EXISTS (SELECT 1 FROM search_spaces b WHERE b.ord = a.ord + 1)) END`
      )
      .pluck(),
    insertSpace: db.prepare('INSERT INTO search_spaces (space_id, ord, next_page) VALUES (?, ?, 0)'),
    setNextPage: db.prepare('UPDATE search_spaces SET next_page = ? WHERE space_id = ?'),
    deleteSpace: db.prepare('DELETE FROM search_spaces WHERE space_id = ?'),
    deleteState: db.prepare('DELETE FROM search_state WHERE space_id = ?'),
    page: db.prepare<[number, string], { ord: number; sections: number }>(
      'SELECT ord, sections FROM search_pages WHERE space_ord = ? AND page_id = ?'
    ),
    // In rowid order (see syncSearchIndex).
    spacePages: db.prepare<[number], { ord: number; sections: number }>(
      'SELECT ord, sections FROM search_pages WHERE space_ord = ? ORDER BY ord'
    ),
    setPage: db.prepare(
      `INSERT INTO search_pages (space_ord, page_id, ord, sections, title, path, document_hash) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (space_ord, page_id) DO UPDATE SET
         sections = excluded.sections, title = excluded.title, path = excluded.path, document_hash = excluded.document_hash`
    ),
    deletePage: db.prepare('DELETE FROM search_pages WHERE space_ord = ? AND page_id = ?'),
    deleteSpacePages: db.prepare('DELETE FROM search_pages WHERE space_ord = ?'),
    // FTS5 deletes one rowid at a time: `rowid IN (…)` or a range costs several times more per row.
    deleteRow: db.prepare('DELETE FROM search_sections WHERE rowid = ?'),
    pageCount: db.prepare<[], number>('SELECT count(*) FROM search_pages').pluck(),
    // A quantile of the pages in rowid order (the search_pages_ord index), for splitting the index between threads.
    pageAt: db.prepare<[number], { space_ord: number; ord: number }>(
      'SELECT space_ord, ord FROM search_pages ORDER BY space_ord, ord LIMIT 1 OFFSET ?'
    ),
    insert: db.prepare('INSERT INTO search_sections (rowid, title, body) VALUES (?, ?, ?)'),
    // Pages by [space number, page number] pairs (JSON).
    pagesAt: db.prepare<
      [string],
      { space_ord: number; ord: number; page_id: string; title: string; path: string; document_hash: string | null }
    >(
      `SELECT p.space_ord, p.ord, p.page_id, p.title, p.path, p.document_hash FROM json_each(?) AS j
       JOIN search_pages AS p ON p.space_ord = j.value ->> 0 AND p.ord = j.value ->> 1`
    ),
    pageContexts: db.prepare<[string], { space_id: string; page_id: string; depth: number; title: string; description: string | null }>(
      `WITH RECURSIVE chain(space_id, page_id, revision_id, at, depth) AS (
         SELECT j.value ->> 0, j.value ->> 1, s.revision_id, j.value ->> 1, 0 FROM json_each(?) AS j
         JOIN search_state AS s ON s.space_id = j.value ->> 0
         UNION ALL
         SELECT c.space_id, c.page_id, c.revision_id, rp.parent_page_id, c.depth + 1 FROM chain AS c
         JOIN revision_pages AS rp ON rp.revision_id = c.revision_id AND rp.page_id = c.at
         WHERE rp.parent_page_id IS NOT NULL AND c.depth < 100
       )
       SELECT c.space_id, c.page_id, c.depth, rp.title, rp.description FROM chain AS c
       JOIN revision_pages AS rp ON rp.revision_id = c.revision_id AND rp.page_id = c.at
       ORDER BY c.space_id, c.page_id, c.depth`
    )
  }
}

type Statements = ReturnType<typeof statements>
const cache = new WeakMap<Db, Statements>()
const st = (db: Db) => {
  let s = cache.get(db)
  if (!s) cache.set(db, (s = statements(db)))
  return s
}

function deletePageRows(s: Statements, spaceOrd: number, page: { ord: number; sections: number }): void {
  const base = spaceOrd * SPACE_SPAN + page.ord * SECTION_SPAN
  for (let i = 0; i < page.sections; i++) s.deleteRow.run(base + i)
}

/** Removes every row of a space and its page numbers; the space keeps its number. */
function clearSpace(s: Statements, spaceOrd: number): void {
  for (const page of s.spacePages.all(spaceOrd)) deletePageRows(s, spaceOrd, page)
  s.deleteSpacePages.run(spaceOrd)
}

function allocateSpace(s: Statements, spaceId: string): SpaceEntry {
  let ord = s.lastSpaceOrd.get()! + 1
  if (ord >= SPACE_ORDS) ord = s.freeSpaceOrd.get()!
  if (ord >= SPACE_ORDS) throw new Error(`The search index holds ${SPACE_ORDS - 1} spaces, its most`)
  s.insertSpace.run(spaceId, ord)
  return { ord, next_page: 0 }
}

/** A page's rows: the title row (unless the document starts without a heading), then its sections, at most SECTION_SPAN. */
export function pageRows(title: string, sections: Section[]): { title: string; body: string; sectionId: string }[] {
  // The page itself is findable by its title even when its document is empty.
  const rows = sections.some((x) => x.id === '') ? [] : [{ title, body: '', sectionId: '' }]
  for (const section of sections) rows.push({ title: section.id ? section.title : title, body: section.body, sectionId: section.id })
  if (rows.length <= SECTION_SPAN) return rows
  const last = rows[SECTION_SPAN - 1]!
  last.body = [last.body, ...rows.slice(SECTION_SPAN).map((r) => `${r.title}\n${r.body}`)].join('\n')
  return rows.slice(0, SECTION_SPAN)
}

/** Whether two rows of one page index the same text (an FTS5 row holds only that; its section is found by position). */
function sameRow(a: Rows[number] | undefined, b: Rows[number] | undefined): boolean {
  return !!a && !!b && a.title === b.title && a.body === b.body
}

type Rows = ReturnType<typeof pageRows>

/**
 * Brings a space's search rows in step with its primary revision, in the caller's transaction: only pages
 * whose title, path or document changed since the indexed revision are re-indexed, from their documents' stored
 * sections. `known`: page trees the caller already holds, by revision id (a merge has both), so they are not
 * read again.
 */
export function syncSearchIndex(db: Db, spaceId: string, revisionId: string, known?: Map<string, PageTree>): void {
  const s = st(db)
  const indexed = s.state.get(spaceId)
  if (indexed === revisionId) return
  indexChanged(db)
  const next = known?.get(revisionId) ?? PageTree.readOnly(loadPages(db, revisionId))
  const nextPaths = next.paths()
  let space = s.space.get(spaceId)
  let changed: string[] | undefined
  let removed: string[] = []
  // The indexed revision's pages, when the space has rows to update.
  const prev = indexed && space ? (known?.get(indexed) ?? PageTree.readOnly(loadPages(db, indexed))) : undefined
  const prevPaths = prev?.paths() ?? new Map<string, string>()
  if (prev && space) {
    changed = [...next.pages.values()]
      .filter((p) => {
        const old = prev.get(p.id)
        return (
          !old ||
          old.documentHash !== p.documentHash ||
          old.title !== p.title ||
          prevPaths.get(p.id) !== nextPaths.get(p.id) ||
          old.hidden !== p.hidden
        )
      })
      .map((p) => p.id)
    removed = [...prev.pages.keys()].filter((id) => !next.has(id))
    // Out of page numbers: the space is numbered anew below.
    if (space.next_page + changed.length > PAGE_ORDS) changed = undefined
  }
  const rebuild = !changed
  if (!space) space = allocateSpace(s, spaceId)
  else if (rebuild) {
    pageRowsTouched(db, space.ord)
    clearSpace(s, space.ord)
    space.next_page = 0
  }
  const ids = changed ?? [...next.pages.keys()]
  const docs = documentSections(
    db,
    ids.map((id) => next.get(id)!.documentHash)
  )
  // What the changed pages' rows hold now (the indexed revision's rows): a row that stays the same is not
  // rewritten. An edit usually touches a section or two of a page, and an FTS5 row costs a delete (which reads
  // and tokenizes the old text) and an insert.
  const kept = rebuild ? undefined : prev
  const prevDocs =
    kept &&
    documentSections(
      db,
      ids.map((id) => kept.get(id)?.documentHash ?? null)
    )
  // One job per page, done in rowid order: FTS5 writes its pending terms out as a new segment whenever a write
  // goes to a rowid below the previous one, so out-of-order writes leave hundreds of tiny segments that every
  // later query has to read (until merged) and make the catch-up itself several times slower.
  const jobs: {
    id: string
    ord: number
    old: number
    rows: Rows
    kept?: (i: number) => boolean
    title: string
    path: string
    hash: string | null
  }[] = []
  for (const id of removed) {
    const entry = s.page.get(space.ord, id)
    if (entry) jobs.push({ id, ord: entry.ord, old: entry.sections, rows: [], title: '', path: '', hash: null })
  }
  for (const id of ids) {
    const page = next.get(id)!
    const entry = rebuild ? undefined : s.page.get(space.ord, id)
    const rows = pageRows(page.title, (page.documentHash && docs.get(page.documentHash)) || [])
    const path = nextPaths.get(id) ?? page.slug
    const job = {
      id,
      ord: entry ? entry.ord : space.next_page++,
      old: entry?.sections ?? 0,
      rows,
      title: page.title,
      path,
      hash: page.documentHash
    }
    // A row holds its section's title and text (the page's title for the title row): a row that reads the same is
    // kept. The page's path is only in search_pages.
    const before = entry && kept?.get(id)
    if (before) {
      const oldRows = pageRows(before.title, (before.documentHash && prevDocs!.get(before.documentHash)) || [])
      // The index holds exactly these rows (its state says so); a count that differs means it does not: rewrite all.
      if (oldRows.length === entry.sections) jobs.push({ ...job, kept: (i) => sameRow(oldRows[i], rows[i]) })
      else jobs.push(job)
    } else jobs.push(job)
  }
  jobs.sort((a, b) => a.ord - b.ord)
  for (const job of jobs) {
    pageRowsTouched(db, space.ord, job.ord)
    const base = space.ord * SPACE_SPAN + job.ord * SECTION_SPAN
    // Row by row, the old row goes just before the new one takes its rowid (a delete then an insert of the
    // same rowid does not break the order).
    for (let i = 0; i < Math.max(job.old, job.rows.length); i++) {
      if (job.kept?.(i)) continue
      if (i < job.old) s.deleteRow.run(base + i)
      const row = job.rows[i]
      if (row) s.insert.run(base + i, indexedText(row.title), indexedText(row.body))
    }
    if (job.rows.length) s.setPage.run(space.ord, job.id, job.ord, job.rows.length, job.title, job.path, job.hash)
    else s.deletePage.run(space.ord, job.id)
  }
  s.setNextPage.run(space.next_page, spaceId)
  s.setState.run(spaceId, revisionId)
}

// --- deferred index maintenance -----------------------------------------------------------------------------
// A merge moves a space's primary revision in its own transaction and leaves the index to catch up right after
// (re-indexing 1,000 pages is most of a large merge's cost and need not hold the request): the space is marked
// pending, and the index catches up on the next turn of the event loop, or before a search that reads it,
// whichever comes first, so a search never answers from an index behind the content it covers.

const pendingByDb = new WeakMap<Db, Set<string>>()
const stateOf = new WeakMap<Db, Database.Statement<[string], { revision: string | null; indexed: string | null }>>()

function pendingOf(db: Db): Set<string> {
  let pending = pendingByDb.get(db)
  if (!pending) pendingByDb.set(db, (pending = new Set()))
  return pending
}

/** Brings one space's index in step with its primary revision now (a transaction of its own, only if behind). */
function catchUp(db: Db, spaceId: string): void {
  if (!db.open) return
  let statement = stateOf.get(db)
  if (!statement) {
    statement = db.prepare(
      'SELECT s.revision_id AS revision, st.revision_id AS indexed FROM spaces s LEFT JOIN search_state st ON st.space_id = s.id WHERE s.id = ?'
    )
    stateOf.set(db, statement)
  }
  const state = statement.get(spaceId)
  const revision = state?.revision
  if (revision && revision !== state.indexed) db.transaction(() => syncSearchIndex(db, spaceId, revision)).immediate()
}

/**
 * Marks a space's index as behind its primary revision (call in the transaction that moved it); it catches up
 * after the current turn. A transaction that rolls back leaves nothing to do: the catch-up finds the index in
 * step and returns.
 */
export function scheduleSearchIndex(db: Db, spaceId: string): void {
  const pending = pendingOf(db)
  if (!pending.size) setImmediate(() => drainPending(db))
  pending.add(spaceId)
}

function drainPending(db: Db): void {
  const pending = pendingOf(db)
  const next = pending.values().next()
  if (next.done) return
  pending.delete(next.value)
  try {
    catchUp(db, next.value)
  } catch (error) {
    // The next search of the space catches up again (ensureSearchIndex); nothing is lost.
    console.error(`Search index of space ${next.value} could not catch up:`, error instanceof Error ? error.message : error)
  }
  // One space per turn: requests keep flowing between spaces.
  if (pending.size) setImmediate(() => drainPending(db))
}

/**
 * Before a search: the given spaces (all pending ones when absent) catch up now if they are behind. A space
 * whose index is behind although not pending (its merge committed in another process, or a catch-up failed)
 * catches up too when it is named.
 */
export function ensureSearchIndex(db: Db, spaceIds?: string[]): void {
  const pending = pendingOf(db)
  const ids = spaceIds ?? [...pending]
  for (const id of ids) {
    pending.delete(id)
    catchUp(db, id)
  }
}

/** Schedules a catch-up for every live space whose index is behind its primary revision (at start-up). */
export function scheduleStaleSearchIndexes(db: Db): void {
  const stale = db
    .prepare<[], string>(
      `SELECT s.id FROM spaces s LEFT JOIN search_state st ON st.space_id = s.id
       WHERE s.deleted_at IS NULL AND s.revision_id IS NOT NULL AND st.revision_id IS NOT s.revision_id`
    )
    .pluck()
    .all()
  for (const id of stale) scheduleSearchIndex(db, id)
}

/**
 * Drops a space's search rows, its number and its indexed revision (the space was removed for good, or its index
 * is to be rebuilt: the next sync indexes it whole).
 */
export function dropSearchIndex(db: Db, spaceId: string): void {
  const s = st(db)
  const space = s.space.get(spaceId)
  s.deleteState.run(spaceId)
  if (!space) return
  indexChanged(db)
  pageRowsTouched(db, space.ord)
  clearSpace(s, space.ord)
  s.deleteSpace.run(spaceId)
}

// --- row sizes -----------------------------------------------------------------------------------------------
// FTS5's token count of each row (its docsize shadow table: a record of one varint per column), which bm25
// divides by. searchWord.ts ranks one-word queries with them instead of calling bm25(), whose lookup of each
// matching row's size is most of what ranking a broad query costs. A space's counts are read in one statement
// the first time they are needed and kept in step with this process's index writes: the pages a write touched are
// read again before the next use. A commit by another connection (data_version) drops them all.

interface SpaceSizes {
  /** By page number: where the page's counts start in `sizes`, or -1 when the page has no rows. */
  starts: Int32Array
  /** By page number: how many rows the page has (a row's position in its page indexes its count). */
  counts: Uint16Array
  /** Token counts (-1 for a position with no row); pages read again are appended, the old counts left behind. */
  sizes: Int32Array
  used: number
  live: number
}

interface SizesState {
  dataVersion: number
  spaces: Map<number, SpaceSizes>
  /** Pages written since their space's counts were read: a set of page numbers, or true for the whole space. */
  touched: Map<number, Set<number> | true>
}

const sizesByDb = new WeakMap<Db, SizesState>()

/** Marks a page's rows (or, without a page number, all the space's) to be read again before their counts are used. */
function pageRowsTouched(db: Db, spaceOrd: number, pageOrd?: number): void {
  const state = sizesByDb.get(db)
  if (!state?.spaces.has(spaceOrd)) return
  const touched = state.touched.get(spaceOrd)
  if (pageOrd === undefined) state.touched.set(spaceOrd, true)
  else if (touched === undefined) state.touched.set(spaceOrd, new Set([pageOrd]))
  else if (touched !== true) touched.add(pageOrd)
}

function sizeStatements(db: Db) {
  return {
    // Rows [from, to) as offsets from `from`, each record's length, and the records end to end.
    sizes: db
      .prepare<{ from: number; to: number }, [string, string, Buffer | null]>(
        `SELECT json_group_array(id - @from), json_group_array(length(sz)), unhex(group_concat(hex(sz), ''))
       FROM search_sections_docsize WHERE id >= CAST(@from AS INTEGER) AND id < CAST(@to AS INTEGER)`
      )
      .raw(),
    averages: db.prepare<[], Buffer | undefined>('SELECT block FROM search_sections_data WHERE id = 1').pluck()
  }
}

const sizeStatementsCache = new WeakMap<Db, ReturnType<typeof sizeStatements>>()
const sst = (db: Db) => {
  let s = sizeStatementsCache.get(db)
  if (!s) sizeStatementsCache.set(db, (s = sizeStatements(db)))
  return s
}

/** A record's values: the token count of each column (and nothing else in a docsize record). */
function recordSum(buf: Uint8Array, at: number, end: number): number {
  let sum = 0
  while (at < end) {
    const [value, next] = varintAt(buf, at)
    sum += value
    at = next
  }
  return sum
}

/** Rows [from, from + span) as [offset from `from`, token count] pairs. */
function readSizes(db: Db, from: number, span: number): { offsets: number[]; sizes: number[] } {
  const [offsets, lengths, records] = sst(db).sizes.get({ from, to: from + span })!
  const at = JSON.parse(offsets) as number[]
  const length = JSON.parse(lengths) as number[]
  const sizes: number[] = []
  let pos = 0
  for (let i = 0; i < at.length; i++) {
    sizes.push(recordSum(records!, pos, pos + length[i]!))
    pos += length[i]!
  }
  return { offsets: at, sizes }
}

/** A space's counts, read whole. */
function loadSpaceSizes(db: Db, spaceOrd: number): SpaceSizes {
  const { offsets, sizes } = readSizes(db, spaceOrd * SPACE_SPAN, SPACE_SPAN)
  let pages = 0
  for (const offset of offsets) pages = Math.max(pages, Math.floor(offset / SECTION_SPAN) + 1)
  const counts = new Uint16Array(pages)
  for (const offset of offsets) {
    const page = Math.floor(offset / SECTION_SPAN)
    counts[page] = Math.max(counts[page]!, (offset % SECTION_SPAN) + 1)
  }
  const starts = new Int32Array(pages).fill(-1)
  let used = 0
  for (let p = 0; p < pages; p++) {
    if (!counts[p]) continue
    starts[p] = used
    used += counts[p]!
  }
  const space: SpaceSizes = { starts, counts, sizes: new Int32Array(Math.max(used, 16)).fill(-1), used, live: used }
  offsets.forEach((offset, i) => {
    const page = Math.floor(offset / SECTION_SPAN)
    space.sizes[starts[page]! + (offset % SECTION_SPAN)] = sizes[i]!
  })
  return space
}

/** Reads one page's counts again (its rows were rewritten), appended after the others. */
function reloadPage(db: Db, spaceOrd: number, space: SpaceSizes, page: number): void {
  const { offsets, sizes } = readSizes(db, spaceOrd * SPACE_SPAN + page * SECTION_SPAN, SECTION_SPAN)
  if (page >= space.starts.length) {
    const length = Math.max(page + 1, space.starts.length * 2)
    const starts = new Int32Array(length).fill(-1)
    starts.set(space.starts)
    const counts = new Uint16Array(length)
    counts.set(space.counts)
    space.starts = starts
    space.counts = counts
  }
  space.live -= space.counts[page]!
  const count = offsets.length ? Math.max(...offsets) + 1 : 0
  space.counts[page] = count
  space.starts[page] = count ? space.used : -1
  if (!count) return
  if (space.used + count > space.sizes.length) {
    const grown = new Int32Array(Math.max(space.used + count, space.sizes.length * 2)).fill(-1)
    grown.set(space.sizes.subarray(0, space.used))
    space.sizes = grown
  }
  space.sizes.fill(-1, space.used, space.used + count)
  offsets.forEach((offset, i) => (space.sizes[space.used + offset] = sizes[i]!))
  space.used += count
  space.live += count
}

/** Counts left behind by pages read again, dropped once they outnumber the live ones. */
function compact(space: SpaceSizes): void {
  if (space.used < 2 * space.live + 4096) return
  const sizes = new Int32Array(Math.max(space.live, 16)).fill(-1)
  let used = 0
  for (let p = 0; p < space.starts.length; p++) {
    if (space.starts[p]! < 0) continue
    sizes.set(space.sizes.subarray(space.starts[p]!, space.starts[p]! + space.counts[p]!), used)
    space.starts[p] = used
    used += space.counts[p]!
  }
  space.sizes = sizes
  space.used = used
}

/** A space's counts, current: read whole the first time (or after much of it changed), else its written pages again. */
function spaceSizes(db: Db, state: SizesState, spaceOrd: number): SpaceSizes {
  let space = state.spaces.get(spaceOrd)
  const touched = state.touched.get(spaceOrd)
  state.touched.delete(spaceOrd)
  if (space && (touched === true || (touched && touched.size * 8 > space.starts.length))) space = undefined
  if (!space) {
    space = loadSpaceSizes(db, spaceOrd)
    state.spaces.set(spaceOrd, space)
  } else if (touched && touched !== true) {
    for (const page of touched) reloadPage(db, spaceOrd, space, page)
    compact(space)
  }
  return space
}

/**
 * The token count of a row of the index, as FTS5's bm25 reads it, by rowid; -1 for a rowid with no row. The
 * function reads the index as it is when made: make one per ranking.
 */
export function rowSizes(db: Db): (rowid: number) => number {
  const version = dataVersion(db)
  let state = sizesByDb.get(db)
  if (!state || state.dataVersion !== version) sizesByDb.set(db, (state = { dataVersion: version, spaces: new Map(), touched: new Map() }))
  const current = new Map<number, SpaceSizes>()
  // Rows come in rowid order, a space's together: the last space looked up is kept at hand.
  let lastOrd = -1
  let space: SpaceSizes | undefined
  return (rowid) => {
    const ord = Math.floor(rowid / SPACE_SPAN)
    if (ord !== lastOrd || !space) {
      space = current.get(ord)
      if (!space) current.set(ord, (space = spaceSizes(db, state, ord)))
      lastOrd = ord
    }
    const offset = rowid - ord * SPACE_SPAN
    const page = Math.floor(offset / SECTION_SPAN)
    const at = offset - page * SECTION_SPAN
    if (page >= space.starts.length || space.starts[page]! < 0 || at >= space.counts[page]!) return -1
    return space.sizes[space.starts[page]! + at]!
  }
}

/** The index's row count and token count (all columns), as bm25 reads them: FTS5's averages record. */
export function indexTotals(db: Db): { rows: number; tokens: number } {
  const record = sst(db).averages.get()
  if (!record) return { rows: 0, tokens: 0 }
  const [rows, at] = varintAt(record, 0)
  return { rows, tokens: recordSum(record, at, record.length) }
}
