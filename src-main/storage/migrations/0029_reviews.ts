// Reviews of change requests, the reviewers asked for, and the merge rules of organizations and spaces (see
// "Reviews and merge rules" in docs/api-behaviour.md).
export const sql = /* sql */ `
CREATE TABLE change_request_reviews (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
  reviewer_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  requested_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  status TEXT NOT NULL,             -- approved | changes-requested
  revision_id TEXT NOT NULL,        -- the change request's head when reviewed
  comment_id TEXT REFERENCES comments(id) ON DELETE SET NULL,
  superseded INTEGER NOT NULL DEFAULT 0,  -- a newer review or request for the same reviewer came after it
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX change_request_reviews_cr ON change_request_reviews(change_request_id, seq);
CREATE INDEX change_request_reviews_reviewer ON change_request_reviews(change_request_id, reviewer_id);

CREATE TABLE change_request_requested_reviewers (
  seq INTEGER PRIMARY KEY,
  change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  requested_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  revision_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (change_request_id, user_id)
);

-- JSON of the wire's configuration; NULL is "inherit" on a space and "none" on an organization.
ALTER TABLE spaces ADD COLUMN merge_rules TEXT;
ALTER TABLE organizations ADD COLUMN merge_rules TEXT;
-- A merge that bypassed unmet rules: who, and the rules' messages (JSON array).
ALTER TABLE change_requests ADD COLUMN merge_bypassed_by TEXT REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE change_requests ADD COLUMN merge_bypassed_rules TEXT;
`
