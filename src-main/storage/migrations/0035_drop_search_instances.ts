// Search reads a word's postings from the FTS5 index's own records (src-main/content/ftsPostings.ts); the
// occurrence view migration 24 made for it is no longer read.
export const sql = /* sql */ `
DROP TABLE IF EXISTS search_instances;
`
