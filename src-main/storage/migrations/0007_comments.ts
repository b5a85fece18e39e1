// Comments: indexes for the list filters. Every list is scoped to the primary content (change_request_id IS
// NULL) or one change request, then filtered by status, page or author, in keyset order on seq.
export const sql = /* sql */ `
CREATE INDEX comments_scope ON comments(space_id, change_request_id, seq);
-- Open/resolved filter: the query repeats the expression (resolved_at IS NOT NULL) so this index applies.
CREATE INDEX comments_scope_status ON comments(space_id, change_request_id, (resolved_at IS NOT NULL), seq);
CREATE INDEX comments_scope_page ON comments(space_id, change_request_id, page_id, seq);
CREATE INDEX comments_scope_author ON comments(space_id, change_request_id, posted_by, seq);
-- reactions.user_id cascades from users: without an index a user delete would scan every reaction.
CREATE INDEX reactions_user ON reactions(user_id);
`
