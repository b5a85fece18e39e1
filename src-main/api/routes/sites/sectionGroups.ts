import { NoContent } from '../../../../src-shared/schemas/common'
import {
  SiteGroupSectionParams,
  SitePageQuery,
  SiteParams,
  SiteSectionGroupAddSchema,
  SiteSectionGroupCreateSchema,
  SiteSectionGroupList,
  SiteSectionGroupMoveSchema,
  SiteSectionGroupParams,
  SiteSectionGroupSchema,
  SiteSectionGroupUpdateSchema
} from '../../../../src-shared/schemas/sites'
import type { SiteRow } from '../../../storage/repositories/siteRepository'
import { siteSectionRepository, type SiteSectionGroupPatch } from '../../../storage/repositories/siteSectionRepository'
import type { Api } from '../../app'
import { anchorOf } from '../../commands/positioning'
import { addToGroup, createGroup, moveGroup, removeGroup, ungroup } from '../../commands/siteSectionGrouper'
import { read, write, type Ctx } from '../../../workspace/context'
import { notFound } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { presentGroups } from '../../presenters/siteSection'
import { loadGroup, loadSection, loadSite, sectionInSite } from './loaders'

const tags = ['Site section groups']

function presentOne(ctx: Ctx, site: SiteRow, groupId: string) {
  return presentGroups([ctx.repo(siteSectionRepository).getGroup(groupId)!], ctx, site)[0]!
}

export default function siteSectionGroupRoutes(app: Api) {
  app.get(
    '/v1/orgs/:organizationId/sites/:siteId/section-groups',
    {
      schema: {
        tags,
        summary: 'Section groups of a site, with their sections',
        params: SiteParams,
        querystring: SitePageQuery,
        response: { 200: SiteSectionGroupList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'view')
        const repo = ctx.repo(siteSectionRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [position = -Infinity, seq = 0] = decodeCursor(req.query.page, ['number', 'integer']) ?? []
        const rows = repo.listGroups(site.id, [position, seq], limit + 1)
        const count = cachedCount(ctx, `site-section-groups:${site.id}`, () => repo.countGroups(site.id))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.position, r.seq],
          (page) => presentGroups(page, ctx, site)
        )
      })
  )

  app.post(
    '/v1/orgs/:organizationId/sites/:siteId/section-groups',
    {
      schema: {
        tags,
        summary: 'Create a section group at the end of the site, gathering sections',
        params: SiteParams,
        body: SiteSectionGroupCreateSchema,
        response: { 201: SiteSectionGroupSchema }
      }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'arrange')
        const sections = (req.body.sections ?? []).map((id, i) => sectionInSite(ctx, site, id, `sections.${i}`))
        const group = createGroup(ctx, site, { title: req.body.title, icon: req.body.icon ?? null, sections })
        return presentOne(ctx, site, group.id)
      })
      return reply.code(201).send(body)
    }
  )

  app.patch(
    '/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId',
    {
      schema: {
        tags,
        summary: 'Update a section group',
        params: SiteSectionGroupParams,
        body: SiteSectionGroupUpdateSchema,
        response: { 200: SiteSectionGroupSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'arrange')
        const group = loadGroup(ctx, site, req.params.siteSectionGroupId)
        const patch: SiteSectionGroupPatch = {}
        if (req.body.title !== undefined) patch.title = req.body.title
        if (req.body.icon !== undefined) patch.icon = req.body.icon
        ctx.repo(siteSectionRepository).updateGroup(group.id, patch)
        return presentOne(ctx, site, group.id)
      })
  )

  app.delete(
    '/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId',
    {
      schema: {
        tags,
        summary: 'Delete a section group (its sections stay, in its place)',
        params: SiteSectionGroupParams,
        response: { 205: NoContent }
      }
    },
    async (req, reply) => {
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'arrange')
        removeGroup(ctx, site, loadGroup(ctx, site, req.params.siteSectionGroupId))
      })
      return reply.code(205).send()
    }
  )

  app.post(
    '/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections',
    {
      schema: {
        tags,
        summary: 'Add a section to a group (at its end)',
        params: SiteSectionGroupParams,
        body: SiteSectionGroupAddSchema,
        response: { 201: SiteSectionGroupSchema }
      }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'arrange')
        const group = loadGroup(ctx, site, req.params.siteSectionGroupId)
        addToGroup(ctx, group, sectionInSite(ctx, site, req.body.sectionId, 'sectionId'))
        return presentOne(ctx, site, group.id)
      })
      return reply.code(201).send(body)
    }
  )

  app.delete(
    '/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections/:siteSectionId',
    {
      schema: {
        tags,
        summary: 'Take a section out of a group (it follows the group)',
        params: SiteGroupSectionParams,
        response: { 205: NoContent }
      }
    },
    async (req, reply) => {
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'arrange')
        const group = loadGroup(ctx, site, req.params.siteSectionGroupId)
        const section = loadSection(ctx, site, req.params.siteSectionId)
        if (section.group_id !== group.id) throw notFound('Site section')
        ungroup(ctx, site, [section], { kind: 'site-section-group', id: group.id })
      })
      return reply.code(205).send()
    }
  )

  app.post(
    '/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/move',
    {
      schema: {
        tags,
        summary: 'Move a section group before or after a section or group of the top of the site',
        params: SiteSectionGroupParams,
        body: SiteSectionGroupMoveSchema,
        response: { 200: SiteSectionGroupSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'arrange')
        const group = loadGroup(ctx, site, req.params.siteSectionGroupId)
        moveGroup(
          ctx,
          site,
          group,
          anchorOf(req.body.position, (ref) => ({ kind: String(ref.type), id: String(ref.id) }))
        )
        return presentOne(ctx, site, group.id)
      })
  )
}
