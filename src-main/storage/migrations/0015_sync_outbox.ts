// A connected workspace's local copy (src-main/sync): the writes made there while its server was out of reach,
// kept in the order they were made until the server has them, and the server's ids of what they created. Other
// workspaces never write these tables.
export const sql = /* sql */ `
CREATE TABLE sync_outbox (
  seq INTEGER PRIMARY KEY,
  method TEXT NOT NULL,
  path TEXT NOT NULL,                 -- as the app sent it: ids and numbers of the copy
  body TEXT,                          -- JSON as the app sent it
  kind TEXT NOT NULL,                 -- create-change-request | update-change-request | content
  space_id TEXT NOT NULL,
  change_request_id TEXT NOT NULL,    -- the copy's id of the change request written to (or created)
  base_revision TEXT,                 -- the change request's revision the write was applied to
  result_revision TEXT,               -- the revision the write made in the copy
  created_at TEXT NOT NULL,
  failed_at TEXT,                     -- set when the server refused it; it waits for the user then
  error TEXT                          -- the server's reason
);
CREATE INDEX sync_outbox_change_request ON sync_outbox(change_request_id, seq);

CREATE TABLE sync_ids (
  local_id TEXT PRIMARY KEY,          -- an id the copy made (or 'number:<space>:<n>' for a change request number)
  remote_id TEXT NOT NULL,            -- the server's id (or number) for the same thing
  kind TEXT NOT NULL                  -- change-request | change-request-number | revision | page
);
`
