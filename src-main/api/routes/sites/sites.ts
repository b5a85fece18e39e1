import { NoContent } from '../../../../src-shared/schemas/common'
import { OrgParams } from '../../../../src-shared/schemas/orgs'
import { SiteCreateSchema, SiteList, SiteListQuery, SiteParams, SiteSchema, SiteUpdateSchema } from '../../../../src-shared/schemas/sites'
import { changesVisitorSettings } from '../../../preview/visitor'
import { siteRepository, type SitePatch, type SiteRow } from '../../../storage/repositories/siteRepository'
import { siteSpaceRepository } from '../../../storage/repositories/siteSpaceRepository'
import type { Api } from '../../app'
import { createSite } from '../../commands/siteCreator'
import { read, write, type Ctx } from '../../../workspace/context'
import { badRequest, conflict } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { presentOneSite, presentSites } from '../../presenters/site'
import { loadSite, requireSiteRole, sectionInSite, siteSpaceInSite } from './loaders'
import { auditChange } from '../../../workspace/audit'

const tags = ['Sites']

export default function siteRoutes(app: Api) {
  app.get(
    '/v1/orgs/:organizationId/sites',
    { schema: { tags, summary: 'Sites of an organization', params: OrgParams, querystring: SiteListQuery, response: { 200: SiteList } } },
    async (req) =>
      read(req, (ctx) => {
        const org = requireSiteRole(ctx, req.params.organizationId, 'view')
        const sites = ctx.repo(siteRepository)
        const q = req.query
        const filter = { organizationId: org.id, space: q.space, title: q.title, published: q.published }
        const limit = q.limit ?? DEFAULT_LIMIT
        const [after = 0] = decodeCursor(q.page, ['integer']) ?? []
        const rows = sites.list(filter, after, limit + 1)
        const count = cachedCount(ctx, `sites:${org.id}:${q.space ?? ''}:${q.title?.toLowerCase() ?? ''}:${q.published ?? ''}`, () =>
          sites.count(filter)
        )
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => presentSites(page, ctx)
        )
      })
  )

  app.post(
    '/v1/orgs/:organizationId/sites',
    {
      schema: {
        tags,
        summary: 'Create a site (unpublished), linking spaces or a new one',
        params: OrgParams,
        body: SiteCreateSchema,
        response: { 201: SiteSchema }
      }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const org = requireSiteRole(ctx, req.params.organizationId, 'create')
        const site = createSite(ctx, { organizationId: org.id, ...req.body })
        return presentOneSite(site, ctx)
      })
      return reply.code(201).send(body)
    }
  )

  app.get(
    '/v1/orgs/:organizationId/sites/:siteId',
    { schema: { tags, summary: 'Get a site', params: SiteParams, response: { 200: SiteSchema } } },
    async (req) => read(req, (ctx) => presentOneSite(loadSite(ctx, req.params.organizationId, req.params.siteId, 'view'), ctx))
  )

  app.patch(
    '/v1/orgs/:organizationId/sites/:siteId',
    { schema: { tags, summary: 'Update a site', params: SiteParams, body: SiteUpdateSchema, response: { 200: SiteSchema } } },
    async (req) =>
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'update')
        const sites = ctx.repo(siteRepository)
        const b = req.body
        const patch: SitePatch = { updated_at: ctx.now }
        if (b.title !== undefined) patch.title = b.title
        if (b.visibility !== undefined) patch.visibility = b.visibility
        if (b.basename !== undefined) patch.basename = b.basename
        if (b.proxy !== undefined) patch.proxy = b.proxy
        if (b.adaptiveContent !== undefined) patch.adaptive_enabled = b.adaptiveContent.enabled ? 1 : 0
        if (b.hostname !== undefined) {
          if (b.hostname && sites.hostnameTaken(b.hostname, site.id))
            throw conflict(`hostname: ${b.hostname} is already used by another site`)
          patch.hostname = b.hostname
        }
        if (b.defaultSiteSection !== undefined)
          patch.default_section_id = sectionInSite(ctx, site, b.defaultSiteSection, 'defaultSiteSection').id
        if (b.defaultSiteSpace !== undefined)
          setDefaultSiteSpace(ctx, site, b.defaultSiteSpace, patch.default_section_id ?? site.default_section_id)
        if (changesVisitorSettings(site, patch)) patch.visitor_settings_at = ctx.now
        sites.update(site.id, patch)
        auditChange(ctx, 'title', site.title, patch.title)
        auditChange(ctx, 'visibility', site.visibility, patch.visibility)
        auditChange(ctx, 'hostname', site.hostname, patch.hostname)
        return presentOneSite(sites.get(site.id)!, ctx)
      })
  )

  app.delete(
    '/v1/orgs/:organizationId/sites/:siteId',
    { schema: { tags, summary: 'Delete a site with its structure and share links', params: SiteParams, response: { 205: NoContent } } },
    async (req, reply) => {
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'delete')
        ctx.repo(siteRepository).remove(site.id)
      })
      return reply.code(205).send()
    }
  )

  for (const [action, published] of [
    ['publish', 1],
    ['unpublish', 0]
  ] as const) {
    app.post(
      `/v1/orgs/:organizationId/sites/:siteId/${action}`,
      {
        schema: {
          tags,
          summary: published ? 'Publish a site: it goes live for its audience' : 'Unpublish a site: readers no longer reach it',
          params: SiteParams,
          response: { 200: SiteSchema }
        }
      },
      async (req) =>
        write(req, (ctx) => {
          const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'publish')
          const sites = ctx.repo(siteRepository)
          sites.update(site.id, { published, updated_at: ctx.now })
          return presentOneSite(sites.get(site.id)!, ctx)
        })
    )
  }
}

/**
 * `defaultSiteSpace` names the default at the root of the site, or in its default section when it has
 * sections; any other site space is refused (a section's default is set on the section).
 */
function setDefaultSiteSpace(ctx: Ctx, site: SiteRow, siteSpaceId: string, defaultSectionId: string | null): void {
  const row = siteSpaceInSite(ctx, site, siteSpaceId, 'defaultSiteSpace')
  if ((row.section_id ?? null) !== (defaultSectionId ?? null)) {
    throw badRequest(
      `defaultSiteSpace: site space ${siteSpaceId} is not ${defaultSectionId ? 'in the default section' : 'at the root of the site'}`
    )
  }
  ctx.repo(siteSpaceRepository).makeDefault(row)
}
