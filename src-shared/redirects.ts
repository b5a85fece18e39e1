// The rules of a site redirect's source, shared by the API schema and the renderer's checks (no schema library here).

/** A path of the published site, optionally ending with a `*` wildcard (the published API document's pattern). */
export const REDIRECT_SOURCE_PATTERN =
  '^\\/(?!\\*)(?!.*\\*.+)(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+(?:\\/(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\\/\\*|\\*)?$'
export const REDIRECT_SOURCE_MAX = 512
/** Rows one bulk write takes. */
export const BULK_REDIRECTS_MAX = 500
