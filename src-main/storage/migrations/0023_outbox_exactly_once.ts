// The outbox keeps every edit exactly once (src-main/sync/replay.ts): an entry records the request it last sent
// (its idempotency key, body and If-Match) before sending it, so an answer lost in any way (a reset, a proxy's
// 502, a crash of either side) is resolved against the server before anything is sent again; a conflict is held
// for the user with both versions; a user's resolution records the server's version it was made against.
export const sql = /* sql */ `
ALTER TABLE sync_outbox ADD COLUMN attempt TEXT;
ALTER TABLE sync_outbox ADD COLUMN conflict TEXT;
ALTER TABLE sync_outbox ADD COLUMN rebase TEXT;
`
