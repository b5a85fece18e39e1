import { NoContent } from '../../../../src-shared/schemas/common'
import {
  SiteParams,
  SiteSpaceCreateSchema,
  SiteSpaceList,
  SiteSpaceListQuery,
  SiteSpaceMoveSchema,
  SiteSpaceParams,
  SiteSpaceSchema,
  SiteSpaceUpdateSchema
} from '../../../../src-shared/schemas/sites'
import { siteSectionRepository } from '../../../storage/repositories/siteSectionRepository'
import { siteSpaceRepository, type SiteSpacePatch } from '../../../storage/repositories/siteSpaceRepository'
import type { Api } from '../../app'
import { anchorOf, positionAmong } from '../../commands/positioning'
import { spaceForSite } from '../../commands/siteCreator'
import { linkSiteSpace, unlinkSiteSpace } from '../../commands/siteSpaceLinker'
import { read, write } from '../../../workspace/context'
import { conflict } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { presentSiteSpaces } from '../../presenters/siteSpace'
import { checkCondition, checkShareKey, loadSite, loadSiteSpace, sectionInSite } from './loaders'

const tags = ['Site spaces']

export default function siteSpaceRoutes(app: Api) {
  app.get(
    '/v1/orgs/:organizationId/sites/:siteId/site-spaces',
    {
      schema: {
        tags,
        summary: 'Site spaces of a site',
        params: SiteParams,
        querystring: SiteSpaceListQuery,
        response: { 200: SiteSpaceList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'view')
        const shareKey = checkShareKey(ctx, site, req.query.shareKey)
        const repo = ctx.repo(siteSpaceRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [position = -Infinity, seq = 0] = decodeCursor(req.query.page, ['number', 'integer']) ?? []
        const isDefault = req.query.default
        const rows = repo.list(site.id, isDefault, [position, seq], limit + 1)
        const count = cachedCount(ctx, `site-spaces:${site.id}:${isDefault ?? ''}`, () => repo.count(site.id, isDefault))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.position, r.seq],
          (page) => presentSiteSpaces(page, ctx, site, shareKey)
        )
      })
  )

  app.post(
    '/v1/orgs/:organizationId/sites/:siteId/site-spaces',
    {
      schema: {
        tags,
        summary: 'Link a space to a site (in a section, else the default section, else the root)',
        params: SiteParams,
        body: SiteSpaceCreateSchema,
        response: { 201: SiteSpaceSchema }
      }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'arrange')
        const space = spaceForSite(ctx, site.organization_id, req.body.spaceId, 'spaceId')
        let sectionId: string | null = null
        if (req.body.sectionId !== undefined) sectionId = sectionInSite(ctx, site, req.body.sectionId, 'sectionId').id
        else if (ctx.repo(siteSectionRepository).count(site.id))
          sectionId = site.default_section_id ?? ctx.repo(siteSectionRepository).first(site.id)!.id
        const row = linkSiteSpace(ctx, site, space, sectionId)
        return presentSiteSpaces([row], ctx, site)[0]
      })
      return reply.code(201).send(body)
    }
  )

  app.patch(
    '/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId',
    {
      schema: {
        tags,
        summary: 'Update the path or condition of a site space',
        params: SiteSpaceParams,
        body: SiteSpaceUpdateSchema,
        response: { 200: SiteSpaceSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'arrange')
        const row = loadSiteSpace(ctx, site, req.params.siteSpaceId)
        const repo = ctx.repo(siteSpaceRepository)
        const patch: SiteSpacePatch = {}
        if (req.body.path !== undefined) {
          if (repo.pathTaken(site.id, req.body.path, row.id))
            throw conflict(`path: ${req.body.path} is already the path of another site space of this site`)
          patch.path = req.body.path
        }
        if (req.body.condition !== undefined) {
          if (req.body.condition !== null) checkCondition(site, req.body.condition)
          patch.condition = req.body.condition
        }
        repo.update(row.id, patch)
        return presentSiteSpaces([repo.get(row.id)!], ctx, site)[0]
      })
  )

  app.delete(
    '/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId',
    { schema: { tags, summary: 'Unlink a space from a site', params: SiteSpaceParams, response: { 205: NoContent } } },
    async (req, reply) => {
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'arrange')
        unlinkSiteSpace(ctx, loadSiteSpace(ctx, site, req.params.siteSpaceId))
      })
      return reply.code(205).send()
    }
  )

  app.post(
    '/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/move',
    {
      schema: {
        tags,
        summary: 'Move a site space before or after another of its section',
        params: SiteSpaceParams,
        body: SiteSpaceMoveSchema,
        response: { 200: SiteSpaceSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'arrange')
        const row = loadSiteSpace(ctx, site, req.params.siteSpaceId)
        const repo = ctx.repo(siteSpaceRepository)
        const anchor = anchorOf(req.body.position, (ref) => ({ kind: 'site-space', id: String(ref.siteSpace) }))
        const siblings = repo
          .inContainer(site.id, row.section_id)
          .filter((s) => s.id !== row.id)
          .map((s) => ({ kind: 'site-space', id: s.id, position: s.position }))
        const position = positionAmong(siblings, anchor, (spaced) => spaced.forEach((s) => repo.setPosition(s.id, s.position)))
        repo.setPosition(row.id, position)
        return presentSiteSpaces([repo.get(row.id)!], ctx, site)[0]
      })
  )
}
