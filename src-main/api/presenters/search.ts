import type { OrgSearchSpace, SearchPage } from '../../../src-shared/schemas/search'
import type { PageHit, SpaceHit } from '../../content/search'
import type { FoundPageContext } from '../../content/searchIndex'
import type { Ctx } from '../../workspace/context'

/** Page contexts by `spaceId/pageId` (searchIndex.ts, foundPageContexts: one query for the whole list). */
export type PageContexts = Map<string, FoundPageContext>

// bm25 as the index ranks it (search.ts): billionths, lower is better; the wire's score is higher-better.
const wireScore = (score: number) => Math.max(0, -score / 1e9)

/** A page found by search, with its matching sections; app URLs point at the primary content. */
export function presentSearchPage(ctx: Ctx, spaceId: string, hit: PageHit, contexts: PageContexts): SearchPage {
  const app = ctx.appUrl(`/spaces/${spaceId}/pages/${hit.pageId}`)
  const context = contexts.get(`${spaceId}/${hit.pageId}`)
  return {
    id: hit.pageId,
    title: hit.title,
    description: context?.description ?? '',
    path: hit.path,
    score: wireScore(hit.score),
    rank: hit.rank,
    ancestors: (context?.ancestors ?? []).map((title) => ({ title })),
    sections: hit.sections.map((s) => ({
      id: s.sectionId,
      title: s.title,
      path: s.sectionId ? `${hit.path}#${s.sectionId}` : hit.path,
      body: s.body,
      score: wireScore(s.score),
      // The page's hash route with the heading as its own fragment, as the app's router reads it (see
      // contractExceptions.ts).
      urls: { app: s.sectionId ? `${app}#${s.sectionId}` : app }
    })),
    urls: { app }
  }
}

export function presentOrgSearchSpace(
  ctx: Ctx,
  space: { id: string; title: string },
  hit: SpaceHit,
  contexts: PageContexts
): OrgSearchSpace {
  return {
    type: 'space',
    id: space.id,
    title: space.title,
    score: wireScore(hit.score),
    pages: hit.pages.map((p) => presentSearchPage(ctx, space.id, p, contexts))
  }
}
