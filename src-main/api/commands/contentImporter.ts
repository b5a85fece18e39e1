import type { ImportedPage } from '../../content/import/pages'
import { fitTitle } from '../../content/markdown'
import { PageTree } from '../../content/pageTree'
import { loadPages, storeDocument, writeRevision, type PageRecord } from '../../content/revisions'
import { syncSearchIndex } from '../../content/searchIndex'
import { slugify } from '../../../src-shared/slug'
import { newId } from '../../storage/ids'
import { changeRequestRepository, type ChangeRequestRow } from '../../storage/repositories/changeRequestRepository'
import { spaceRepository, type SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../context'

/** The revision `baseRevisionId` plus the imported pages, appended at the root in their own nesting. */
function withImportedPages(ctx: Ctx, baseRevisionId: string, imported: ImportedPage[]) {
  const base = new PageTree(loadPages(ctx.db, baseRevisionId))
  const tree = new PageTree(base.pages.values())
  const ids = imported.map(() => newId())
  imported.forEach((page, i) => {
    // Every source derives its titles (an HTML <h1> or <title>, a markdown heading, a URL): none is bounded.
    const title = fitTitle(page.title)
    const record: PageRecord = {
      id: ids[i]!, parentId: null, position: 0, type: 'document', title, emoji: null, slug: slugify(title) || 'page',
      description: null, documentId: newId(), documentHash: storeDocument(ctx.db, page.markdown), hidden: false, props: {},
      createdAt: ctx.now, updatedAt: ctx.now
    }
    tree.place(record, page.parent === null ? null : ids[page.parent]!)
  })
  // Slugs unique among siblings, positions 0..n-1.
  tree.normalize(base)
  return tree.diffFrom(base)
}

/**
 * Imports pages straight into a space's primary content: one new primary revision on top of the current one,
 * with the search index kept in step (what a merge does).
 */
export function importIntoSpace(ctx: Ctx, space: SpaceRow, imported: ImportedPage[]): string {
  const primary = space.revision_id!
  const revision = writeRevision(ctx.db, {
    spaceId: space.id, parents: [primary], type: 'edits', createdBy: ctx.actor.id, now: ctx.now, base: primary,
    pages: withImportedPages(ctx, primary, imported)
  })
  ctx.repo(spaceRepository).update(space.id, { revision_id: revision, updated_at: ctx.now })
  syncSearchIndex(ctx.db, space.id, revision)
  return revision
}

/** Imports pages into a change request: one new revision of it, the caller counted as a contributor. */
export function importIntoChangeRequest(ctx: Ctx, space: SpaceRow, cr: ChangeRequestRow, imported: ImportedPage[]): string {
  const revision = writeRevision(ctx.db, {
    spaceId: space.id, changeRequestId: cr.id, parents: [cr.revision_id], type: 'edits', createdBy: ctx.actor.id, now: ctx.now,
    base: cr.revision_id, pages: withImportedPages(ctx, cr.revision_id, imported)
  })
  const crs = ctx.repo(changeRequestRepository)
  crs.update(cr.id, { revision_id: revision, updated_at: ctx.now })
  crs.addContributor(cr.id, ctx.actor.id)
  return revision
}
