import { NoContent } from '../../../../src-shared/schemas/common'
import {
  ShareLinkCreateSchema,
  ShareLinkList,
  ShareLinkParams,
  ShareLinkSchema,
  ShareLinkUpdateSchema,
  SitePageQuery,
  SiteParams
} from '../../../../src-shared/schemas/sites'
import { siteShareLinkRepository, type ShareLinkPatch } from '../../../storage/repositories/siteShareLinkRepository'
import type { Api } from '../../app'
import { read, write } from '../../../workspace/context'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { presentShareLink } from '../../presenters/siteShareLink'
import { loadShareLink, loadSite } from './loaders'

const tags = ['Site share links']

export default function siteShareLinkRoutes(app: Api) {
  app.get(
    '/v1/orgs/:organizationId/sites/:siteId/share-links',
    {
      schema: { tags, summary: 'Share links of a site', params: SiteParams, querystring: SitePageQuery, response: { 200: ShareLinkList } }
    },
    async (req) =>
      read(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'share')
        const repo = ctx.repo(siteShareLinkRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [after = 0] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = repo.list(site.id, after, limit + 1)
        const count = cachedCount(ctx, `share-links:${site.id}`, () => repo.count(site.id))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => page.map((r) => presentShareLink(r, ctx))
        )
      })
  )

  app.post(
    '/v1/orgs/:organizationId/sites/:siteId/share-links',
    {
      schema: {
        tags,
        summary: 'Create a share link (active, with a new secret key, shown in this answer only)',
        params: SiteParams,
        body: ShareLinkCreateSchema,
        response: { 201: ShareLinkSchema }
      },
      // Only the key's hash is stored: a recorded answer would keep the key itself.
      config: { noIdempotencyKey: 'its answer holds a key shown once, which is not stored' }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'share')
        const { row, key } = ctx.repo(siteShareLinkRepository).create({ site_id: site.id, name: req.body.name, created_at: ctx.now })
        return presentShareLink(row, ctx, key)
      })
      return reply.code(201).send(body)
    }
  )

  app.patch(
    '/v1/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId',
    {
      schema: {
        tags,
        summary: 'Rename a share link or turn it on or off',
        params: ShareLinkParams,
        body: ShareLinkUpdateSchema,
        response: { 200: ShareLinkSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'share')
        const link = loadShareLink(ctx, site, req.params.shareLinkId)
        const repo = ctx.repo(siteShareLinkRepository)
        const patch: ShareLinkPatch = {}
        if (req.body.name !== undefined) patch.name = req.body.name
        if (req.body.active !== undefined) patch.active = req.body.active ? 1 : 0
        repo.update(link.id, patch)
        return presentShareLink(repo.get(link.id)!, ctx)
      })
  )

  app.delete(
    '/v1/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId',
    { schema: { tags, summary: 'Delete a share link (its key stops working)', params: ShareLinkParams, response: { 205: NoContent } } },
    async (req, reply) => {
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'share')
        ctx.repo(siteShareLinkRepository).remove(loadShareLink(ctx, site, req.params.shareLinkId).id)
      })
      return reply.code(205).send()
    }
  )
}
