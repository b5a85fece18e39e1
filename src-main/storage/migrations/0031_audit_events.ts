// The audit log: one row per recorded write, written in the write's own transaction (workspace/audit.ts). Targets
// and actors are ids, not foreign keys: an event outlives what it names. Each filter of the list (actor, action,
// target) has an index ending with the list's order (occurred_at, seq), so a filtered page is one range scan.
export const sql = /* sql */ `
CREATE TABLE audit_events (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  occurred_at TEXT NOT NULL,
  action TEXT NOT NULL,
  actor_type TEXT NOT NULL,
  actor_id TEXT NOT NULL,
  actor_label TEXT,
  source TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id TEXT NOT NULL,
  target_label TEXT,
  payload TEXT NOT NULL -- JSON object
);
CREATE INDEX audit_events_time ON audit_events(organization_id, occurred_at, seq);
CREATE INDEX audit_events_actor ON audit_events(organization_id, actor_id, occurred_at, seq);
CREATE INDEX audit_events_action ON audit_events(organization_id, action, occurred_at, seq);
CREATE INDEX audit_events_target ON audit_events(organization_id, target_id, occurred_at, seq);
`
