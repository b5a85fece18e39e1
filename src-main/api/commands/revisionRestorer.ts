import { PageTree } from '../../content/pageTree'
import { loadFiles, loadPages, writeRevision, type RevisionRow } from '../../content/revisions'
import { changeRequestRepository, type ChangeRequestRow } from '../../storage/repositories/changeRequestRepository'
import type { SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'
import { badRequest, conflict } from '../../base/errors'
import { openChangeRequest } from './changeRequestOpener'

/**
 * Opens a change request on the space's current content whose content is `revision`'s: all of it (pages and
 * files), or only the pages `pageIds` as they were there. Merged, it makes the space's pages (and, for a whole
 * restore, files) equal to that revision's. Reusable contents are left as they are: only Git sync changes them.
 */
export function restoreRevision(
  ctx: Ctx,
  space: SpaceRow,
  revision: RevisionRow,
  pageIds: string[] | undefined,
  subject: string
): ChangeRequestRow {
  const current = PageTree.readOnly(loadPages(ctx.db, space.revision_id!))
  const old = PageTree.readOnly(loadPages(ctx.db, revision.id))
  let target: PageTree
  if (!pageIds) target = old
  else {
    pageIds.forEach((id, i) => {
      if (!old.has(id)) throw badRequest(`pages.${i}: no page ${id} in revision ${revision.id}`)
    })
    // Each page as it was, in its old place when its old parent is still there (else at the root); pages under
    // it stay as they are now.
    target = new PageTree(current.pages.values())
    const restored = new Set(pageIds)
    const ordered = [...old.pages.values()]
      .filter((p) => restored.has(p.id))
      .sort((a, b) => depth(old, a.id) - depth(old, b.id) || a.position - b.position)
    for (const page of ordered) {
      const copy = { ...page, props: { ...page.props } }
      const parentId = copy.parentId && target.has(copy.parentId) && !target.isWithin(copy.parentId, copy.id) ? copy.parentId : null
      target.place(copy, parentId, page.position)
    }
    target.normalize(current)
  }

  const files = pageIds ? { upsert: [], remove: [] } : filesDiff(ctx, space.revision_id!, revision.id)
  const pages = target.diffFrom(current)
  // A change request that changes nothing would only be one more draft to clean up.
  if (!pages.upsert.length && !pages.remove.length && !files.upsert.length && !files.remove.length) {
    throw conflict(
      pageIds
        ? `pages: already as they were in revision ${revision.id}`
        : `revision ${revision.id} holds the space's current content: nothing to restore`
    )
  }
  const cr = openChangeRequest(ctx, space, subject)
  const head = writeRevision(ctx.db, {
    spaceId: space.id,
    changeRequestId: cr.id,
    parents: [space.revision_id!],
    type: 'rollback',
    createdBy: ctx.actor.id,
    now: ctx.now,
    base: space.revision_id!,
    pages,
    files
  })
  const crs = ctx.repo(changeRequestRepository)
  crs.update(cr.id, { revision_id: head, updated_at: ctx.now })
  return crs.get(space.id, cr.id)!
}

function depth(tree: PageTree, id: string): number {
  let n = 0
  for (let cur = tree.get(id)?.parentId; cur; cur = tree.get(cur)?.parentId) n++
  return n
}

/** The file changes that turn `fromId`'s files into `toId`'s. */
function filesDiff(ctx: Ctx, fromId: string, toId: string) {
  const now = new Map(loadFiles(ctx.db, fromId).map((f) => [f.id, f]))
  const then = loadFiles(ctx.db, toId)
  const kept = new Set(then.map((f) => f.id))
  return {
    upsert: then.filter((f) => JSON.stringify(now.get(f.id)) !== JSON.stringify(f)),
    remove: [...now.keys()].filter((id) => !kept.has(id))
  }
}
