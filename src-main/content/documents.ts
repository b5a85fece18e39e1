import { createHash } from 'node:crypto'
import type { Db } from '../storage/database'
import { markdownBytes, packLinks, packMarkdown, packSections, unpackLinks, unpackMarkdown, unpackSections } from '../storage/documentText'
import { analyzeMarkdown, sectionsOf, type FoundLink, type Section } from './markdown'

// Page and reusable-content documents, stored once by the SHA-256 of their markdown (documents never change;
// revisions that did not change a page share its row). A row holds the markdown once, compressed, and its
// sections (what search indexes and shows) deflated against it, and the links and images it refers to (links.ts
// resolves them), as storage/documentText.ts describes.

function statements(db: Db) {
  return {
    insert: db.prepare('INSERT OR IGNORE INTO documents (hash, markdown, sections, links) VALUES (?, ?, ?, ?)'),
    exists: db.prepare<[string], number>('SELECT 1 FROM documents WHERE hash = ?').pluck(),
    markdown: db.prepare<[string], string | Buffer>('SELECT markdown FROM documents WHERE hash = ?').pluck(),
    many: db.prepare<[string], { hash: string; markdown: string | Buffer }>(
      'SELECT hash, markdown FROM documents WHERE hash IN (SELECT value FROM json_each(?))'
    ),
    withSections: db.prepare<[string], { hash: string; markdown: string | Buffer; sections: Buffer | null }>(
      'SELECT hash, markdown, sections FROM documents WHERE hash IN (SELECT value FROM json_each(?))'
    ),
    setSections: db.prepare('UPDATE documents SET sections = ? WHERE hash = ?'),
    links: db.prepare<[string], { hash: string; links: string }>(
      'SELECT hash, links FROM documents WHERE hash IN (SELECT value FROM json_each(?)) AND links IS NOT NULL'
    ),
    delete: db.prepare('DELETE FROM documents WHERE hash = ?')
  }
}

const cache = new WeakMap<Db, ReturnType<typeof statements>>()
function st(db: Db) {
  let s = cache.get(db)
  if (!s) cache.set(db, (s = statements(db)))
  return s
}

export function hashDocument(markdown: string): string {
  return createHash('sha256').update(markdown).digest('hex')
}

/**
 * Stores a document (if new) with its sections and links, parsed once here since documents never change.
 * Returns its hash.
 */
export function storeDocument(db: Db, markdown: string): string {
  const hash = hashDocument(markdown)
  const s = st(db)
  // Parsing costs a millisecond or so: skipped when the document is stored already.
  if (s.exists.get(hash)) return hash
  const { links, sections } = analyzeMarkdown(markdown)
  s.insert.run(hash, packMarkdown(markdown), packSections(sections, Buffer.from(markdown)), packLinks(links))
  return hash
}

export function readDocument(db: Db, hash: string | null): string {
  if (!hash) return ''
  const stored = st(db).markdown.get(hash)
  return stored === undefined ? '' : unpackMarkdown(stored)
}

/** Markdown of many documents in one query. */
export function readDocuments(db: Db, hashes: Iterable<string | null>): Map<string, string> {
  const list = [...new Set([...hashes].filter((h): h is string => !!h))]
  return new Map(
    list.length
      ? st(db)
          .many.all(JSON.stringify(list))
          .map((r) => [r.hash, unpackMarkdown(r.markdown)])
      : []
  )
}

/**
 * Unpacked sections of recently read documents, by hash (documents never change, so an entry stays true): a
 * search result shows sections of up to a hundred documents, each costing two inflates (about 45 µs) to unpack.
 * Bounded by characters held; the least recently used go first.
 */
const SECTION_CACHE_CHARS = 8_000_000
const sectionCaches = new WeakMap<Db, { entries: Map<string, { sections: Section[]; chars: number }>; chars: number }>()

function sectionCache(db: Db) {
  let cache = sectionCaches.get(db)
  if (!cache) sectionCaches.set(db, (cache = { entries: new Map(), chars: 0 }))
  return cache
}

function keepSections(db: Db, hash: string, sections: Section[]): void {
  const cache = sectionCache(db)
  const chars = sections.reduce((n, x) => n + x.id.length + x.title.length + x.body.length, 0)
  if (chars > SECTION_CACHE_CHARS / 8) return
  cache.entries.set(hash, { sections, chars })
  cache.chars += chars
  for (const [key, entry] of cache.entries) {
    if (cache.chars <= SECTION_CACHE_CHARS) break
    cache.entries.delete(key)
    cache.chars -= entry.chars
  }
}

/**
 * Sections of many documents (search indexes and shows them; callers do not change them). A document not split
 * yet (stored before its sections were kept, or whose split a migration dropped) is split here and its sections
 * kept.
 */
export function documentSections(db: Db, hashes: Iterable<string | null>): Map<string, Section[]> {
  const s = st(db)
  const cache = sectionCache(db)
  const result = new Map<string, Section[]>()
  const missing: string[] = []
  for (const hash of hashes) {
    if (!hash || result.has(hash)) continue
    const hit = cache.entries.get(hash)
    if (!hit) {
      missing.push(hash)
      continue
    }
    cache.entries.delete(hash)
    cache.entries.set(hash, hit)
    result.set(hash, hit.sections)
  }
  if (!missing.length) return result
  for (const row of s.withSections.all(JSON.stringify([...new Set(missing)]))) {
    const markdown = markdownBytes(row.markdown)
    let sections: Section[]
    if (row.sections) sections = unpackSections(row.sections, markdown)
    else {
      sections = sectionsOf(markdown.toString())
      s.setSections.run(packSections(sections, markdown), row.hash)
    }
    keepSections(db, row.hash, sections)
    result.set(row.hash, sections)
  }
  return result
}

/** Every link and image URL of many documents, in order (documents without any are left out). */
export function documentLinks(db: Db, hashes: Iterable<string | null>): Map<string, FoundLink[]> {
  const wanted = [...new Set([...hashes].filter((h): h is string => !!h))]
  return new Map(
    wanted.length
      ? st(db)
          .links.all(JSON.stringify(wanted))
          .map((r) => [r.hash, unpackLinks(r.links)])
      : []
  )
}

/** Deletes a document (garbage collection: nothing refers to it). Returns whether it was there. */
export function deleteDocument(db: Db, hash: string): boolean {
  return st(db).delete.run(hash).changes > 0
}
