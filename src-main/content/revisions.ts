import type { IncludeSource } from '../../src-shared/blockTags'
import type { Db } from '../storage/database'
import { newId } from '../storage/ids'
import { slugify } from '../../src-shared/slug'
import { deleteDocument, readDocuments, storeDocument } from './documents'

export { slugify }

/** Optional page fields kept together as JSON: they are read whole and rarely filtered on. */
export interface PageProps {
  icon?: string
  layout?: Record<string, unknown>
  /** The cover image as its document's front matter names it (pageSettings.ts). */
  cover?: { src: string; yPos: number }
  git?: { oid?: string; path?: string }
  noIndex?: boolean
  noRobotsIndex?: boolean
  href?: string
}

/** A page as one revision holds it. `id` is stable across revisions; `documentHash` names its markdown. */
export interface PageRecord {
  id: string
  parentId: string | null
  position: number
  type: string
  title: string
  emoji: string | null
  slug: string
  description: string | null
  documentId: string | null
  documentHash: string | null
  hidden: boolean
  props: PageProps
  createdAt: string
  updatedAt: string
}

export interface FileRecord {
  id: string
  name: string
  contentType: string
  blobHash: string
  size: number
  width: number | null
  height: number | null
  git: { oid?: string; path?: string } | null
}

/** A reusable content of a revision: a block of markdown pages can include (`.gitbook/includes` in Git). */
export interface ReusableContentRecord {
  id: string
  title: string
  documentHash: string
  git: { oid?: string; path?: string } | null
}

export interface RevisionRow {
  seq: number
  id: string
  space_id: string
  parents: string
  type: string
  git: string | null
  created_by: string | null
  created_at: string
  change_request_id: string | null
}

interface PageDbRow {
  page_id: string
  parent_page_id: string | null
  position: number
  type: string
  title: string
  emoji: string | null
  slug: string
  description: string | null
  document_id: string | null
  document_hash: string | null
  hidden: number
  props: string | null
  created_at: string
  updated_at: string
}

const pageFromRow = (r: PageDbRow): PageRecord => ({
  id: r.page_id,
  parentId: r.parent_page_id,
  position: r.position,
  type: r.type,
  title: r.title,
  emoji: r.emoji,
  slug: r.slug,
  description: r.description,
  documentId: r.document_id,
  documentHash: r.document_hash,
  hidden: !!r.hidden,
  props: r.props ? (JSON.parse(r.props) as PageProps) : {},
  createdAt: r.created_at,
  updatedAt: r.updated_at
})

const pageToParams = (revisionId: string, p: PageRecord) => [
  revisionId,
  p.id,
  p.parentId,
  p.position,
  p.type,
  p.title,
  p.emoji,
  p.slug,
  p.description,
  p.documentId,
  p.documentHash,
  p.hidden ? 1 : 0,
  Object.keys(p.props).length ? JSON.stringify(p.props) : null,
  p.createdAt,
  p.updatedAt
]

interface FileDbRow {
  file_id: string
  name: string
  content_type: string
  blob_hash: string
  size: number
  width: number | null
  height: number | null
  git: string | null
}

const fileFromRow = (r: FileDbRow): FileRecord => ({
  id: r.file_id,
  name: r.name,
  contentType: r.content_type,
  blobHash: r.blob_hash,
  size: r.size,
  width: r.width,
  height: r.height,
  git: r.git ? JSON.parse(r.git) : null
})

/**
 * Revision storage (docs/architecture.md, "Revision storage"): a revision's rows in revision_pages, revision_files
 * and revision_reusable_contents are either a whole snapshot or a delta over its base (`revision_bases`): the
 * entries it changed (upserts) and tombstones (`removed = 1`) for those it dropped. Reading walks the chain of
 * bases back to its snapshot in one recursive query; for each key, the row nearest to the revision wins.
 */
const chain = (start = '?') => `WITH RECURSIVE chain(id, depth) AS (
  SELECT ${start}, 0
  UNION ALL
  SELECT b.base_id, chain.depth + 1 FROM chain JOIN revision_bases b ON b.revision_id = chain.id WHERE b.base_id IS NOT NULL
)`

interface Table {
  name: string
  key: string
  columns: string[]
}
const PAGES: Table = {
  name: 'revision_pages',
  key: 'page_id',
  columns: [
    'page_id',
    'parent_page_id',
    'position',
    'type',
    'title',
    'emoji',
    'slug',
    'description',
    'document_id',
    'document_hash',
    'hidden',
    'props',
    'created_at',
    'updated_at'
  ]
}
const FILES: Table = {
  name: 'revision_files',
  key: 'file_id',
  columns: ['file_id', 'name', 'content_type', 'blob_hash', 'size', 'width', 'height', 'git']
}
const REUSABLE: Table = { name: 'revision_reusable_contents', key: 'content_id', columns: ['content_id', 'title', 'document_hash', 'git'] }

/**
 * The entries of the revision bound first, as a derived table `live` with the table's columns: for each key the
 * row nearest the revision along its chain (SQLite takes bare columns from the row min() picks), tombstones dropped.
 */
const materialized = (t: Table, start = '?') =>
  `${chain(start)}, live AS (
    SELECT ${t.columns.map((c) => `t.${c}`).join(', ')}, t.removed, min(chain.depth) AS depth
    FROM chain JOIN ${t.name} t ON t.revision_id = chain.id GROUP BY t.${t.key}
  )`
/** One entry of the revision bound first (the key bound second), or a tombstone (`removed`). */
const nearest = (t: Table) =>
  `${chain()} SELECT t.* FROM chain JOIN ${t.name} t ON t.revision_id = chain.id AND t.${t.key} = ? ORDER BY chain.depth LIMIT 1`
/** Copies the live entries of revision `from` into revision `id`, except those whose keys the JSON list `keys` names. */
const copyLive = (t: Table) =>
  `INSERT INTO ${t.name} (revision_id, ${t.columns.join(', ')})
   ${materialized(t, '@from')}
   SELECT @id, ${t.columns.join(', ')} FROM live WHERE removed = 0 AND ${t.key} NOT IN (SELECT value FROM json_each(@keys))`
/** Tombstones in revision `id` for the live entries of revision `from` whose keys the JSON list `keys` names. */
const tombstones = (t: Table) =>
  `INSERT INTO ${t.name} (revision_id, ${t.columns.join(', ')}, removed)
   ${materialized(t, '@from')}
   SELECT @id, ${t.columns.join(', ')}, 1 FROM live WHERE removed = 0 AND ${t.key} IN (SELECT value FROM json_each(@keys))`

interface ChainRow {
  space_id: string
  base_id: string | null
  snapshot_rows: number | null
  delta_rows: number | null
}

function statements(db: Db) {
  return {
    revision: db.prepare<[string], RevisionRow>('SELECT * FROM revisions WHERE id = ?'),
    chainOf: db.prepare<[string], ChainRow>(
      'SELECT r.space_id, b.base_id, b.snapshot_rows, b.delta_rows FROM revisions r LEFT JOIN revision_bases b ON b.revision_id = r.id WHERE r.id = ?'
    ),
    // The rows a snapshot holds (all live): what the deltas of its chain are measured against.
    snapshotRows: db
      .prepare<[string, string, string], number>(
        `SELECT (SELECT count(*) FROM revision_pages WHERE revision_id = ?) + (SELECT count(*) FROM revision_files WHERE revision_id = ?)
       + (SELECT count(*) FROM revision_reusable_contents WHERE revision_id = ?)`
      )
      .pluck(),
    dependents: db.prepare<[string], string>('SELECT revision_id FROM revision_bases WHERE base_id = ?').pluck(),
    fold: [PAGES, FILES, REUSABLE].map((t) =>
      db.prepare(
        `INSERT INTO ${t.name} (revision_id, ${t.columns.join(', ')}, removed)
         SELECT @dependent, ${t.columns.join(', ')}, removed FROM ${t.name} f WHERE f.revision_id = @from
           AND NOT EXISTS (SELECT 1 FROM ${t.name} d WHERE d.revision_id = @dependent AND d.${t.key} = f.${t.key})`
      )
    ),
    dropTombstones: [PAGES, FILES, REUSABLE].map((t) => db.prepare(`DELETE FROM ${t.name} WHERE revision_id = ? AND removed = 1`)),
    rebase: db.prepare('UPDATE revision_bases SET base_id = ? WHERE revision_id = ?'),
    makeSnapshot: db.prepare('UPDATE revision_bases SET base_id = NULL, snapshot_rows = ?, delta_rows = 0 WHERE revision_id = ?'),
    deleteRevision: db.prepare('DELETE FROM revisions WHERE id = ?'),
    documentBatch: db.prepare<[string, number], { hash: string; unreferenced: number }>(
      `SELECT hash, NOT EXISTS (SELECT 1 FROM revision_pages WHERE document_hash = d.hash)
                AND NOT EXISTS (SELECT 1 FROM revision_reusable_contents WHERE document_hash = d.hash) AS unreferenced
       FROM documents d WHERE hash > ? ORDER BY hash LIMIT ?`
    ),
    blobBatch: db.prepare<[string, number], { hash: string; unreferenced: number }>(
      'SELECT hash, NOT EXISTS (SELECT 1 FROM revision_files WHERE blob_hash = b.hash) AS unreferenced FROM blobs b WHERE hash > ? ORDER BY hash LIMIT ?'
    ),
    // Integration icons and preview images keep their bytes in blobs, named in JSON.
    integrationImages: db
      .prepare<[], string>(
        `SELECT json_extract(icon, '$.hash') FROM integrations WHERE icon IS NOT NULL
       UNION SELECT json_extract(j.value, '$.hash') FROM integrations, json_each(integrations.preview_images) j`
      )
      .pluck(),
    deleteBlob: db.prepare('DELETE FROM blobs WHERE hash = ?'),
    insertBase: db.prepare('INSERT INTO revision_bases (revision_id, base_id, snapshot_rows, delta_rows) VALUES (?, ?, ?, ?)'),
    pages: db.prepare<[string], PageDbRow>(`${materialized(PAGES)} SELECT * FROM live WHERE removed = 0 ORDER BY parent_page_id, position`),
    page: db.prepare<[string, string], PageDbRow & { removed: number }>(nearest(PAGES)),
    files: db.prepare<[string], FileDbRow>(`${materialized(FILES)} SELECT * FROM live WHERE removed = 0 ORDER BY name, file_id`),
    file: db.prepare<[string, string], FileDbRow & { removed: number }>(nearest(FILES)),
    filesAfter: db.prepare<[string, string, string, string, number], FileDbRow>(
      `${materialized(FILES)} SELECT * FROM live WHERE removed = 0 AND (name > ? OR (name = ? AND file_id > ?)) ORDER BY name, file_id LIMIT ?`
    ),
    countFiles: db.prepare<[string], number>(`${materialized(FILES)} SELECT count(*) FROM live WHERE removed = 0`).pluck(),
    insertRevision: db.prepare(
      'INSERT INTO revisions (id, space_id, parents, type, git, created_by, created_at, change_request_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'
    ),
    copyPagesExcept: db.prepare(copyLive(PAGES)),
    insertPage: db.prepare(
      `INSERT INTO revision_pages (revision_id, page_id, parent_page_id, position, type, title, emoji, slug, description, document_id, document_hash, hidden, props, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
    ),
    // A page's tombstone needs none of its fields (document_hash may be NULL, unlike a file's blob or a content's document).
    pageTombstone: db.prepare(
      "INSERT INTO revision_pages (revision_id, page_id, position, title, slug, created_at, updated_at, removed) VALUES (?, ?, 0, '', '', '', '', 1)"
    ),
    copyFilesExcept: db.prepare(copyLive(FILES)),
    fileTombstones: db.prepare(tombstones(FILES)),
    insertFile: db.prepare(
      'INSERT INTO revision_files (revision_id, file_id, name, content_type, blob_hash, size, width, height, git) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)'
    ),
    reusableContents: db.prepare<[string], { content_id: string; title: string; document_hash: string; git: string | null }>(
      `${materialized(REUSABLE)} SELECT content_id, title, document_hash, git FROM live WHERE removed = 0 ORDER BY title, content_id`
    ),
    copyReusableExcept: db.prepare(copyLive(REUSABLE)),
    reusableTombstones: db.prepare(tombstones(REUSABLE)),
    insertReusable: db.prepare(
      'INSERT INTO revision_reusable_contents (revision_id, content_id, title, document_hash, git) VALUES (?, ?, ?, ?, ?)'
    )
  }
}

type Statements = ReturnType<typeof statements>
const cache = new WeakMap<Db, Statements>()
function st(db: Db): Statements {
  let s = cache.get(db)
  if (!s) cache.set(db, (s = statements(db)))
  return s
}

export function getRevision(db: Db, revisionId: string): RevisionRow | undefined {
  return st(db).revision.get(revisionId)
}

/**
 * Revisions never change, so their pages are kept in memory once read or written: edits, merges, the change
 * list and the search index all start from whole revisions of up to tens of thousands of pages, and reading
 * those rows back is most of their cost. The records are frozen (callers copy before changing them, as PageTree
 * does). A revision written by a transaction that rolls back leaves an entry nobody asks for (ids are never
 * reused); the least recently used entries go first.
 */
const PAGE_CACHE_REVISIONS = 128
/**
 * Bound on the memory the cache holds, in page records. A revision read from the database costs all its
 * records; one derived from a cached base shares the base's unchanged records, so it costs its own changed
 * records plus its array (a pointer per page, about a fortieth of a record).
 */
const PAGE_CACHE_RECORDS = 200_000

interface CachedPages {
  pages: readonly PageRecord[]
  cost: number
}
const pageCaches = new WeakMap<Db, Map<string, CachedPages>>()

function pageCache(db: Db): Map<string, CachedPages> {
  let cache = pageCaches.get(db)
  if (!cache) pageCaches.set(db, (cache = new Map()))
  return cache
}

function remember(db: Db, revisionId: string, entry: CachedPages): readonly PageRecord[] {
  const cache = pageCache(db)
  cache.delete(revisionId)
  cache.set(revisionId, entry)
  let cost = 0
  for (const e of cache.values()) cost += e.cost
  for (const [key, e] of cache) {
    if (cache.size <= 1 || (cache.size <= PAGE_CACHE_REVISIONS && cost <= PAGE_CACHE_RECORDS)) break
    cache.delete(key)
    cost -= e.cost
  }
  return entry.pages
}

const frozen = (p: PageRecord): PageRecord => Object.freeze({ ...p, props: Object.freeze({ ...p.props }) as PageProps })

/** Every page of a revision, flat (children ordered by position). The records are shared and frozen. */
export function loadPages(db: Db, revisionId: string): readonly PageRecord[] {
  const cached = pageCache(db).get(revisionId)
  if (cached) return remember(db, revisionId, cached)
  const pages = st(db)
    .pages.all(revisionId)
    .map((r) => {
      const page = pageFromRow(r)
      Object.freeze(page.props)
      return Object.freeze(page)
    })
  return remember(db, revisionId, { pages, cost: pages.length })
}

export function loadPage(db: Db, revisionId: string, pageId: string): PageRecord | undefined {
  const row = st(db).page.get(revisionId, pageId)
  return row && !row.removed ? pageFromRow(row) : undefined
}

/**
 * Pages by `[revisionId, pageId]` pairs with their paths (slugs from the root, `guide/install`), keyed
 * `revisionId/pageId`; a page missing from its revision (or not under the root) is left out.
 */
export function loadPagesWithPaths(db: Db, pairs: Iterable<[string, string]>): Map<string, { page: PageRecord; path: string }> {
  const found = new Map<string, { page: PageRecord; path: string }>()
  const byRevision = new Map<string, Set<string>>()
  for (const [revisionId, pageId] of pairs) {
    const ids = byRevision.get(revisionId) ?? new Set()
    byRevision.set(revisionId, ids.add(pageId))
  }
  for (const [revisionId, ids] of byRevision) {
    const pages = new Map(loadPages(db, revisionId).map((p) => [p.id, p]))
    for (const id of ids) {
      const page = pages.get(id)
      if (!page) continue
      let path = page.slug
      let parentId = page.parentId
      for (let depth = 0; parentId && depth < 1000; depth++) {
        const up = pages.get(parentId)
        if (!up) break
        path = `${up.slug}/${path}`
        parentId = up.parentId
      }
      if (!parentId) found.set(`${revisionId}/${id}`, { page, path })
    }
  }
  return found
}

export function loadFiles(db: Db, revisionId: string): FileRecord[] {
  return st(db).files.all(revisionId).map(fileFromRow)
}

export function loadFile(db: Db, revisionId: string, fileId: string): FileRecord | undefined {
  const row = st(db).file.get(revisionId, fileId)
  return row && !row.removed ? fileFromRow(row) : undefined
}

/** A page of a revision's files in (name, id) order, after the keyset `after`. */
export function loadFilesPage(db: Db, revisionId: string, after: [string, string] | undefined, limit: number): FileRecord[] {
  return st(db)
    .filesAfter.all(revisionId, after?.[0] ?? '', after?.[0] ?? '', after?.[1] ?? '', limit)
    .map(fileFromRow)
}

/** A revision's reusable contents, by title. */
export function loadReusableContents(db: Db, revisionId: string): ReusableContentRecord[] {
  return st(db)
    .reusableContents.all(revisionId)
    .map((r) => ({ id: r.content_id, title: r.title, documentHash: r.document_hash, git: r.git ? JSON.parse(r.git) : null }))
}

/** A revision's reusable contents with their markdown, as `{% include %}` tags read them (src-shared/blockTags.ts). */
export function loadIncludeSources(db: Db, revisionId: string): IncludeSource[] {
  const contents = loadReusableContents(db, revisionId)
  const texts = readDocuments(
    db,
    contents.map((c) => c.documentHash)
  )
  return contents.map((c) => ({
    title: c.title,
    markdown: texts.get(c.documentHash) ?? '',
    ...(c.git?.path ? { gitPath: c.git.path } : {})
  }))
}

export function countFiles(db: Db, revisionId: string): number {
  return st(db).countFiles.get(revisionId)!
}

export interface WriteRevisionInput {
  /** The revision's id when it has one already (a connected workspace's copy of a server's revision); else a new one. */
  id?: string
  spaceId: string
  changeRequestId?: string | null
  parents: string[]
  type: string
  createdBy: string | null
  now: string
  git?: Record<string, unknown> | null
  /** The revision unchanged pages and files are copied from (none: a revision from scratch). */
  base?: string | null
  /** Pages that differ from `base` (inserted or changed), and ids of pages removed from it. */
  pages: { upsert: PageRecord[]; remove: string[] }
  files?: { upsert: FileRecord[]; remove: string[] }
  /**
   * Reusable contents: those of `base` with these changes (the default: unchanged), or all of another revision's
   * (`from`: a change request pulling in the primary content's, which only Git sync changes).
   */
  reusableContents?: { upsert: ReusableContentRecord[]; remove: string[] } | { from: string }
}

/**
 * Writes an immutable revision as `base` plus changes. It is stored as a delta over `base` (the changed entries and
 * tombstones), or as a whole snapshot when there is no base in the same space or when the delta rows accumulated
 * along the base's chain since its snapshot reach that snapshot's size: snapshots are paid for by the changes before
 * them, and reading any revision reads at most about twice its entries. A snapshot's unchanged rows are copied
 * inside SQLite (INSERT … SELECT), so no page makes a JS round trip.
 */
export function writeRevision(db: Db, input: WriteRevisionInput): string {
  const s = st(db)
  const id = input.id ?? newId()
  s.insertRevision.run(
    id,
    input.spaceId,
    JSON.stringify(input.parents),
    input.type,
    input.git ? JSON.stringify(input.git) : null,
    input.createdBy,
    input.now,
    input.changeRequestId ?? null
  )
  const files = input.files ?? { upsert: [], remove: [] }
  let reusable = input.reusableContents ?? { upsert: [], remove: [] }
  if ('from' in reusable) reusable = reusableChanges(db, input.base ?? null, reusable.from)
  const touchedPages = [...input.pages.upsert.map((p) => p.id), ...input.pages.remove]
  const touchedFiles = [...files.upsert.map((f) => f.id), ...files.remove]
  const touchedReusable = [...reusable.upsert.map((r) => r.id), ...reusable.remove]
  const changed = touchedPages.length + touchedFiles.length + touchedReusable.length

  const base = input.base ? s.chainOf.get(input.base) : undefined
  const deltaRows = (base?.delta_rows ?? 0) + changed
  const asDelta = !!base && base.space_id === input.spaceId && base.snapshot_rows !== null && deltaRows < base.snapshot_rows
  if (asDelta) {
    for (const pageId of input.pages.remove) s.pageTombstone.run(id, pageId)
    if (files.remove.length) s.fileTombstones.run({ id, from: input.base, keys: JSON.stringify(files.remove) })
    if (reusable.remove.length) s.reusableTombstones.run({ id, from: input.base, keys: JSON.stringify(reusable.remove) })
  } else if (input.base) {
    s.copyPagesExcept.run({ id, from: input.base, keys: JSON.stringify(touchedPages) })
    s.copyFilesExcept.run({ id, from: input.base, keys: JSON.stringify(touchedFiles) })
    s.copyReusableExcept.run({ id, from: input.base, keys: JSON.stringify(touchedReusable) })
  }
  for (const page of input.pages.upsert) s.insertPage.run(...pageToParams(id, page))
  for (const f of files.upsert) {
    s.insertFile.run(id, f.id, f.name, f.contentType, f.blobHash, f.size, f.width, f.height, f.git ? JSON.stringify(f.git) : null)
  }
  for (const r of reusable.upsert) s.insertReusable.run(id, r.id, r.title, r.documentHash, r.git ? JSON.stringify(r.git) : null)
  if (asDelta) s.insertBase.run(id, input.base, base!.snapshot_rows, deltaRows)
  else s.insertBase.run(id, null, s.snapshotRows.get(id, id, id)!, 0)

  // The new revision's pages are the base's with the changes applied: known without reading them back.
  const basePages = input.base ? pageCache(db).get(input.base)?.pages : []
  if (basePages) {
    const dropped = new Set(touchedPages)
    const pages = basePages.filter((p) => !dropped.has(p.id)).concat(input.pages.upsert.map(frozen))
    pages.sort((a, b) => compareNullable(a.parentId, b.parentId) || a.position - b.position)
    remember(db, id, { pages, cost: input.pages.upsert.length + Math.ceil(pages.length / 40) })
  }
  return id
}

/**
 * Deletes revisions nothing refers to any more. A revision another one is stored as a delta over is folded into
 * it first: the dependent takes the entries it did not override (and becomes a snapshot when the deleted one was
 * one), so every remaining revision reads back exactly as before.
 */
export function deleteRevisions(db: Db, revisionIds: Iterable<string>): number {
  const s = st(db)
  let deleted = 0
  for (const id of revisionIds) {
    const own = s.chainOf.get(id)
    if (!own) continue
    for (const dependent of s.dependents.all(id)) {
      for (const fold of s.fold) fold.run({ dependent, from: id })
      if (own.base_id) s.rebase.run(own.base_id, dependent)
      else {
        for (const drop of s.dropTombstones) drop.run(dependent)
        s.makeSnapshot.run(s.snapshotRows.get(dependent, dependent, dependent)!, dependent)
      }
    }
    pageCache(db).delete(id)
    deleted += s.deleteRevision.run(id).changes
  }
  return deleted
}

/** Documents and blobs found unreferenced by the last collection, per workspace: collected if still so at the next. */
const marked = new WeakMap<Db, { documents: Set<string>; blobs: Set<string> }>()
const COLLECT_BATCH = 500

/**
 * Collects documents (with their links and sections) and blobs nothing refers to: no row of any revision (which
 * change requests, comment targets and outbox entries refer to, and which are only deleted as a whole space or by
 * deleteRevisions) and no integration image. Something is deleted only when found unreferenced by two
 * collections in a row, so content stored by one transaction and referred to by a later one is never lost in
 * between. Works in batches of a few hundred, each its own transaction, yielding to the event loop between them
 * (requests go on meanwhile). Returns how many documents and blobs went.
 */
export async function collectUnreferenced(db: Db): Promise<{ documents: number; blobs: number }> {
  const before = marked.get(db) ?? { documents: new Set<string>(), blobs: new Set<string>() }
  const now = { documents: new Set<string>(), blobs: new Set<string>() }
  const gone = { documents: 0, blobs: 0 }
  const s = st(db)
  for (const kind of ['documents', 'blobs'] as const) {
    let after = ''
    for (;;) {
      if (!db.open) return gone
      const batch = db.transaction(() => {
        const rows = kind === 'documents' ? s.documentBatch.all(after, COLLECT_BATCH) : s.blobBatch.all(after, COLLECT_BATCH)
        const images = kind === 'blobs' ? new Set(s.integrationImages.all()) : new Set<string>()
        for (const row of rows) {
          if (!row.unreferenced || images.has(row.hash)) continue
          if (!before[kind].has(row.hash)) now[kind].add(row.hash)
          else if (kind === 'documents') {
            if (deleteDocument(db, row.hash)) gone.documents++
          } else gone.blobs += s.deleteBlob.run(row.hash).changes
        }
        return rows
      })()
      if (batch.length < COLLECT_BATCH) break
      after = batch[batch.length - 1]!.hash
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  marked.set(db, now)
  return gone
}

/** The changes that turn `base`'s reusable contents into those of revision `from`. */
function reusableChanges(db: Db, base: string | null, from: string): { upsert: ReusableContentRecord[]; remove: string[] } {
  const target = loadReusableContents(db, from)
  const current = new Map(base ? loadReusableContents(db, base).map((r) => [r.id, JSON.stringify(r)]) : [])
  const kept = new Set(target.map((r) => r.id))
  return {
    upsert: target.filter((r) => current.get(r.id) !== JSON.stringify(r)),
    remove: [...current.keys()].filter((key) => !kept.has(key))
  }
}

/** SQLite's order for `ORDER BY parent_page_id`: NULL first, then binary string order. */
function compareNullable(a: string | null, b: string | null): number {
  if (a === b) return 0
  if (a === null) return -1
  if (b === null) return 1
  return a < b ? -1 : 1
}

export interface InitialPage {
  title: string
  markdown: string
}

/** A space's first revision: empty, or with the given pages at its root. Returns the revision id. */
export function createInitialRevision(db: Db, spaceId: string, pages: InitialPage[], userId: string, now: string): string {
  const used = new Set<string>()
  const records = pages.map((page, i): PageRecord => {
    let slug = slugify(page.title) || `page-${i + 1}`
    while (used.has(slug)) slug = `${slug}-${i + 1}`
    used.add(slug)
    return {
      id: newId(),
      parentId: null,
      position: i,
      type: 'document',
      title: page.title,
      emoji: null,
      slug,
      description: null,
      documentId: newId(),
      documentHash: storeDocument(db, page.markdown),
      hidden: false,
      props: {},
      createdAt: now,
      updatedAt: now
    }
  })
  return writeRevision(db, { spaceId, parents: [], type: 'edits', createdBy: userId, now, pages: { upsert: records, remove: [] } })
}

/**
 * Copies a revision's pages and files into a new first revision of another space (space duplicate). Documents
 * and blobs are shared by hash, so this copies rows, not content.
 */
export function copyRevision(db: Db, fromRevisionId: string, toSpaceId: string, userId: string, now: string): string {
  return writeRevision(db, {
    spaceId: toSpaceId,
    parents: [],
    type: 'edits',
    createdBy: userId,
    now,
    base: fromRevisionId,
    pages: { upsert: [], remove: [] }
  })
}
