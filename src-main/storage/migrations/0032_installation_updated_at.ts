// When an organization's installation of an integration last changed (status, configuration, external ids): its
// `updatedAt`. Existing installations start from when they were made.
export const sql = /* sql */ `
ALTER TABLE integration_installations ADD COLUMN updated_at TEXT;
UPDATE integration_installations SET updated_at = created_at;
`
