// Search: the index holds each CJK character as a word of its own (content/searchText.ts). Forgetting which
// revision each space's rows describe makes every space's index rebuild in the background after start-up (or
// before its next search), in the new form; start-up itself does not wait for it.
export const sql = /* sql */ `
DELETE FROM search_state;
`
