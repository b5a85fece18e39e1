// Which address opens a site's local published preview (served by the loopback server under /preview/sites).
import type { ShareLink, Site } from '../../api/types.ts'

export type PreviewTarget = { url: string; reason?: undefined } | { url?: undefined; reason: string }

/**
 * An unpublished site has no preview. A share-link site only opens with the key of an active link, which the
 * API shows only when the link is created (`keyedUrls`: the addresses this window received, by link id); other
 * sites open at their `urls.published`.
 */
export function previewTarget(
  site: Pick<Site, 'published' | 'visibility' | 'urls'>,
  shareLinks: Pick<ShareLink, 'id' | 'active'>[] | undefined,
  keyedUrls: ReadonlyMap<string, string> = new Map()
): PreviewTarget {
  if (!site.published) return { reason: 'Publish the site to preview it' }
  if (site.visibility === 'share-link') {
    const url = shareLinks
      ?.filter((l) => l.active)
      .map((l) => keyedUrls.get(l.id))
      .find((u) => u !== undefined)
    return url
      ? { url }
      : { reason: 'A share-link site opens only with the address of an active share link, shown when the link is created' }
  }
  return site.urls.published ? { url: site.urls.published } : { reason: 'The API gave no preview address for this site' }
}

/** Opens the preview beside the app (in Electron the shell hands it to the browser). */
export function openPreview(url: string): void {
  window.open(url, '_blank', 'noopener')
}
