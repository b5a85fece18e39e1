// Grants of a role on a site to a user or a team, as on spaces and collections: a site's role is the highest of
// the organization role (not for guests) and these.
export const sql = /* sql */ `
CREATE TABLE site_grants (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  principal_type TEXT NOT NULL,   -- user | team
  principal_id TEXT NOT NULL,
  role TEXT NOT NULL,
  granted_at TEXT NOT NULL,
  PRIMARY KEY (site_id, principal_type, principal_id)
);
CREATE INDEX site_grants_principal ON site_grants(principal_id, principal_type);
`
