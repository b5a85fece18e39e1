import type { Db } from '../storage/database'
import { sectionsOf } from './markdown'
import { PageTree } from './pageTree'
import { loadPages, readDocuments } from './revisions'

function statements(db: Db) {
  return {
    state: db.prepare<[string], string>('SELECT revision_id FROM search_state WHERE space_id = ?').pluck(),
    setState: db.prepare(
      'INSERT INTO search_state (space_id, revision_id) VALUES (?, ?) ON CONFLICT (space_id) DO UPDATE SET revision_id = excluded.revision_id'
    ),
    deletePage: db.prepare(
      `DELETE FROM search_sections WHERE rowid IN (SELECT row_id FROM search_section_rows WHERE space_id = @space AND page_id = @page)`
    ),
    deletePageRows: db.prepare('DELETE FROM search_section_rows WHERE space_id = @space AND page_id = @page'),
    deleteSpace: db.prepare('DELETE FROM search_sections WHERE rowid IN (SELECT row_id FROM search_section_rows WHERE space_id = ?)'),
    deleteSpaceRows: db.prepare('DELETE FROM search_section_rows WHERE space_id = ?'),
    insertRow: db.prepare('INSERT INTO search_section_rows (row_id, space_id, page_id) VALUES (?, ?, ?)'),
    insert: db.prepare(
      'INSERT INTO search_sections (title, body, space_id, page_id, section_id, page_title, path) VALUES (?, ?, ?, ?, ?, ?, ?)'
    )
  }
}

const cache = new WeakMap<Db, ReturnType<typeof statements>>()
const st = (db: Db) => {
  let s = cache.get(db)
  if (!s) cache.set(db, (s = statements(db)))
  return s
}

/**
 * Brings a space's search rows in step with its primary revision, in the caller's transaction: only pages
 * whose title, path or document changed since the indexed revision are re-read and re-split into sections.
 */
export function syncSearchIndex(db: Db, spaceId: string, revisionId: string): void {
  const s = st(db)
  const indexed = s.state.get(spaceId)
  if (indexed === revisionId) return
  const next = new PageTree(loadPages(db, revisionId))
  const nextPaths = next.paths()
  let changed: string[]
  let removed: string[] = []
  if (indexed) {
    const prev = new PageTree(loadPages(db, indexed))
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
    s.deletePage.run({ space: spaceId, page: id })
    s.deletePageRows.run({ space: spaceId, page: id })
  }
  const insert = (title: string, body: string, pageId: string, sectionId: string, pageTitle: string, path: string) => {
    const { lastInsertRowid } = s.insert.run(title, body, spaceId, pageId, sectionId, pageTitle, path)
    s.insertRow.run(lastInsertRowid, spaceId, pageId)
  }
  const docs = readDocuments(db, changed.map((id) => next.get(id)!.documentHash))
  for (const id of changed) {
    const page = next.get(id)!
    const path = nextPaths.get(id) ?? page.slug
    const markdown = page.documentHash ? (docs.get(page.documentHash) ?? '') : ''
    const sections = sectionsOf(markdown)
    // The page itself is findable by its title even when its document is empty.
    if (!sections.some((x) => x.id === '')) insert(page.title, '', id, '', page.title, path)
    for (const section of sections) insert(section.id ? section.title : page.title, section.body, id, section.id, page.title, path)
  }
  s.setState.run(spaceId, revisionId)
}

/** Drops a space's search rows (the space was removed for good). */
export function dropSearchIndex(db: Db, spaceId: string): void {
  const s = st(db)
  s.deleteSpace.run(spaceId)
  s.deleteSpaceRows.run(spaceId)
}
