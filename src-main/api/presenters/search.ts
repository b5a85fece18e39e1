import type { OrgSearchSpace, SearchPage } from '../../../src-shared/schemas/search'
import type { PageHit, SpaceHit } from '../../content/search'
import type { Ctx } from '../../workspace/context'

/** A page found by search, with its matching sections; app URLs point at the primary content. */
export function presentSearchPage(ctx: Ctx, spaceId: string, hit: PageHit): SearchPage {
  const app = ctx.appUrl(`/spaces/${spaceId}/pages/${hit.pageId}`)
  return {
    id: hit.pageId,
    title: hit.title,
    path: hit.path,
    sections: hit.sections.map((s) => ({
      id: s.sectionId,
      title: s.title,
      path: s.sectionId ? `${hit.path}#${s.sectionId}` : hit.path,
      body: s.body,
      urls: { app: s.sectionId ? `${app}#${s.sectionId}` : app }
    })),
    urls: { app }
  }
}

export function presentOrgSearchSpace(ctx: Ctx, space: { id: string; title: string }, hit: SpaceHit): OrgSearchSpace {
  return { id: space.id, title: space.title, pages: hit.pages.map((p) => presentSearchPage(ctx, space.id, p)) }
}
