// Search: the sections of each document (heading anchor, title, plain text), split once when the document is
// stored (with the same parse as its links), so keeping the search index in step never parses markdown again.
export const sql = /* sql */ `
CREATE TABLE document_sections (
  document_hash TEXT NOT NULL REFERENCES documents(hash),
  position INTEGER NOT NULL,
  section_id TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (document_hash, position)
) WITHOUT ROWID;
`
