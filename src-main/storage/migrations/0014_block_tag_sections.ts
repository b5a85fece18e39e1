// GitBook's block tags are read as blocks now (src-shared/blockTags.ts): a tag line is no longer text of its
// section. The stored sections of documents holding a tag are dropped (they are split anew, with the new reading,
// when next indexed: documentSections), and the spaces whose primary content uses such a document are indexed
// again, in the background at start or before their next search. Stored links stay as they were read.
export const sql = /* sql */ `
CREATE TEMP TABLE tagged_documents AS SELECT hash FROM documents WHERE instr(markdown, '{%') > 0;
DELETE FROM document_sections WHERE document_hash IN (SELECT hash FROM tagged_documents);
DELETE FROM search_state WHERE EXISTS (
  SELECT 1 FROM revision_pages AS rp
  WHERE rp.revision_id = search_state.revision_id AND rp.document_hash IN (SELECT hash FROM tagged_documents)
);
DROP TABLE tagged_documents;
`
