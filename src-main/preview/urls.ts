/** Where the local server renders published sites: outside /v1, so readers need no API token. */
export const PREVIEW_PREFIX = '/preview/sites'

/** Path of a site (and of a section, site space or page under it) in the local preview. */
export function previewPath(siteId: string, segments: string[] = [], shareKey?: string): string {
  const path = [PREVIEW_PREFIX, encodeURIComponent(siteId), ...segments.map(encodeURIComponent)].join('/') + '/'
  return shareKey ? `${path}?shareKey=${encodeURIComponent(shareKey)}` : path
}
