// Reusable contents: blocks of markdown a revision holds beside its pages (the hosted service's `.gitbook/includes`
// in Git), snapshotted with the revision like files, their text stored once by hash in `documents`.
export const sql = /* sql */ `
CREATE TABLE revision_reusable_contents (
  revision_id TEXT NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
  content_id TEXT NOT NULL,
  title TEXT NOT NULL,
  document_hash TEXT NOT NULL REFERENCES documents(hash),
  git TEXT,                         -- JSON {oid, path}
  PRIMARY KEY (revision_id, content_id)
) WITHOUT ROWID;
`
