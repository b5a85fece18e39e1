// OpenAPI specs (processed in the background into immutable versions) and integrations (published manifests,
// their installations). Every list filter has an index.
export const sql = /* sql */ `
CREATE TABLE openapi_specs (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  slug TEXT NOT NULL,
  source_url TEXT,                    -- a {url} source
  source_text TEXT,                   -- a {text} source (Quire extension): the document itself
  -- Bumped on every new source: a processing job started for an older source records nothing.
  source_generation INTEGER NOT NULL DEFAULT 1,
  processing_state TEXT NOT NULL DEFAULT 'pending',  -- pending | progress | complete
  last_version_id TEXT,
  last_processed_at TEXT,
  last_process_error_code TEXT,       -- FETCH_TIMEOUT | FETCH_ERROR | PARSE_ERROR, NULL after a success
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (organization_id, slug)
);
CREATE INDEX openapi_specs_org ON openapi_specs(organization_id, seq);
-- Specs left pending or in progress by a stopped process are picked up again at start.
CREATE INDEX openapi_specs_unfinished ON openapi_specs(seq) WHERE processing_state <> 'complete';

CREATE TABLE openapi_spec_versions (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  spec_id TEXT NOT NULL REFERENCES openapi_specs(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  filesystem TEXT NOT NULL,           -- JSON {path: parsed document}: the main document and its external $ref files
  created_at TEXT NOT NULL
);
CREATE INDEX openapi_spec_versions_spec ON openapi_spec_versions(spec_id, seq);

CREATE TABLE integrations (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL UNIQUE,
  owner_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  summary TEXT,
  icon TEXT,                          -- JSON {hash, contentType}; bytes in blobs
  preview_images TEXT NOT NULL,       -- JSON [{hash, contentType}]
  visibility TEXT NOT NULL,
  target TEXT NOT NULL,
  scopes TEXT NOT NULL,               -- JSON string[]
  categories TEXT NOT NULL,           -- JSON string[] (also in integration_categories for the filter)
  blocks TEXT NOT NULL,               -- JSON
  content_sources TEXT NOT NULL,      -- JSON
  external_links TEXT NOT NULL,       -- JSON
  configurations TEXT NOT NULL,       -- JSON {account?, space?, site?}
  script TEXT NOT NULL,
  secrets TEXT NOT NULL,              -- JSON {name: value}; never answered
  content_security_policy TEXT,
  verified INTEGER NOT NULL DEFAULT 0,
  has_blocks INTEGER NOT NULL,
  has_content_sources INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX integrations_owner ON integrations(owner_id, seq);
CREATE INDEX integrations_visibility ON integrations(visibility, seq);
CREATE INDEX integrations_blocks ON integrations(has_blocks, seq);
CREATE INDEX integrations_content_sources ON integrations(has_content_sources, seq);

CREATE TABLE integration_categories (
  integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
  category TEXT NOT NULL,
  PRIMARY KEY (category, integration_id)
);
CREATE INDEX integration_categories_integration ON integration_categories(integration_id);

-- Host names the integration's blocks unfurl (from blocks[].urlUnfurl), for the blockDomain filter.
CREATE TABLE integration_block_domains (
  integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
  domain TEXT NOT NULL,
  PRIMARY KEY (domain, integration_id)
);
CREATE INDEX integration_block_domains_integration ON integration_block_domains(integration_id);

CREATE TABLE integration_installations (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  status TEXT NOT NULL,               -- active | pending | paused
  space_selection TEXT NOT NULL DEFAULT 'selected',
  site_selection TEXT NOT NULL DEFAULT 'selected',
  configuration TEXT NOT NULL DEFAULT '{}',  -- JSON
  external_ids TEXT NOT NULL DEFAULT '[]',   -- JSON string[] (also in integration_installation_external_ids)
  created_at TEXT NOT NULL,
  UNIQUE (integration_id, organization_id)
);
CREATE INDEX integration_installations_integration ON integration_installations(integration_id, seq);
CREATE INDEX integration_installations_org ON integration_installations(organization_id);

CREATE TABLE integration_installation_external_ids (
  installation_id TEXT NOT NULL REFERENCES integration_installations(id) ON DELETE CASCADE,
  integration_id TEXT NOT NULL,
  external_id TEXT NOT NULL,
  installation_seq INTEGER NOT NULL,
  PRIMARY KEY (integration_id, external_id, installation_seq)
);
CREATE INDEX integration_installation_external_ids_installation ON integration_installation_external_ids(installation_id);
`
