// Why a spec's last processing failed (its message and where: JSON), and what a running processing is doing, so a
// screen can show both; see `lastProcessError` and `processingProgress` in docs/api-behaviour.md.
export const sql = /* sql */ `
ALTER TABLE openapi_specs ADD COLUMN last_process_error TEXT;
ALTER TABLE openapi_specs ADD COLUMN processing_phase TEXT;
ALTER TABLE openapi_specs ADD COLUMN processing_files INTEGER NOT NULL DEFAULT 0;
`
