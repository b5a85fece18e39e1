// Text in every language. The search index holds each CJK character as a word of its own
// (content/searchText.ts), and heading anchors keep the letters of every script (src-shared/slug.ts). The stored
// sections of documents with a heading beyond ASCII are dropped (split anew, with the new anchors, when next
// indexed: documentSections), and every space's indexed revision is forgotten, so each index is rebuilt in the new
// form in the background after start-up (or before the space's next search); start-up does not wait for it.
export const sql = /* sql */ `
DELETE FROM document_sections WHERE document_hash IN (
  SELECT DISTINCT document_hash FROM document_sections WHERE title GLOB '*[^ -~]*'
);
DELETE FROM search_state;
`
