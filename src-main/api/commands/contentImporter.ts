import { storeFile } from '../../content/files'
import { isHttpUrl } from '../../content/import/fetchResource'
import type { CollectedImport } from '../../content/import/pages'
import { rewriteUrls } from '../../content/import/rewriteUrls'
import { pageKey } from '../../content/import/pages'
import { fitTitle } from '../../content/markdown'
import { PageTree } from '../../content/pageTree'
import { applyDocumentSettings } from '../../content/pageSettings'
import { loadPages, writeRevision, type FileRecord, type PageRecord } from '../../content/revisions'
import { storeDocument } from '../../content/documents'
import { syncSearchIndex } from '../../content/searchIndex'
import { slugify } from '../../../src-shared/slug'
import { newId } from '../../storage/ids'
import { changeRequestRepository, type ChangeRequestRow } from '../../storage/repositories/changeRequestRepository'
import { spaceRepository, type SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'

/**
 * The revision `baseRevisionId` plus the imported pages, appended at the root in their own nesting, and the
 * downloaded images as its files. Links between the imported pages become links to the new pages by path, and
 * images become `/files/<fileId>`: a document is stored only once every page has its final path.
 */
function withImportedPages(ctx: Ctx, baseRevisionId: string, { pages: imported, images }: CollectedImport) {
  const base = new PageTree(loadPages(ctx.db, baseRevisionId))
  const tree = new PageTree(base.pages.values())
  const records = imported.map((page): PageRecord => {
    // Every source derives its titles (an HTML <h1> or <title>, a markdown heading, a URL): none is bounded.
    const title = fitTitle(page.title)
    return {
      id: newId(),
      parentId: null,
      position: 0,
      type: 'document',
      title,
      emoji: null,
      slug: slugify(title) || 'page',
      description: null,
      documentId: newId(),
      documentHash: '',
      hidden: false,
      props: {},
      createdAt: ctx.now,
      updatedAt: ctx.now
    }
  })
  imported.forEach((page, i) => tree.place(records[i]!, page.parent === null ? null : records[page.parent]!.id))
  // Slugs unique among siblings, positions 0..n-1.
  tree.normalize(base)

  const paths = tree.paths()
  const pagePaths = new Map(imported.map((page, i) => [pageKey(new URL(page.url)), paths.get(records[i]!.id)!]))
  const downloaded = new Map(images.map((image) => [image.url, image]))
  // A file is stored on first use, so an image no link ends up naming adds no file.
  const files = new Map<string, FileRecord>()
  const target = (url: string): string | undefined => {
    const image = downloaded.get(url)
    if (image) {
      let file = files.get(url)
      if (!file) files.set(url, (file = storeFile(ctx.db, image.name, image.bytes, image.contentType)))
      return `/files/${file.id}`
    }
    // A relative link (a markdown source's own) names no page of this import.
    if (!isHttpUrl(url)) return undefined
    const parsed = new URL(url)
    const path = pagePaths.get(pageKey(parsed))
    return path === undefined ? undefined : `/${path}${parsed.hash}`
  }
  imported.forEach((page, i) => {
    const markdown = rewriteUrls(page.markdown, target)
    records[i]!.documentHash = storeDocument(ctx.db, markdown)
    // A markdown source may carry front matter: its settings are the page's, as in a content batch.
    applyDocumentSettings(records[i]!, markdown)
  })
  return { pages: tree.diffFrom(base), files: { upsert: [...files.values()], remove: [] } }
}

/**
 * Imports pages straight into a space's primary content: one new primary revision on top of the current one,
 * with the search index kept in step (what a merge does).
 */
export function importIntoSpace(ctx: Ctx, space: SpaceRow, imported: CollectedImport): string {
  const primary = space.revision_id!
  const revision = writeRevision(ctx.db, {
    spaceId: space.id,
    parents: [primary],
    type: 'edits',
    createdBy: ctx.actor.id,
    now: ctx.now,
    base: primary,
    ...withImportedPages(ctx, primary, imported)
  })
  ctx.repo(spaceRepository).update(space.id, { revision_id: revision, updated_at: ctx.now })
  syncSearchIndex(ctx.db, space.id, revision)
  return revision
}

/** Imports pages into a change request: one new revision of it, the caller counted as a contributor. */
export function importIntoChangeRequest(ctx: Ctx, space: SpaceRow, cr: ChangeRequestRow, imported: CollectedImport): string {
  const revision = writeRevision(ctx.db, {
    spaceId: space.id,
    changeRequestId: cr.id,
    parents: [cr.revision_id],
    type: 'edits',
    createdBy: ctx.actor.id,
    now: ctx.now,
    base: cr.revision_id,
    ...withImportedPages(ctx, cr.revision_id, imported)
  })
  const crs = ctx.repo(changeRequestRepository)
  crs.update(cr.id, { revision_id: revision, updated_at: ctx.now })
  crs.addContributor(cr.id, ctx.actor.id)
  return revision
}
