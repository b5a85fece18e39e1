import {
  BacklinkList,
  BacklinksQuery,
  ChangeRequestLinkList,
  ChangeRequestLinksQuery,
  ContentLinkList,
  LinksQuery
} from '../../../../src-shared/schemas/links'
import { ChangeRequestParams } from '../../../../src-shared/schemas/changeRequests'
import { SpaceParams } from '../../../../src-shared/schemas/spaces'
import {
  firstAfter,
  linkKey,
  linksWithStatus,
  linkStats,
  revisionLinks,
  type LinkStats,
  type LinkStatus,
  type ResolvedLink
} from '../../../content/links'
import { loadFile, loadPage } from '../../../content/revisions'
import { changeRequestRepository } from '../../../storage/repositories/changeRequestRepository'
import type { Api } from '../../app'
import { mergeBase } from '../../commands/changeRequestMerger'
import { changeRequestLinks } from '../../commands/changeRequestLinks'
import { read, type Ctx } from '../../../workspace/context'
import { notFound } from '../../../base/errors'
import { decodeCursor, DEFAULT_LIMIT, encodeCursor, type ListEnvelope } from '../../pagination'
import { presentBacklink, presentLink, type ReferenceContext } from '../../presenters/link'
import type { ContentScope } from '../../presenters/content'
import { CONTENT_PREFIXES, contentParams, resolveContent } from '../content/scope'
import { loadSpace } from '../spaces/loaders'
import { loadChangeRequest } from '../change-requests/loaders'

/**
 * Links lists are read from the revision's resolved links (content/links.ts), computed once per revision. They are
 * ordered by the linking page's path, its id, then the link's position in the document; `next.page` encodes that
 * key of the last item. `stats` count every link of the list's scope (space or page), whatever `status` asks.
 */

const Id = { type: 'string', maxLength: 100 } as const

/** A window of a sorted in-memory list after the cursor: `limit` items and `next` when more follow. */
function windowOf<T, Item>(
  list: T[],
  keyOf: (item: T) => (string | number)[],
  after: (string | number)[] | undefined,
  limit: number,
  present: (item: T) => Item
): ListEnvelope<Item> {
  const start = firstAfter(list, keyOf, after)
  const page = list.slice(start, start + limit)
  const result: ListEnvelope<Item> = { items: page.map(present), count: list.length }
  if (start + limit < list.length) result.next = { page: encodeCursor(keyOf(page[page.length - 1]!)) }
  return result
}

/** One page of a links list: `links` already filtered by status, `stats` over the whole scope. */
function linkList(context: ReferenceContext, links: ResolvedLink[], query: { page?: string; limit?: number }, stats: LinkStats) {
  const after = decodeCursor(query.page, ['string', 'string', 'integer'])
  return { ...windowOf(links, linkKey, after, query.limit ?? DEFAULT_LIMIT, (l) => presentLink(context, l)), stats }
}

/** The change request a content route reads (resolveContent has checked it exists and may be read). */
function changeRequestOf(ctx: Ctx, spaceId: string, params: { changeRequestId?: string }) {
  return params.changeRequestId === undefined ? undefined : ctx.repo(changeRequestRepository).find(spaceId, params.changeRequestId)
}

export default function linkRoutes(app: Api) {
  app.get(
    '/v1/spaces/:spaceId/links',
    {
      schema: {
        tags: ['Spaces'],
        summary: 'Links of every page of the space, with their status (ok, broken, in-app) and totals',
        params: SpaceParams,
        querystring: LinksQuery,
        response: { 200: ContentLinkList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'view')
        const scope: ContentScope = { spaceId: space.id, revisionId: space.revision_id! }
        const links = revisionLinks(ctx.db, scope.revisionId, ctx.url(''))
        return linkList(
          { organizationId: space.organization_id, scope },
          linksWithStatus(links, req.query.status as LinkStatus | undefined),
          req.query,
          links.stats
        )
      })
  )

  app.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/links',
    {
      config: { offline: 'copy' },
      schema: {
        tags: ['Change requests'],
        summary: 'Links of the content as merging the change request would leave it, marking those it breaks (introduced)',
        params: ChangeRequestParams,
        querystring: ChangeRequestLinksQuery,
        response: { 200: ChangeRequestLinkList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space, cr } = loadChangeRequest(ctx, req.params.spaceId, req.params.changeRequestId, 'view')
        const { links, introduced, versionOf } = changeRequestLinks(ctx, space, cr)
        const wanted = req.query.introduced
        let shown = linksWithStatus(links, req.query.status as LinkStatus | undefined)
        if (wanted !== undefined) shown = shown.filter((l) => introduced.has(l) === wanted)
        const present = (link: ResolvedLink) => {
          const version = versionOf(link.pageId)
          const scope: ContentScope = {
            spaceId: space.id,
            revisionId: version.revisionId,
            ...(version.inChangeRequest ? { changeRequest: cr.number } : {})
          }
          const context: ReferenceContext = {
            organizationId: space.organization_id,
            scope,
            ...(version.inChangeRequest ? { changeRequestId: cr.id } : {})
          }
          return { ...presentLink(context, link), introduced: introduced.has(link) }
        }
        const after = decodeCursor(req.query.page, ['string', 'string', 'integer'])
        const stats = { ...links.stats, broken: { total: links.stats.broken.total, changeRequest: introduced.size } }
        return { ...windowOf(shown, linkKey, after, req.query.limit ?? DEFAULT_LIMIT, present), stats }
      })
  )

  for (const prefix of CONTENT_PREFIXES) {
    const inChangeRequest = prefix.includes('change-requests')
    const tags = [inChangeRequest ? 'Change requests' : 'Space content']
    const where = inChangeRequest ? 'of a change request' : 'of a space'

    app.get(
      `${prefix}/content/page/:pageId/links`,
      {
        schema: {
          tags,
          summary: `Links of a page ${where}, with their status and totals`,
          params: contentParams(prefix, { pageId: Id }),
          querystring: LinksQuery,
          response: { 200: ContentLinkList }
        }
      },
      async (req) =>
        read(req, (ctx) => {
          const params = req.params as { spaceId: string; changeRequestId?: string; pageId: string }
          const { space, scope } = resolveContent(ctx, req)
          if (!loadPage(ctx.db, scope.revisionId, params.pageId)) throw notFound('Page')
          const links = revisionLinks(ctx.db, scope.revisionId, ctx.url('')).byPage.get(params.pageId) ?? []
          const cr = changeRequestOf(ctx, space.id, params)
          const base = cr ? revisionLinks(ctx.db, mergeBase(cr), ctx.url('')) : undefined
          const shown = req.query.status ? links.filter((l) => l.status === req.query.status) : links
          return linkList(
            { organizationId: space.organization_id, scope, changeRequestId: cr?.id },
            shown,
            req.query,
            linkStats(links, base)
          )
        })
    )

    app.get(
      `${prefix}/content/files/:fileId/backlinks`,
      {
        schema: {
          tags,
          summary: `Pages linking a file ${where}`,
          params: contentParams(prefix, { fileId: Id }),
          querystring: BacklinksQuery,
          response: { 200: BacklinkList }
        }
      },
      async (req) =>
        read(req, (ctx) => {
          const params = req.params as { spaceId: string; changeRequestId?: string; fileId: string }
          const { space, scope } = resolveContent(ctx, req)
          if (!loadFile(ctx.db, scope.revisionId, params.fileId)) throw notFound('File')
          const pages = revisionLinks(ctx.db, scope.revisionId, ctx.url('')).fileBacklinks.get(params.fileId) ?? []
          const after = decodeCursor(req.query.page, ['string', 'string'])
          const context = { organizationId: space.organization_id, scope, changeRequestId: changeRequestOf(ctx, space.id, params)?.id }
          return windowOf(
            pages,
            (p) => [p.pagePath, p.pageId],
            after,
            req.query.limit ?? DEFAULT_LIMIT,
            (p) => presentBacklink(context, p.pageId)
          )
        })
    )
  }
}
