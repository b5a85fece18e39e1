import { fetchResource, isHttpUrl } from './fetchResource'
import type { ImportedImage, ImportedPage, ImportLimits } from './pages'
import { imageUrlsOf } from './rewriteUrls'

/** Images fetched at once, as for pages. */
const CONCURRENCY = 4

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'image/avif': 'avif',
  'image/bmp': 'bmp',
  'image/x-icon': 'ico',
  'image/vnd.microsoft.icon': 'ico',
  'image/tiff': 'tiff'
}

/** A file name from the image's URL (its last path segment), with an extension that says what it is. */
export function imageFileName(url: string, contentType: string): string {
  const segment = new URL(url).pathname.split('/').filter(Boolean).pop() ?? ''
  let name: string
  try {
    name = decodeURIComponent(segment)
  } catch {
    name = segment
  }
  // Kept short and free of separators and control characters: it ends up in the file's download URL.
  name =
    name
      .replace(/[\\/\u0000-\u001f\u007f]/g, '')
      .trim()
      .slice(-100) || 'image'
  const extension = EXTENSIONS[contentType]
  return extension && !/\.[a-z0-9]{1,5}$/i.test(name) ? `${name}.${extension}` : name
}

/**
 * Downloads the http(s) images of `pages`, each URL once, at most `maxImages` of them and `maxImageBytes` in all
 * within `imagesTimeoutMs`. Like the pages, this runs before the write transaction. An image that cannot be had
 * (an error, not `image/*`, a bound reached) is left out: its page keeps linking to it where it is.
 */
export async function fetchImages(pages: ImportedPage[], limits: ImportLimits): Promise<ImportedImage[]> {
  const urls = [...new Set(pages.flatMap((page) => imageUrlsOf(page.markdown)).filter(isHttpUrl))].slice(0, limits.maxImages)
  if (!urls.length) return []
  const deadline = limits.signal
    ? AbortSignal.any([AbortSignal.timeout(limits.imagesTimeoutMs), limits.signal])
    : AbortSignal.timeout(limits.imagesTimeoutMs)
  let done = 0
  limits.report?.('images', 0, urls.length)
  const fetchLimits = { timeoutMs: limits.timeoutMs, maxBytes: limits.maxBytes, signal: deadline }
  // By index, so the files come in the order the pages show them whichever download ends first.
  const found: (ImportedImage | undefined)[] = []
  let bytes = 0
  let next = 0
  const worker = async () => {
    while (next < urls.length && !deadline.aborted && bytes < limits.maxImageBytes) {
      const i = next++
      const url = urls[i]!
      try {
        const resource = await fetchResource(url, fetchLimits, 'image/*')
        const size = resource.bytes.byteLength
        if (!resource.mediaType.startsWith('image/') || !size || bytes + size > limits.maxImageBytes) continue
        bytes += size
        found[i] = { url, name: imageFileName(resource.url, resource.mediaType), contentType: resource.mediaType, bytes: resource.bytes }
      } catch {
        // Not fatal: the page keeps the image's URL.
      }
      limits.report?.('images', ++done, urls.length)
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, urls.length) }, worker))
  return found.filter((image): image is ImportedImage => image !== undefined)
}
