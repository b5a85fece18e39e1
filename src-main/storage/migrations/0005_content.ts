// Content engine: files, change requests, comments, reactions, section search and document links.
export const sql = /* sql */ `
-- The trash: deleted spaces of an organization in keyset order.
CREATE INDEX spaces_org_deleted ON spaces(organization_id, seq) WHERE deleted_at IS NOT NULL;

-- Which change request a revision was written for (NULL: the space's primary content).
ALTER TABLE revisions ADD COLUMN change_request_id TEXT;

-- File bytes, stored once by SHA-256.
CREATE TABLE blobs (
  hash TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  bytes BLOB NOT NULL
);

CREATE TABLE revision_files (
  revision_id TEXT NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
  file_id TEXT NOT NULL,
  name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  blob_hash TEXT NOT NULL REFERENCES blobs(hash),
  size INTEGER NOT NULL,
  width INTEGER,
  height INTEGER,
  git TEXT,                         -- JSON {oid, path}
  PRIMARY KEY (revision_id, file_id)
);
CREATE INDEX revision_files_name ON revision_files(revision_id, name, file_id);

CREATE TABLE change_requests (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  status TEXT NOT NULL,             -- draft | open | archived | merged
  subject TEXT NOT NULL DEFAULT '',
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  revision_id TEXT NOT NULL,
  revision_initial TEXT NOT NULL,
  revision_merged_ancestor TEXT,
  revision_merged TEXT,
  comments_open INTEGER NOT NULL DEFAULT 0,
  UNIQUE (space_id, number)
);
CREATE INDEX change_requests_space_status ON change_requests(space_id, status, seq);

CREATE TABLE change_request_contributors (
  change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (change_request_id, user_id)
);
CREATE INDEX change_request_contributors_user ON change_request_contributors(user_id, change_request_id);

CREATE TABLE comments (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  change_request_id TEXT REFERENCES change_requests(id) ON DELETE CASCADE,
  page_id TEXT,
  node_id TEXT,
  node_preview TEXT,
  revision_id TEXT,
  body TEXT NOT NULL,               -- markdown
  posted_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  posted_at TEXT NOT NULL,
  edited_at TEXT,
  resolved_at TEXT,
  resolved_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  replies INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX comments_change_request ON comments(change_request_id, seq);

CREATE TABLE comment_replies (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  comment_id TEXT NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
  body TEXT NOT NULL,
  posted_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  posted_at TEXT NOT NULL,
  edited_at TEXT
);
CREATE INDEX comment_replies_comment ON comment_replies(comment_id, seq);

-- Reactions on comments and replies (subject_id is the comment's or the reply's id).
CREATE TABLE reactions (
  subject_id TEXT NOT NULL,
  emoji TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  reacted_at TEXT NOT NULL,
  PRIMARY KEY (subject_id, emoji, user_id)
);

-- Links found in a document's markdown, parsed once per document (documents are immutable).
CREATE TABLE document_links (
  document_hash TEXT NOT NULL REFERENCES documents(hash),
  position INTEGER NOT NULL,
  kind TEXT NOT NULL,               -- link | image (how the document refers to the target)
  target TEXT NOT NULL,
  PRIMARY KEY (document_hash, position)
);
CREATE INDEX document_links_target ON document_links(kind, target);

-- Full-text search over the primary content, one row per section (a heading and the text under it).
CREATE VIRTUAL TABLE search_sections USING fts5(
  title, body,
  space_id UNINDEXED, page_id UNINDEXED, section_id UNINDEXED, page_title UNINDEXED, path UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '3 4'
);
-- Which FTS rows belong to which page: FTS5 cannot index UNINDEXED columns, so deletes go by rowid.
CREATE TABLE search_section_rows (
  row_id INTEGER PRIMARY KEY,
  space_id TEXT NOT NULL,
  page_id TEXT NOT NULL
);
CREATE INDEX search_section_rows_page ON search_section_rows(space_id, page_id);
CREATE TABLE search_state (
  space_id TEXT PRIMARY KEY REFERENCES spaces(id) ON DELETE CASCADE,
  revision_id TEXT NOT NULL          -- the revision the space's rows in search_sections describe
);
`
