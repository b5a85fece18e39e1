// A space's Git connection (Quire's addition): the repository an import or export without a body uses. `url` is
// the credential-free form; the credentials are only ever stored sealed (`credentials`: JSON {seal, data} of
// {username, password}, src-main/workspace/tokenSeal.ts). The sync state learns when its operation started and
// finished, and the prefix of its commit links.
export const sql = /* sql */ `
CREATE TABLE git_connections (
  space_id TEXT PRIMARY KEY REFERENCES spaces(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  ref TEXT NOT NULL,
  project TEXT NOT NULL DEFAULT '',
  commit_url TEXT,
  credentials TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT REFERENCES users(id) ON DELETE SET NULL
);
ALTER TABLE git_sync_states ADD COLUMN started_at TEXT;
ALTER TABLE git_sync_states ADD COLUMN finished_at TEXT;
ALTER TABLE git_sync_states ADD COLUMN commit_url TEXT;
`
