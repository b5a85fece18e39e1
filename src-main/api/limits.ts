/** The largest request body the /v1 API takes (a file upload's base64 included); larger answers 413. */
export const API_BODY_LIMIT = 32 * 1024 * 1024
/** The longest URL (path and query) the HTTP server takes; longer answers 414. */
export const MAX_URL_LENGTH = 8 * 1024
