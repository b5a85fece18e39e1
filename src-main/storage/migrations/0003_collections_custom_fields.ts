// Indexes for the collections and custom-field lists, and for the subtree writes (delete, transfer) that find
// every space of a set of collections, deleted ones included.
export const sql = /* sql */ `
CREATE INDEX collections_org_root ON collections(organization_id, seq) WHERE parent_id IS NULL;
CREATE INDEX custom_fields_org ON custom_fields(organization_id, seq);
-- spaces_parent only covers live spaces; the FK (ON DELETE SET NULL) and subtree moves need every row.
CREATE INDEX spaces_parent_all ON spaces(parent_id);
`
