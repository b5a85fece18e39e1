import type { Db } from '../database'
import { packLinks, packMarkdown, packSections } from '../documentText'

// A document's text is stored once: its markdown deflated, its sections (what search indexes and shows) deflated
// with the markdown as dictionary in the same row, and the search index no longer keeps a copy of the text
// (contentless FTS5; a page's title, path and document are in search_pages, a row's section is found by its
// position). A document's links move into its row (document_links keyed each by the document's hash, twice).
export const sql = /* sql */ `
ALTER TABLE documents ADD COLUMN sections BLOB;
ALTER TABLE documents ADD COLUMN links TEXT;

-- Rebuilt on the next catch-up of each space (at start-up).
DROP TABLE search_sections;
DROP TABLE search_pages;
DELETE FROM search_state;
DELETE FROM search_spaces;
CREATE VIRTUAL TABLE search_sections USING fts5(
  title, body,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2'
);
-- A page's number within its space, how many rows (title, sections) it has in search_sections, and what search
-- shows of it: its title and path, and the document its rows were indexed from.
CREATE TABLE search_pages (
  space_ord INTEGER NOT NULL,
  page_id TEXT NOT NULL,
  ord INTEGER NOT NULL,
  sections INTEGER NOT NULL,
  title TEXT NOT NULL,
  path TEXT NOT NULL,
  document_hash TEXT,
  PRIMARY KEY (space_ord, page_id)
) WITHOUT ROWID;
CREATE UNIQUE INDEX search_pages_ord ON search_pages(space_ord, ord);
`

const BATCH = 500

/** Packs every document's markdown, stored sections and links; documents with no sections are split when next read. */
export function packDocuments(db: Db): void {
  const batch = db.prepare<[number, number], { rowid: number; markdown: string | Buffer }>(
    'SELECT rowid, markdown FROM documents WHERE rowid > ? ORDER BY rowid LIMIT ?'
  )
  const sections = db.prepare<[number], { section_id: string; title: string; body: string }>(
    'SELECT section_id, title, body FROM document_sections WHERE document_hash = (SELECT hash FROM documents WHERE rowid = ?) ORDER BY position'
  )
  const links = db.prepare<[number], { relation: 'link' | 'image'; url: string }>(
    'SELECT kind AS relation, target AS url FROM document_links WHERE document_hash = (SELECT hash FROM documents WHERE rowid = ?) ORDER BY position'
  )
  const update = db.prepare('UPDATE documents SET markdown = ?, sections = ?, links = ? WHERE rowid = ?')
  for (let after = 0; ;) {
    const rows = batch.all(after, BATCH)
    for (const row of rows) {
      const markdown = typeof row.markdown === 'string' ? row.markdown : row.markdown.toString()
      const split = sections.all(row.rowid).map((x) => ({ id: x.section_id, title: x.title, body: x.body }))
      // A document without sections rows was never split (or a migration dropped its split): NULL, split on read.
      update.run(
        packMarkdown(markdown),
        split.length ? packSections(split, Buffer.from(markdown)) : null,
        packLinks(links.all(row.rowid)),
        row.rowid
      )
    }
    if (rows.length < BATCH) break
    after = rows[rows.length - 1]!.rowid
  }
  db.exec('DROP TABLE document_sections; DROP TABLE document_links')
}
