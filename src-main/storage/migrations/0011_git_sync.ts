// Git sync: one row per space with the state of its last import/export request. Credentials are never stored:
// `url` is the credential-free form. `commit_oid` (with `synced_url`/`synced_ref`) is the commit the space was
// last in step with, the base an export checks the branch against (non-fast-forward).
export const sql = /* sql */ `
CREATE TABLE git_sync_states (
  space_id TEXT PRIMARY KEY REFERENCES spaces(id) ON DELETE CASCADE,
  operation TEXT NOT NULL,      -- import | export (the latest request)
  status TEXT NOT NULL,         -- pending | running | succeeded | failed | skipped
  url TEXT NOT NULL,
  ref TEXT NOT NULL,
  repo_name TEXT NOT NULL,
  provider TEXT NOT NULL,       -- github | gitlab | git
  integration TEXT,
  error TEXT,                   -- a safe message of the last failure (no credentials, no stack)
  commit_oid TEXT,
  synced_url TEXT,
  synced_ref TEXT,
  revision_id TEXT,             -- the revision the last import wrote
  last_timestamp TEXT,          -- event time of the last applied operation: older events are skipped
  updated_at TEXT NOT NULL
);
`
