// Documents and blobs are collected once nothing refers to them (revisions.ts, collectUnreferenced): these find a
// document's or blob's referrers without a scan, for that check and for the foreign keys a deletion verifies.
export const sql = /* sql */ `
CREATE INDEX revision_pages_document ON revision_pages(document_hash) WHERE document_hash IS NOT NULL;
CREATE INDEX revision_reusable_contents_document ON revision_reusable_contents(document_hash);
CREATE INDEX revision_files_blob ON revision_files(blob_hash);
`
