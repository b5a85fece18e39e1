import mammoth from 'mammoth'
import type { ImportSource } from '../../../src-shared/schemas/import'
import { titleOf } from '../markdown'
import { throwIfCancelled } from '../progress'
import { fetchResource, ImportError, textOf } from './fetchResource'
import { convertHtml, titleFromUrl } from './htmlToMarkdown'
import { fetchImages } from './images'
import { checkSize, DEFAULT_IMPORT_LIMITS, expectHtml, type CollectedImport, type CollectedPages, type ImportLimits } from './pages'
import { crawlWebsite } from './website'

const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown', 'text/plain', 'application/octet-stream', ''])
const DOCX_TYPES = new Set([
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/octet-stream',
  'application/zip',
  ''
])

/**
 * Fetches and converts what `url` holds as `source` says, then the images of the pages, without touching the
 * store (it runs before the write transaction, which cannot wait on the network). Fails with an ImportError when
 * the URL is unusable; an image that cannot be fetched is only left out. `limits.signal` cancels it
 * (WorkCancelled); `limits.report` hears of each page and image.
 */
export async function collectImport(
  url: string,
  source: ImportSource,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS
): Promise<CollectedImport> {
  const collected = await collectPages(url, source, limits)
  throwIfCancelled(limits)
  limits.report?.('pages', collected.pages.length)
  const images = await fetchImages(collected.pages, limits)
  throwIfCancelled(limits)
  return { ...collected, images }
}

async function collectPages(url: string, source: ImportSource, limits: ImportLimits): Promise<CollectedPages> {
  switch (source) {
    case 'website':
      return crawlWebsite(url, limits)
    case 'html': {
      const resource = await fetchResource(url, limits, 'text/html,application/xhtml+xml')
      expectHtml(resource)
      const page = convertHtml(textOf(resource), resource.url)
      return {
        pages: [checkSize({ url: resource.url, title: page.title ?? titleFromUrl(resource.url), markdown: page.markdown, parent: null })],
        totalResources: 1
      }
    }
    case 'markdown': {
      const resource = await fetchResource(url, limits, 'text/markdown,text/plain;q=0.9,*/*;q=0.1')
      if (!MARKDOWN_TYPES.has(resource.mediaType))
        throw new ImportError(`${resource.url} is not markdown text (it is ${resource.mediaType})`)
      const markdown = textOf(resource).replace(/^\uFEFF/, '')
      if (markdown.includes('\u0000')) throw new ImportError(`${resource.url} is not markdown text (it holds binary data)`)
      return {
        pages: [checkSize({ url: resource.url, title: titleOf(markdown) ?? titleFromUrl(resource.url), markdown, parent: null })],
        totalResources: 1
      }
    }
    case 'docx': {
      const resource = await fetchResource(url, limits)
      // A .docx is a ZIP archive: "PK\x03\x04".
      if (!DOCX_TYPES.has(resource.mediaType) || resource.bytes.length < 4 || resource.bytes.readUInt32BE(0) !== 0x504b0304) {
        throw new ImportError(`${resource.url} is not a Word document (.docx)`)
      }
      let html: string
      try {
        html = (await mammoth.convertToHtml({ buffer: resource.bytes })).value
      } catch (error) {
        throw new ImportError(`${resource.url} could not be read as a Word document (${(error as Error).message})`)
      }
      const page = convertHtml(`<!doctype html><html><body>${html}</body></html>`, resource.url)
      return {
        pages: [checkSize({ url: resource.url, title: page.title ?? titleFromUrl(resource.url), markdown: page.markdown, parent: null })],
        totalResources: 1
      }
    }
  }
}
