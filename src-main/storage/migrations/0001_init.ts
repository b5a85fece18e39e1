// Foundation schema. Every table with a listing has `seq INTEGER PRIMARY KEY` (stable under VACUUM) as the
// keyset tiebreaker, and a public random `id`. Timestamps are ISO 8601 UTC strings (they sort as text).
export const sql = /* sql */ `
-- Workspace-wide settings (the visitor-claims signing secret, the bootstrap marker).
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE users (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  display_name TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  photo_url TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE tokens (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  label TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX tokens_user ON tokens(user_id);

CREATE TABLE organizations (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  created_at TEXT NOT NULL,
  hostname TEXT UNIQUE,
  type TEXT NOT NULL DEFAULT 'business',
  use_case TEXT,
  community_type TEXT,
  default_role TEXT,
  default_content TEXT,          -- JSON or NULL
  sso INTEGER NOT NULL DEFAULT 0,
  ai INTEGER NOT NULL DEFAULT 0,
  invite_links INTEGER NOT NULL DEFAULT 1,
  plan TEXT NOT NULL DEFAULT 'free',
  custom_hostname TEXT,
  logo TEXT
);

CREATE TABLE organization_email_domains (
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  domain TEXT NOT NULL COLLATE NOCASE,
  position INTEGER NOT NULL,
  PRIMARY KEY (organization_id, domain)
);
CREATE INDEX organization_email_domains_domain ON organization_email_domains(domain);

CREATE TABLE members (
  seq INTEGER PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT,                      -- NULL: guest
  disabled INTEGER NOT NULL DEFAULT 0,
  sso INTEGER NOT NULL DEFAULT 0,
  joined_at TEXT NOT NULL,
  last_seen_at TEXT,
  UNIQUE (organization_id, user_id)
);
CREATE INDEX members_user ON members(user_id);
CREATE INDEX members_org_joined ON members(organization_id, joined_at, seq);
CREATE INDEX members_org_seen ON members(organization_id, last_seen_at, seq);
CREATE INDEX members_org_role ON members(organization_id, role, joined_at, seq);

CREATE TABLE teams (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX teams_org ON teams(organization_id, seq);

CREATE TABLE team_members (
  seq INTEGER PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL DEFAULT 'member',   -- owner | member
  added_at TEXT NOT NULL,
  UNIQUE (team_id, user_id)
);
CREATE INDEX team_members_user ON team_members(user_id, team_id);

CREATE TABLE collections (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  parent_id TEXT REFERENCES collections(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  description TEXT,
  default_level TEXT,
  position REAL NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX collections_org ON collections(organization_id, seq);
CREATE INDEX collections_parent ON collections(parent_id, position);

CREATE TABLE spaces (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  parent_id TEXT REFERENCES collections(id) ON DELETE SET NULL,
  title TEXT NOT NULL,
  emoji TEXT NOT NULL DEFAULT '',
  visibility TEXT NOT NULL DEFAULT 'private',
  edit_mode TEXT NOT NULL DEFAULT 'live',
  default_level TEXT,
  position REAL NOT NULL,
  revision_id TEXT,
  visitor_auth TEXT,              -- JSON
  git_sync TEXT,                  -- JSON
  comments_open INTEGER NOT NULL DEFAULT 0,
  change_requests INTEGER NOT NULL DEFAULT 0,
  change_requests_open INTEGER NOT NULL DEFAULT 0,
  change_requests_draft INTEGER NOT NULL DEFAULT 0,
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE INDEX spaces_org_live ON spaces(organization_id, seq) WHERE deleted_at IS NULL;
CREATE INDEX spaces_org_all ON spaces(organization_id, seq);
CREATE INDEX spaces_parent ON spaces(parent_id, position) WHERE deleted_at IS NULL;
CREATE INDEX spaces_deleted ON spaces(deleted_at) WHERE deleted_at IS NOT NULL;

-- Grants of a role on a space or collection to a user or a team.
CREATE TABLE space_grants (
  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  principal_type TEXT NOT NULL,   -- user | team
  principal_id TEXT NOT NULL,
  role TEXT NOT NULL,
  granted_at TEXT NOT NULL,
  PRIMARY KEY (space_id, principal_type, principal_id)
);
CREATE INDEX space_grants_principal ON space_grants(principal_id, principal_type);

CREATE TABLE collection_grants (
  collection_id TEXT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
  principal_type TEXT NOT NULL,
  principal_id TEXT NOT NULL,
  role TEXT NOT NULL,
  granted_at TEXT NOT NULL,
  PRIMARY KEY (collection_id, principal_type, principal_id)
);
CREATE INDEX collection_grants_principal ON collection_grants(principal_id, principal_type);

CREATE TABLE invites (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  role TEXT,
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX invites_org ON invites(organization_id, seq);

CREATE TABLE custom_fields (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  type TEXT NOT NULL,
  title TEXT,
  description TEXT,
  placeholder TEXT,
  options TEXT,                   -- JSON array or NULL
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (organization_id, name)
);

CREATE TABLE space_custom_field_values (
  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  field_id TEXT NOT NULL REFERENCES custom_fields(id) ON DELETE CASCADE,
  value TEXT NOT NULL,            -- JSON
  PRIMARY KEY (space_id, field_id)
);
CREATE INDEX space_custom_field_values_field ON space_custom_field_values(field_id);

CREATE TABLE saml_providers (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  label TEXT NOT NULL,
  sso_url TEXT,
  entity_id TEXT,
  certificate TEXT,
  default_team_id TEXT REFERENCES teams(id) ON DELETE SET NULL,
  default_role TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX saml_providers_org ON saml_providers(organization_id, seq);

-- Content: page documents stored once by content hash; revisions are immutable snapshots of the page tree.
CREATE TABLE documents (
  hash TEXT PRIMARY KEY,
  markdown TEXT NOT NULL
);

CREATE TABLE revisions (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  parents TEXT NOT NULL DEFAULT '[]',  -- JSON array of revision ids
  type TEXT NOT NULL DEFAULT 'edits',
  git TEXT,                            -- JSON
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX revisions_space ON revisions(space_id, seq);

CREATE TABLE revision_pages (
  revision_id TEXT NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
  page_id TEXT NOT NULL,
  parent_page_id TEXT,
  position INTEGER NOT NULL,
  type TEXT NOT NULL DEFAULT 'document',
  title TEXT NOT NULL,
  emoji TEXT,
  slug TEXT NOT NULL,
  description TEXT,
  document_id TEXT,
  document_hash TEXT REFERENCES documents(hash),
  hidden INTEGER NOT NULL DEFAULT 0,
  props TEXT,                          -- JSON: layout, cover, git and the other optional page fields
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (revision_id, page_id)
);
CREATE INDEX revision_pages_parent ON revision_pages(revision_id, parent_page_id, position);
`
