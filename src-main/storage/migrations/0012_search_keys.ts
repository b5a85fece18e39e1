// Search: section rows keyed by where they belong. A row's rowid is its space's number, its page's number in the
// space and its position in the page, packed into one integer (see content/searchIndex.ts): a space search reads
// one rowid range of the FTS index and groups rows by page from the rowid alone, with no join per matching row.
// The old rows are dropped; every space's index is rebuilt in the background at start (or before its next search).
export const sql = /* sql */ `
DROP TABLE search_sections;
DROP TABLE search_section_rows;
DELETE FROM search_state;
CREATE VIRTUAL TABLE search_sections USING fts5(
  title, body,
  page_id UNINDEXED, section_id UNINDEXED, page_title UNINDEXED, path UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '3 4'
);
-- A space's number (the high bits of its rows' rowids) and the next page number it hands out.
CREATE TABLE search_spaces (
  space_id TEXT PRIMARY KEY,
  ord INTEGER NOT NULL UNIQUE,
  next_page INTEGER NOT NULL DEFAULT 0
);
-- A page's number within its space and how many rows (title, sections) it has in search_sections.
CREATE TABLE search_pages (
  space_ord INTEGER NOT NULL,
  page_id TEXT NOT NULL,
  ord INTEGER NOT NULL,
  sections INTEGER NOT NULL,
  PRIMARY KEY (space_ord, page_id)
) WITHOUT ROWID;
CREATE UNIQUE INDEX search_pages_ord ON search_pages(space_ord, ord);
`
