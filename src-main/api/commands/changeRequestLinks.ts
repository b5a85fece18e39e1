import { brokenAnew, contentLinks, revisionLinks, type ResolvedLink, type RevisionLinks } from '../../content/links'
import { mergeFiles, mergeTrees } from '../../content/merge'
import { PageTree } from '../../content/pageTree'
import { getRevision, loadFiles, loadPages } from '../../content/revisions'
import type { Db } from '../../storage/database'
import type { ChangeRequestRow } from '../../storage/repositories/changeRequestRepository'
import type { SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'
import { mergeBase } from './changeRequestMerger'

export interface ChangeRequestLinks {
  /** Links of the content as merging the change request would leave it, in the links lists' order. */
  links: RevisionLinks
  /** Those the change request breaks: broken there, not broken on the same page of the primary content. */
  introduced: Set<ResolvedLink>
  /** The revision each page's links are read in, and whether that is the change request's content. */
  versionOf(pageId: string): { revisionId: string; inChangeRequest: boolean }
}

/** Recent answers by database, primary and head revision: the pages of a list ask for the same merge again. */
const kept = new WeakMap<Db, Map<string, ChangeRequestLinks>>()
const KEPT = 4

/**
 * The links a merge of the change request would leave in the primary content. While the change request is up to
 * date with the primary content that is its head; otherwise the merge's own three-way merge, nothing stored (the
 * head when it would stop at conflicts: nothing merges until they are resolved). A merged change request answers
 * what its merge made, against the primary content it merged into.
 */
export function changeRequestLinks(ctx: Ctx, space: SpaceRow, cr: ChangeRequestRow): ChangeRequestLinks {
  const origin = ctx.url('')
  const merged = cr.status === 'merged' && cr.revision_merged ? cr.revision_merged : undefined
  const key = `${merged ?? `${space.revision_id} ${cr.revision_id}`} ${origin}`
  let cache = kept.get(ctx.db)
  if (!cache) kept.set(ctx.db, (cache = new Map()))
  const hit = cache.get(key)
  if (hit) return hit
  const answer = merged ? mergedLinks(ctx, merged, origin) : wouldMerge(ctx, space, cr, origin)
  cache.set(key, answer)
  if (cache.size > KEPT) cache.delete(cache.keys().next().value!)
  return answer
}

function withIntroduced(links: RevisionLinks, before: RevisionLinks, versionOf: ChangeRequestLinks['versionOf']): ChangeRequestLinks {
  return { links, introduced: new Set(links.all.filter((l) => brokenAnew(l, before))), versionOf }
}

function mergedLinks(ctx: Ctx, mergeRevision: string, origin: string): ChangeRequestLinks {
  const [into] = JSON.parse(getRevision(ctx.db, mergeRevision)!.parents) as string[]
  const version = { revisionId: mergeRevision, inChangeRequest: false }
  return withIntroduced(revisionLinks(ctx.db, mergeRevision, origin), revisionLinks(ctx.db, into!, origin), () => version)
}

function wouldMerge(ctx: Ctx, space: SpaceRow, cr: ChangeRequestRow, origin: string): ChangeRequestLinks {
  const primaryId = space.revision_id!
  const primary = revisionLinks(ctx.db, primaryId, origin)
  const inHead = { revisionId: cr.revision_id, inChangeRequest: true }
  const base = mergeBase(cr)
  if (primaryId === base) return withIntroduced(revisionLinks(ctx.db, cr.revision_id, origin), primary, () => inHead)
  const trees = [base, primaryId, cr.revision_id].map((id) => PageTree.readOnly(loadPages(ctx.db, id))) as [PageTree, PageTree, PageTree]
  const merge = mergeTrees(ctx.db, ...trees, ctx.now, { primary: 'ours', store: false })
  if (merge.conflicts.length) return withIntroduced(revisionLinks(ctx.db, cr.revision_id, origin), primary, () => inHead)
  const files = mergeFiles(loadFiles(ctx.db, base), loadFiles(ctx.db, primaryId), loadFiles(ctx.db, cr.revision_id))
  const head = trees[2]
  // A page only the primary content has (added since the change request began) is read there.
  const inPrimary = { revisionId: primaryId, inChangeRequest: false }
  return withIntroduced(contentLinks(ctx.db, merge.tree, files, origin, merge.unstored), primary, (pageId) =>
    head.has(pageId) ? inHead : inPrimary
  )
}
