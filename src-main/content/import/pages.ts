import { ImportError, type FetchedResource } from './fetchResource'

/** A page to create; `parent` is the index of another page of the same import (null: at the import's root). */
export interface ImportedPage {
  url: string
  title: string
  markdown: string
  parent: number | null
}

/** An image of the imported pages, downloaded to become a file of the revision. */
export interface ImportedImage {
  /** The URL as the pages' markdown holds it. */
  url: string
  name: string
  contentType: string
  bytes: Buffer
}

export interface CollectedPages {
  pages: ImportedPage[]
  /** Resources found: for a website every page found within the bounds, imported or not (images are not counted). */
  totalResources: number
}

export interface CollectedImport extends CollectedPages {
  /** The images that could be downloaded; the others stay links to where they are. */
  images: ImportedImage[]
}

export interface ImportLimits {
  /** Per request. */
  timeoutMs: number
  /** Bytes of one fetched resource. */
  maxBytes: number
  /** A website crawl: pages, link depth from the first page, and the time the whole crawl may take. */
  maxPages: number
  maxDepth: number
  crawlTimeoutMs: number
  /** The images of the pages: how many are downloaded, their bytes in all, and the time all of them may take. */
  maxImages: number
  maxImageBytes: number
  imagesTimeoutMs: number
  /** Cancels the whole import (the caller's: a cancelled import job). */
  signal?: AbortSignal
  /** Told after each page and each image. */
  report?(phase: 'pages' | 'images', done: number, total?: number): void
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  timeoutMs: 10_000,
  maxBytes: 10 * 1024 * 1024,
  maxPages: 50,
  maxDepth: 3,
  crawlTimeoutMs: 60_000,
  maxImages: 200,
  maxImageBytes: 100 * 1024 * 1024,
  imagesTimeoutMs: 60_000
}

/** The most markdown one page may hold (the content batch's `document.markdown` limit). */
export const MAX_MARKDOWN = 1_000_000

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml'])

export function expectHtml(resource: FetchedResource): void {
  if (!HTML_TYPES.has(resource.mediaType))
    throw new ImportError(`${resource.url} is not an HTML page (it is ${resource.mediaType || 'untyped'})`)
}

export function checkSize<T extends { url: string; markdown: string }>(page: T): T {
  if (page.markdown.length > MAX_MARKDOWN) throw new ImportError(`${page.url} converts to more than ${MAX_MARKDOWN} characters of markdown`)
  return page
}

/** A page URL's path as segments; `/guide/`, `/guide` and `/guide/index.html` are one page. */
export function segmentsOf(url: URL): string[] {
  return url.pathname
    .replace(/\/index\.html?$/i, '/')
    .split('/')
    .filter(Boolean)
}

/**
 * What identifies a page: origin, path segments and query (never the fragment). The crawl visits each key once,
 * and the import turns links to an imported page's key into links to the new page.
 */
export function pageKey(url: URL): string {
  return `${url.origin}/${segmentsOf(url).join('/')}${url.search}`
}
