import { createHash } from 'node:crypto'
import { PageTree } from '../../../content/pageTree'
import type { IncludeSource } from '../../../../src-shared/blockTags'
import { fileLookup, readBlob } from '../../../content/files'
import type { PdfFileNames, PdfImages, PdfPage } from '../../../content/pdf'
import { loadFiles, loadIncludeSources, loadPages, type FileRecord } from '../../../content/revisions'
import { readDocuments } from '../../../content/documents'
import type { Db } from '../../../storage/database'
import type { WorkProgress } from '../../../content/progress'
import { notFound } from '../../../base/errors'

export interface PdfSelection {
  /** A page id: that page and (unless `only`) the pages under it. None: the whole content. */
  page?: string
  only?: boolean
}

/** What a PDF is made of: the pages, the reusable contents their `{% include %}` tags name, their pictures and files' names. */
export interface PdfContent {
  pages: PdfPage[]
  includes: IncludeSource[]
  images: PdfImages
  fileNames: PdfFileNames
}

/** A PDF embeds pictures up to these sizes (one, all together); past them, an image prints as its text. */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024
const MAX_IMAGES_BYTES = 50 * 1024 * 1024
const EMBEDDABLE = new Set(['image/png', 'image/jpeg'])

/**
 * The images of the revision a PDF can embed, by the URL a document gives (a file's id, or a path ending in its
 * name: the last file of that name, as the links list resolves it), read when the PDF is drawn. Blobs are stored
 * by content and never change, so they may be read after the transaction that listed the files.
 */
function revisionImages(db: Db, files: FileRecord[]): PdfImages {
  const find = fileLookup(files)
  const read = new Map<string, Buffer | undefined>()
  let budget = MAX_IMAGES_BYTES
  return (url) => {
    const file = find(url)
    if (!file?.width || !file.height || !EMBEDDABLE.has(file.contentType) || file.size > MAX_IMAGE_BYTES) return undefined
    if (!read.has(file.blobHash)) {
      const fits = file.size <= budget
      if (fits) budget -= file.size
      read.set(file.blobHash, fits ? readBlob(db, file.blobHash) : undefined)
    }
    const bytes = read.get(file.blobHash)
    return bytes && { bytes, width: file.width, height: file.height }
  }
}

/**
 * What a PDF of a revision holds, read in the caller's transaction: pages in tree order (depth first) with their
 * markdown, the revision's reusable contents and its images. An unknown `page` answers 404.
 */
export function pdfContent(db: Db, revisionId: string, selection: PdfSelection): PdfContent {
  const tree = PageTree.readOnly(loadPages(db, revisionId))
  const index = tree.childrenIndex()
  const picked: { id: string; depth: number }[] = []
  const walk = (parentId: string | null, depth: number) => {
    for (const page of index.get(parentId) ?? []) {
      picked.push({ id: page.id, depth })
      walk(page.id, depth + 1)
    }
  }
  if (selection.page !== undefined) {
    const root = tree.get(selection.page)
    if (!root) throw notFound('Page')
    picked.push({ id: root.id, depth: 0 })
    if (!selection.only) walk(root.id, 1)
  } else walk(null, 0)
  const docs = readDocuments(
    db,
    picked.map((p) => tree.get(p.id)!.documentHash)
  )
  const files = loadFiles(db, revisionId)
  const findFile = fileLookup(files)
  return {
    pages: picked.map(({ id, depth }) => {
      const page = tree.get(id)!
      const markdown = page.documentHash ? (docs.get(page.documentHash) ?? '') : ''
      return { title: page.title, depth, markdown, ...(page.props.git?.path ? { gitPath: page.props.git.path } : {}) }
    }),
    includes: loadIncludeSources(db, revisionId),
    images: revisionImages(db, files),
    fileNames: (url) => findFile(url)?.name
  }
}

interface Rendered {
  bytes: Buffer
  etag: string
}

/** Revisions never change, so a rendered PDF stays right: the last few are kept, and a render in flight is shared. */
const CACHE_SIZE = 8
const caches = new WeakMap<Db, Map<string, Promise<Rendered>>>()

/**
 * A rendering followed by a job (`progress`) is its own, so a cancel stops no one else's: it joins the cache once
 * it is done.
 */
export function cachedPdf(db: Db, key: string, title: string, content: () => PdfContent, progress?: WorkProgress): Promise<Rendered> {
  let cache = caches.get(db)
  if (!cache) caches.set(db, (cache = new Map()))
  const hit = cache.get(key)
  if (hit) {
    // Most recently used last.
    cache.delete(key)
    cache.set(key, hit)
    return hit
  }
  const { pages, includes, images, fileNames } = content()
  // pdfkit and fontkit load with the first rendering: most starts never export a PDF.
  const rendering = import('../../../content/pdf')
    .then(({ renderPdf }) => renderPdf(title, pages, includes, images, fileNames, progress))
    .then((bytes) => ({
      bytes,
      etag: createHash('sha256').update(bytes).digest('hex')
    }))
  if (progress) {
    return rendering.then((done) => {
      cache.set(key, Promise.resolve(done))
      while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!)
      return done
    })
  }
  cache.set(key, rendering)
  rendering.catch(() => cache.delete(key))
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!)
  return rendering
}
