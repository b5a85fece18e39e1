// A system effect's audit event names the event of the request that caused it (`causedByEventId`): a Git sync job's
// import, an OpenAPI specification's processing. A spec keeps the event of the write that set its current source, so
// processing resumed at the next start still names it.
export const sql = /* sql */ `
ALTER TABLE audit_events ADD COLUMN caused_by_event_id TEXT;
ALTER TABLE openapi_specs ADD COLUMN source_event_id TEXT;
`
