import { OrgParams } from '../../../../src-shared/schemas/orgs'
import { OrgSearchList, SearchQuerySchema, SpaceSearchList } from '../../../../src-shared/schemas/search'
import { SpaceParams } from '../../../../src-shared/schemas/spaces'
import { buildSearchQuery, rankAll, rankSpace, searchOrganization, searchSpace, type HitList } from '../../../content/search'
import { ensureSearchIndex, foundPageContexts } from '../../../content/searchIndex'
import { spaceRepository } from '../../../storage/repositories/spaceRepository'
import type { Api } from '../../app'
import { read } from '../../../workspace/context'
import { decodeCursor, DEFAULT_LIMIT, encodeCursor, type ListEnvelope } from '../../pagination'
import { requireOrg, spaceListScope } from '../../policies/access'
import { presentOrgSearchSpace, presentSearchPage } from '../../presenters/search'
import { loadSpace } from '../spaces/loaders'

/**
 * Search over the primary content of spaces (the FTS5 section index). Lists are ranked best first and
 * keyset-paginated over that ranking: `next.page` encodes [score, key] of the last item (the page's index key for space
 * search, a space id for organization search), and the next page lists what ranks strictly after it.
 */

/** The cursor's [score, key]: a page key (a number) for space search, a space id for organization search. */
function searchCursor(page: string | undefined, key: 'integer' | 'string'): [number, number | string] | undefined {
  return decodeCursor(page, ['number', key])
}

function listOf<Hit extends { score: number }, Item>(
  found: HitList<Hit>,
  id: (hit: Hit) => number | string,
  present: (hit: Hit) => Item
): ListEnvelope<Item> {
  const result: ListEnvelope<Item> = { items: found.items.map(present), count: found.count }
  const last = found.items[found.items.length - 1]
  if (found.more && last) result.next = { page: encodeCursor([last.score, id(last)]) }
  return result
}

export default function searchRoutes(app: Api) {
  app.get(
    '/v1/spaces/:spaceId/search',
    {
      config: { offline: 'copy' },
      schema: {
        tags: ['Space content'],
        summary: 'Search the pages of a space (best first, grouped by page with the matching sections)',
        params: SpaceParams,
        querystring: SearchQuerySchema,
        response: { 200: SpaceSearchList }
      }
    },
    async (req) => {
      const { db, searchPool } = app.services
      // A merge just before may have left the index to catch up: never answer from behind the content.
      ensureSearchIndex(db, [req.params.spaceId])
      // Who may read is settled before anything is ranked; then a broad query is ranked on the search threads and
      // this one (searchPool.ts), and the answer is read in a transaction of its own.
      const { spaceId, after } = read(req, (ctx) => ({
        spaceId: loadSpace(ctx, req.params.spaceId, 'view').space.id,
        after: searchCursor(req.query.page, 'integer')
      }))
      const query = buildSearchQuery(req.query.query)
      if (!query) return { items: [], count: 0 }
      const ranked = await rankSpace(db, searchPool, spaceId, query)
      return read(req, (ctx) => {
        const { space } = loadSpace(ctx, spaceId, 'view')
        const found = searchSpace(ctx.db, space.id, query, { after, limit: req.query.limit ?? DEFAULT_LIMIT }, ranked)
        const contexts = foundPageContexts(
          ctx.db,
          found.items.map((hit) => ({ spaceId: space.id, pageId: hit.pageId }))
        )
        return listOf(
          found,
          (hit) => hit.key,
          (hit) => presentSearchPage(ctx, space.id, hit, contexts)
        )
      })
    }
  )

  app.get(
    '/v1/orgs/:organizationId/search',
    {
      config: { offline: 'copy' },
      schema: {
        tags: ['Organizations'],
        summary: 'Search the spaces of an organization the caller can read (best first, grouped by space, then page)',
        params: OrgParams,
        querystring: SearchQuerySchema,
        response: { 200: OrgSearchList }
      }
    },
    async (req) => {
      const { db, searchPool } = app.services
      ensureSearchIndex(db)
      const after = read(req, (ctx) => {
        requireOrg(ctx, req.params.organizationId)
        return searchCursor(req.query.page, 'string')
      })
      const query = buildSearchQuery(req.query.query)
      if (!query) return { items: [], count: 0 }
      const ranked = await rankAll(db, searchPool, query)
      return read(req, (ctx) => {
        const { org } = requireOrg(ctx, req.params.organizationId)
        const found = searchOrganization(
          ctx.db,
          org.id,
          spaceListScope(ctx, org.id),
          query,
          { after, limit: req.query.limit ?? DEFAULT_LIMIT },
          ranked
        )
        const spaces = ctx.repo(spaceRepository).getMany(found.items.map((hit) => hit.spaceId))
        const contexts = foundPageContexts(
          ctx.db,
          found.items.flatMap((hit) => hit.pages.map((p) => ({ spaceId: hit.spaceId, pageId: p.pageId })))
        )
        return listOf(
          found,
          (hit) => hit.spaceId,
          (hit) => presentOrgSearchSpace(ctx, spaces.get(hit.spaceId)!, hit, contexts)
        )
      })
    }
  )
}
