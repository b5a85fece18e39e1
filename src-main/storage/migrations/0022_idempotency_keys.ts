// The first answer to each write sent with an `Idempotency-Key` (src-main/api/idempotency.ts), recorded in the
// write's own transaction, so a request sent again after its answer was lost is answered, not applied twice.
// Kept 24 hours (swept hourly by startMaintenance).
export const sql = /* sql */ `
CREATE TABLE idempotency_keys (
  seq INTEGER PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key TEXT NOT NULL,                  -- as the client sent it; scoped to the user
  method TEXT NOT NULL,
  path TEXT NOT NULL,                 -- the request's URL path and query
  body_hash TEXT NOT NULL,            -- SHA-256 (hex) of the request's JSON body
  status INTEGER NOT NULL,
  response TEXT,                      -- the JSON body as sent; NULL for an answer without one (204, 205)
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX idempotency_keys_user_key ON idempotency_keys(user_id, key);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
`
