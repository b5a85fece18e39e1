// When a site's visitor settings (visibility, adaptive content and its schema) last changed: the local preview
// refuses visitor tokens issued until then, so a token accepted under the old settings does not outlive them.
// NULL until they first change.
export const sql = /* sql */ `
ALTER TABLE sites ADD COLUMN visitor_settings_at TEXT;
`
