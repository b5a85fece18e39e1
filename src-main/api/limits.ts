/** The largest request body the /v1 API takes (a file upload's base64 included); larger answers 413. */
export const API_BODY_LIMIT = 32 * 1024 * 1024
