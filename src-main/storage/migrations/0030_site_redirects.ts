// Redirects of a site: a source path of the published site sends its readers to a destination (a section, a
// site space, a page or an external URL, as JSON). A source is unique per site among live redirects and among
// drafts; `match_key` is the source with its %-escapes decoded, as the preview compares paths.
export const sql = /* sql */ `
CREATE TABLE site_redirects (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  source TEXT NOT NULL,
  match_key TEXT NOT NULL,
  wildcard INTEGER NOT NULL,
  draft INTEGER NOT NULL DEFAULT 0,
  capture_wildcard INTEGER NOT NULL DEFAULT 0,
  permanent INTEGER NOT NULL DEFAULT 0,
  destination TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT,
  UNIQUE (site_id, draft, source)
);
CREATE INDEX site_redirects_match ON site_redirects(site_id, draft, match_key);
CREATE INDEX site_redirects_updated ON site_redirects(site_id, draft, coalesce(updated_at, created_at), seq);
`
