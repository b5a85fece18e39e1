import type Database from 'better-sqlite3'
import type { Db } from '../storage/database'
import { sectionsOf, type Section } from './markdown'
import { PageTree } from './pageTree'
import { loadPages } from './revisions'

function statements(db: Db) {
  return {
    state: db.prepare<[string], string>('SELECT revision_id FROM search_state WHERE space_id = ?').pluck(),
    setState: db.prepare(
      'INSERT INTO search_state (space_id, revision_id) VALUES (?, ?) ON CONFLICT (space_id) DO UPDATE SET revision_id = excluded.revision_id'
    ),
    // FTS5 deletes one rowid at a time: `rowid IN (subquery)` costs ~7x more per page.
    pageRows: db.prepare<[string, string], number>('SELECT row_id FROM search_section_rows WHERE space_id = ? AND page_id = ?').pluck(),
    deleteRow: db.prepare('DELETE FROM search_sections WHERE rowid = ?'),
    deletePageRows: db.prepare('DELETE FROM search_section_rows WHERE space_id = @space AND page_id = @page'),
    deleteSpace: db.prepare('DELETE FROM search_sections WHERE rowid IN (SELECT row_id FROM search_section_rows WHERE space_id = ?)'),
    deleteSpaceRows: db.prepare('DELETE FROM search_section_rows WHERE space_id = ?'),
    insertRow: db.prepare('INSERT INTO search_section_rows (row_id, space_id, page_id) VALUES (?, ?, ?)'),
    insert: db.prepare(
      'INSERT INTO search_sections (title, body, space_id, page_id, section_id, page_title, path) VALUES (?, ?, ?, ?, ?, ?, ?)'
    ),
    sections: db.prepare<[string], { document_hash: string; section_id: string; title: string; body: string }>(
      'SELECT document_hash, section_id, title, body FROM document_sections WHERE document_hash IN (SELECT value FROM json_each(?)) ORDER BY document_hash, position'
    ),
    markdown: db.prepare<[string], { hash: string; markdown: string }>('SELECT hash, markdown FROM documents WHERE hash IN (SELECT value FROM json_each(?))'),
    insertSection: db.prepare('INSERT OR IGNORE INTO document_sections (document_hash, position, section_id, title, body) VALUES (?, ?, ?, ?, ?)')
  }
}

const cache = new WeakMap<Db, ReturnType<typeof statements>>()
const st = (db: Db) => {
  let s = cache.get(db)
  if (!s) cache.set(db, (s = statements(db)))
  return s
}

/**
 * Sections of many documents, as storeDocument split them. Documents stored before document_sections existed
 * (and empty ones, which have none) are parsed here and their sections kept.
 */
export function documentSections(db: Db, hashes: Iterable<string | null>): Map<string, Section[]> {
  const s = st(db)
  const wanted = [...new Set([...hashes].filter((h): h is string => !!h))]
  const result = new Map<string, Section[]>()
  for (const row of s.sections.all(JSON.stringify(wanted))) {
    const list = result.get(row.document_hash) ?? []
    list.push({ id: row.section_id, title: row.title, body: row.body })
    result.set(row.document_hash, list)
  }
  const missing = wanted.filter((h) => !result.has(h))
  if (missing.length) {
    for (const doc of s.markdown.all(JSON.stringify(missing))) {
      const sections = sectionsOf(doc.markdown)
      sections.forEach((x, i) => s.insertSection.run(doc.hash, i, x.id, x.title, x.body))
      result.set(doc.hash, sections)
    }
  }
  return result
}

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
  const next = known?.get(revisionId) ?? PageTree.readOnly(loadPages(db, revisionId))
  const nextPaths = next.paths()
  let changed: string[]
  let removed: string[] = []
  if (indexed) {
    const prev = known?.get(indexed) ?? PageTree.readOnly(loadPages(db, indexed))
    const prevPaths = prev.paths()
    changed = [...next.pages.values()]
      .filter((p) => {
        const old = prev.get(p.id)
        return !old || old.documentHash !== p.documentHash || old.title !== p.title || prevPaths.get(p.id) !== nextPaths.get(p.id) || old.hidden !== p.hidden
      })
      .map((p) => p.id)
    removed = [...prev.pages.keys()].filter((id) => !next.has(id))
  } else {
    dropSearchIndex(db, spaceId)
    changed = [...next.pages.keys()]
  }
  for (const id of [...removed, ...changed]) {
    for (const rowId of s.pageRows.all(spaceId, id)) s.deleteRow.run(rowId)
    s.deletePageRows.run({ space: spaceId, page: id })
  }
  const insert = (title: string, body: string, pageId: string, sectionId: string, pageTitle: string, path: string) => {
    const { lastInsertRowid } = s.insert.run(title, body, spaceId, pageId, sectionId, pageTitle, path)
    s.insertRow.run(lastInsertRowid, spaceId, pageId)
  }
  const docs = documentSections(db, changed.map((id) => next.get(id)!.documentHash))
  for (const id of changed) {
    const page = next.get(id)!
    const path = nextPaths.get(id) ?? page.slug
    const sections = (page.documentHash && docs.get(page.documentHash)) || []
    // The page itself is findable by its title even when its document is empty.
    if (!sections.some((x) => x.id === '')) insert(page.title, '', id, '', page.title, path)
    for (const section of sections) insert(section.id ? section.title : page.title, section.body, id, section.id, page.title, path)
  }
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

/** Drops a space's search rows (the space was removed for good). */
export function dropSearchIndex(db: Db, spaceId: string): void {
  const s = st(db)
  s.deleteSpace.run(spaceId)
  s.deleteSpaceRows.run(spaceId)
}
