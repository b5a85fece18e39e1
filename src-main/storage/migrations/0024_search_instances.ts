// Every occurrence of every term of the search index, as rows (term, doc, col, offset): FTS5's own view of its
// index (fts5vocab), with no storage of its own. Search ranks a one-word query from it (src-main/content/
// searchWord.ts) instead of calling bm25() once per matching row.
export const sql = /* sql */ `
CREATE VIRTUAL TABLE search_instances USING fts5vocab(search_sections, 'instance');
`
