// Share-link keys are kept as SHA-256 hashes (hex), as API tokens are: a key is shown once, when its link is made,
// and a copy of the database opens no site. The table is rebuilt with the hashes of the keys stored before
// (`sha256_hex` is a function openDatabase registers) and the old one dropped with secure_delete on, which zeroes
// its pages: rewriting the rows in place would leave old keys in the pages' free space.
export const sql = /* sql */ `
PRAGMA secure_delete = ON;
CREATE TABLE site_share_links_hashed (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,      -- SHA-256 (hex) of the secret readers send as shareKey
  active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL
);
INSERT INTO site_share_links_hashed (seq, id, site_id, name, key_hash, active, created_at)
  SELECT seq, id, site_id, name, sha256_hex(key), active, created_at FROM site_share_links;
DROP TABLE site_share_links;
ALTER TABLE site_share_links_hashed RENAME TO site_share_links;
CREATE INDEX site_share_links_site ON site_share_links(site_id, seq);
PRAGMA secure_delete = OFF;
`
