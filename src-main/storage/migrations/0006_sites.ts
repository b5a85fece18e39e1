// Sites: published docs sites built from site spaces, optionally arranged in sections and section groups,
// with share links, an adaptive-content schema and a stored customization (only the values that were set).
export const sql = /* sql */ `
CREATE TABLE sites (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  type TEXT NOT NULL DEFAULT 'basic',
  title TEXT NOT NULL,
  icon TEXT,                          -- JSON
  hostname TEXT UNIQUE,
  basename TEXT,
  proxy TEXT,                         -- host plus path prefix, e.g. example.com/docs
  visibility TEXT NOT NULL DEFAULT 'public',
  published INTEGER NOT NULL DEFAULT 0,
  adaptive_enabled INTEGER NOT NULL DEFAULT 0,
  adaptive_schema TEXT,               -- JSON Schema draft-07 document, NULL until one is put
  adaptive_schema_updated_at TEXT,
  default_section_id TEXT,            -- the section readers land on
  customization TEXT,                 -- JSON: the customization values that were set (defaults are not stored)
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX sites_org ON sites(organization_id, seq);
-- The sites list's published filter (the title filter is a substring match over the organization's rows).
CREATE INDEX sites_org_published ON sites(organization_id, published, seq);

-- Groups and the sections outside any group share one ordering (position) at the top of a site's structure.
CREATE TABLE site_section_groups (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  icon TEXT,
  position REAL NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX site_section_groups_site ON site_section_groups(site_id, position, seq);

CREATE TABLE site_sections (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  group_id TEXT REFERENCES site_section_groups(id) ON DELETE SET NULL,
  title TEXT NOT NULL,
  description TEXT,
  path TEXT NOT NULL,
  icon TEXT,
  condition TEXT,
  position REAL NOT NULL,             -- among the group's sections, or at the top of the site when ungrouped
  created_at TEXT NOT NULL,
  UNIQUE (site_id, path)
);
CREATE INDEX site_sections_site ON site_sections(site_id, position, seq);
CREATE INDEX site_sections_group ON site_sections(group_id, position);

-- A space linked to a site, at the root of the site (section_id NULL) or in a section.
CREATE TABLE site_spaces (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  section_id TEXT REFERENCES site_sections(id) ON DELETE CASCADE,
  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  condition TEXT,
  is_default INTEGER NOT NULL DEFAULT 0,
  position REAL NOT NULL,             -- among the site spaces of the same section (or of the root)
  created_at TEXT NOT NULL,
  UNIQUE (site_id, path)
);
CREATE INDEX site_spaces_site ON site_spaces(site_id, position, seq);
CREATE INDEX site_spaces_site_default ON site_spaces(site_id, is_default, position, seq);
CREATE INDEX site_spaces_section ON site_spaces(section_id, position);
-- The sites list's space filter.
CREATE INDEX site_spaces_space ON site_spaces(space_id, site_id);
-- One default per section, and one at the root of a site.
CREATE UNIQUE INDEX site_spaces_one_default ON site_spaces(site_id, coalesce(section_id, '')) WHERE is_default = 1;

-- The site spaces readers and lists see: a site space whose space is deleted (restorable) or was transferred
-- to another organization stays stored but out of sight, and comes back with a restored space.
CREATE VIEW live_site_spaces AS
  SELECT ss.* FROM site_spaces ss
  JOIN sites st ON st.id = ss.site_id
  JOIN spaces sp ON sp.id = ss.space_id
  WHERE sp.deleted_at IS NULL AND sp.organization_id = st.organization_id;

CREATE TABLE site_share_links (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  key TEXT NOT NULL UNIQUE,           -- the secret readers send as shareKey
  active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL
);
CREATE INDEX site_share_links_site ON site_share_links(site_id, seq);
`
