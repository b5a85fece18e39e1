// A review's comment is a change request comment the review names (\`comment_id\`). Finding the review of a
// comment, and SQLite's foreign-key check when a comment is deleted (ON DELETE SET NULL), look reviews up by it.
// A connected workspace's copy marks the change requests whose reviews it pulled (with their content): offline,
// the reviews of one it only listed are not there, rather than none.
export const sql = /* sql */ `
CREATE INDEX change_request_reviews_comment ON change_request_reviews(comment_id);
ALTER TABLE change_requests ADD COLUMN reviews_copied INTEGER NOT NULL DEFAULT 0;
`
