// An organization's installation of an integration is installed further on some of its spaces and sites, each
// with a configuration of its own (the integration's `space` or `site` schema). They go with the installation,
// the space or the site.
export const sql = /* sql */ `
CREATE TABLE integration_space_installations (
  seq INTEGER PRIMARY KEY,
  installation_id TEXT NOT NULL REFERENCES integration_installations(id) ON DELETE CASCADE,
  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  configuration TEXT NOT NULL DEFAULT '{}',  -- JSON object
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (installation_id, space_id)
);
CREATE INDEX integration_space_installations_list ON integration_space_installations(installation_id, seq);
CREATE INDEX integration_space_installations_space ON integration_space_installations(space_id);

CREATE TABLE integration_site_installations (
  seq INTEGER PRIMARY KEY,
  installation_id TEXT NOT NULL REFERENCES integration_installations(id) ON DELETE CASCADE,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  configuration TEXT NOT NULL DEFAULT '{}',  -- JSON object
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (installation_id, site_id)
);
CREATE INDEX integration_site_installations_list ON integration_site_installations(installation_id, seq);
CREATE INDEX integration_site_installations_site ON integration_site_installations(site_id);
`
