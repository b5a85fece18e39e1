// Which address opens a site's local published preview (served by the loopback server under /preview/sites).
import type { ShareLink, Site } from '../../api/types.ts'

export type PreviewTarget = { url: string; reason?: undefined } | { url?: undefined; reason: string }

/**
 * An unpublished site has no preview. A share-link site only opens with the key of an active link (the
 * link's own `urls.published` carries it); other sites open at their `urls.published`.
 */
export function previewTarget(site: Pick<Site, 'published' | 'visibility' | 'urls'>, shareLinks: Pick<ShareLink, 'active' | 'urls'>[] | undefined): PreviewTarget {
  if (!site.published) return { reason: 'Publish the site to preview it' }
  if (site.visibility === 'share-link') {
    const link = shareLinks?.find((l) => l.active)
    return link ? { url: link.urls.published } : { reason: 'A share-link site opens only with an active share link: create one first' }
  }
  return site.urls.published ? { url: site.urls.published } : { reason: 'The API gave no preview address for this site' }
}

/** Opens the preview beside the app (in Electron the shell hands it to the browser). */
export function openPreview(url: string): void {
  window.open(url, '_blank', 'noopener')
}
