import { NoContent } from '../../../../src-shared/schemas/common'
import {
  SitePageQuery,
  SiteParams,
  SiteSectionCreateSchema,
  SiteSectionList,
  SiteSectionMoveSchema,
  SiteSectionParams,
  SiteSectionSchema,
  SiteSectionUpdateSchema
} from '../../../../src-shared/schemas/sites'
import { siteRepository, type SiteRow } from '../../../storage/repositories/siteRepository'
import {
  siteSectionRepository,
  type SiteSectionPatch,
  type SiteSectionRow,
  type StructureItem
} from '../../../storage/repositories/siteSectionRepository'
import { siteSpaceRepository } from '../../../storage/repositories/siteSpaceRepository'
import type { Api } from '../../app'
import { anchorOf, positionAmong } from '../../commands/positioning'
import { spaceForSite } from '../../commands/siteCreator'
import { createSection, removeSection, requireFreeSectionPath } from '../../commands/siteSectionCreator'
import { read, write, type Ctx } from '../../../workspace/context'
import { badRequest } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { presentSections } from '../../presenters/siteSection'
import { checkCondition, loadSection, loadSite, siteSpaceInSite } from './loaders'

const tags = ['Site sections']

export default function siteSectionRoutes(app: Api) {
  app.get(
    '/v1/orgs/:organizationId/sites/:siteId/sections',
    { schema: { tags, summary: 'Sections of a site', params: SiteParams, querystring: SitePageQuery, response: { 200: SiteSectionList } } },
    async (req) =>
      read(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'view')
        const repo = ctx.repo(siteSectionRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [position = -Infinity, seq = 0] = decodeCursor(req.query.page, ['number', 'integer']) ?? []
        const rows = repo.list(site.id, [position, seq], limit + 1)
        const count = cachedCount(ctx, `site-sections:${site.id}`, () => repo.count(site.id))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.position, r.seq],
          (page) => presentSections(page, ctx, site)
        )
      })
  )

  app.post(
    '/v1/orgs/:organizationId/sites/:siteId/sections',
    {
      schema: {
        tags,
        summary: 'Add a section whose first site space is the given space (null: a new space)',
        params: SiteParams,
        body: SiteSectionCreateSchema,
        response: { 201: SiteSectionSchema }
      }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'arrange')
        const b = req.body
        const space = b.spaceId === null ? null : spaceForSite(ctx, site.organization_id, b.spaceId, 'spaceId')
        const section = createSection(ctx, site, { space, title: b.title, path: b.path, icon: b.icon })
        return presentOne(ctx, site, section)
      })
      return reply.code(201).send(body)
    }
  )

  app.patch(
    '/v1/orgs/:organizationId/sites/:siteId/sections/:siteSectionId',
    {
      schema: {
        tags,
        summary: 'Update a section',
        params: SiteSectionParams,
        body: SiteSectionUpdateSchema,
        response: { 200: SiteSectionSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'arrange')
        const section = loadSection(ctx, site, req.params.siteSectionId)
        const b = req.body
        const patch: SiteSectionPatch = {}
        if (b.title !== undefined) patch.title = b.title
        if (b.icon !== undefined) patch.icon = b.icon
        if (b.description !== undefined) patch.description = b.description
        if (b.path !== undefined) {
          requireFreeSectionPath(ctx, site.id, b.path, section.id)
          patch.path = b.path
        }
        if (b.condition !== undefined) {
          if (b.condition !== null) checkCondition(site, b.condition)
          patch.condition = b.condition
        }
        if (b.defaultSiteSpace !== undefined) {
          const row = siteSpaceInSite(ctx, site, b.defaultSiteSpace, 'defaultSiteSpace')
          if (row.section_id !== section.id) throw badRequest(`defaultSiteSpace: site space ${row.id} is not in this section`)
          ctx.repo(siteSpaceRepository).makeDefault(row)
        }
        const repo = ctx.repo(siteSectionRepository)
        repo.update(section.id, patch)
        return presentOne(ctx, site, repo.get(section.id)!)
      })
  )

  app.delete(
    '/v1/orgs/:organizationId/sites/:siteId/sections/:siteSectionId',
    { schema: { tags, summary: 'Delete a section with its site spaces', params: SiteSectionParams, response: { 205: NoContent } } },
    async (req, reply) => {
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'arrange')
        removeSection(ctx, site, loadSection(ctx, site, req.params.siteSectionId))
      })
      return reply.code(205).send()
    }
  )

  app.post(
    '/v1/orgs/:organizationId/sites/:siteId/sections/:siteSectionId/move',
    {
      schema: {
        tags,
        summary: 'Move a section before or after another item of its level (absent: to the end)',
        params: SiteSectionParams,
        body: SiteSectionMoveSchema,
        response: { 200: SiteSectionSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'arrange')
        const section = loadSection(ctx, site, req.params.siteSectionId)
        const repo = ctx.repo(siteSectionRepository)
        // A grouped section moves among its group's sections; an ungrouped one among the top of the site.
        const level = section.group_id ? repo.inGroup(section.group_id) : repo.topLevel(site.id)
        const siblings = level.filter((item) => !(item.kind === 'site-section' && item.id === section.id))
        const anchor = anchorOf(req.body.position, (ref) => ({ kind: String(ref.type), id: String(ref.id) }))
        const position = positionAmong(siblings, anchor, (spaced) => spaced.forEach((s) => repo.setPosition(s as StructureItem)))
        repo.update(section.id, { position })
        return presentOne(ctx, site, repo.get(section.id)!)
      })
  )
}

/** The site is read again: creating the first section or deleting the default one changes its default section. */
function presentOne(ctx: Ctx, site: SiteRow, section: SiteSectionRow) {
  return presentSections([section], ctx, ctx.repo(siteRepository).get(site.id)!)[0]!
}
