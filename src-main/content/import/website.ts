import { fetchResource, ImportError, textOf } from './fetchResource'
import { convertHtml, titleFromUrl } from './htmlToMarkdown'
import { checkSize, expectHtml, pageKey, segmentsOf, type CollectedPages, type ImportedPage, type ImportLimits } from './pages'

/** Pages fetched at once: quick on a real site, gentle on it too. */
const CONCURRENCY = 4

/** Links to these are files, not pages: not followed. */
const NOT_A_PAGE =
  /\.(png|jpe?g|gif|webp|svg|ico|bmp|avif|pdf|zip|gz|tgz|tar|7z|mp3|mp4|webm|mov|avi|css|js|mjs|map|json|xml|rss|atom|woff2?|ttf|otf|eot|exe|dmg|msi|docx?|xlsx?|pptx?|csv)$/i

interface Fetched {
  url: string
  title: string
  markdown: string
}

/**
 * Imports a website: the page at `startUrl`, then breadth first the same-origin pages it links to, down to
 * `maxDepth` links away and at most `maxPages` pages, within `crawlTimeoutMs` in all. The first page must
 * work (else ImportError); a linked page that fails or is not HTML is counted and skipped. Pages nest by URL
 * path: each under the imported page whose path is the longest prefix of its own.
 */
export async function crawlWebsite(startUrl: string, limits: ImportLimits): Promise<CollectedPages> {
  const deadline = limits.signal
    ? AbortSignal.any([AbortSignal.timeout(limits.crawlTimeoutMs), limits.signal])
    : AbortSignal.timeout(limits.crawlTimeoutMs)
  const fetchLimits = { timeoutMs: limits.timeoutMs, maxBytes: limits.maxBytes, signal: deadline }
  let origin = new URL(startUrl).origin
  const queued = new Set<string>([pageKey(new URL(startUrl))])
  const imported = new Set<string>()
  const pages: Fetched[] = []
  let skipped = 0
  let frontier = [startUrl]
  let depth = 0

  while (frontier.length && pages.length < limits.maxPages && !deadline.aborted) {
    const next: string[] = []
    let i = 0
    while (i < frontier.length && pages.length < limits.maxPages && !deadline.aborted) {
      const batch = frontier.slice(i, i + Math.min(CONCURRENCY, limits.maxPages - pages.length))
      i += batch.length
      const results = await Promise.allSettled(batch.map((url) => fetchResource(url, fetchLimits, 'text/html,application/xhtml+xml')))
      for (const result of results) {
        try {
          if (result.status === 'rejected') throw result.reason
          const resource = result.value
          expectHtml(resource)
          const final = new URL(resource.url)
          // The first page may redirect (http to https, a new host): the site is where it landed.
          if (depth === 0) origin = final.origin
          else if (final.origin !== origin) throw new ImportError(`${resource.url} is on another site`)
          const key = pageKey(final)
          if (imported.has(key)) continue // two URLs, one page (a redirect)
          const page = convertHtml(textOf(resource), resource.url)
          checkSize({ url: resource.url, markdown: page.markdown })
          imported.add(key)
          queued.add(key)
          pages.push({ url: resource.url, title: page.title ?? titleFromUrl(resource.url), markdown: page.markdown })
          if (depth >= limits.maxDepth) continue
          for (const link of page.links) {
            const target = new URL(link)
            target.hash = ''
            const linkKey = pageKey(target)
            if (target.origin !== origin || NOT_A_PAGE.test(target.pathname) || queued.has(linkKey)) continue
            queued.add(linkKey)
            next.push(target.href)
          }
        } catch (error) {
          if (depth === 0) throw error
          skipped++
        }
      }
      limits.report?.('pages', pages.length)
    }
    // Pages of this level left unvisited (a bound was reached) still count as found.
    skipped += frontier.length - i
    frontier = next
    depth++
  }
  return { pages: nestByPath(pages), totalResources: pages.length + skipped + frontier.length }
}

function nestByPath(pages: Fetched[]): ImportedPage[] {
  const segments = pages.map((p) => segmentsOf(new URL(p.url)))
  return pages.map((page, i) => {
    let parent: number | null = null
    segments.forEach((candidate, j) => {
      const own = segments[i]!
      if (candidate.length >= own.length || (parent !== null && candidate.length <= segments[parent]!.length)) return
      if (candidate.every((segment, k) => segment === own[k])) parent = j
    })
    return { ...page, parent }
  })
}
