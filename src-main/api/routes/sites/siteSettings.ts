import { SiteCustomizationSchema, SiteCustomizationUpdateSchema } from '../../../../src-shared/schemas/siteCustomization'
import {
  PublishedSiteSchema,
  SiteAdaptiveSchemaPutSchema,
  SiteAdaptiveSchemaSchema,
  SiteParams,
  SitePublishedQuery,
  type PublishedSite,
  type SiteAdaptiveSchema
} from '../../../../src-shared/schemas/sites'
import { changesVisitorSettings } from '../../../preview/visitor'
import { siteRepository, type SitePatch, type SiteRow } from '../../../storage/repositories/siteRepository'
import type { Api } from '../../app'
import { adaptiveSchemaSubset, emptyAdaptiveSchema, normalizeAdaptiveSchema } from '../../commands/siteAdaptiveSchema'
import { readSiteStructure } from '../../../preview/siteStructure'
import { read, write } from '../../../workspace/context'
import { presentOneSite } from '../../presenters/site'
import { mergeCustomization, presentCustomization } from '../../../preview/siteCustomization'
import { presentGroup, presentSections } from '../../presenters/siteSection'
import { presentSiteSpaces } from '../../presenters/siteSpace'
import { checkShareKey, loadSite } from './loaders'

const tags = ['Sites']

function presentAdaptiveSchema(site: SiteRow): SiteAdaptiveSchema {
  return {
    object: 'site-adaptive-schema',
    jsonSchema: site.adaptive_schema ? adaptiveSchemaSubset(JSON.parse(site.adaptive_schema)) : emptyAdaptiveSchema(),
    updatedAt: site.adaptive_schema_updated_at ?? site.created_at
  }
}

export default function siteSettingRoutes(app: Api) {
  app.get(
    '/v1/orgs/:organizationId/sites/:siteId/adaptive-schema',
    {
      schema: {
        tags,
        summary: "The site's adaptive-content schema (the visitor claims it knows)",
        params: SiteParams,
        response: { 200: SiteAdaptiveSchemaSchema }
      }
    },
    async (req) => read(req, (ctx) => presentAdaptiveSchema(loadSite(ctx, req.params.organizationId, req.params.siteId, 'view')))
  )

  app.put(
    '/v1/orgs/:organizationId/sites/:siteId/adaptive-schema',
    {
      schema: {
        tags,
        summary: "Create or replace the site's adaptive-content schema (JSON Schema draft-07 of boolean claims)",
        params: SiteParams,
        body: SiteAdaptiveSchemaPutSchema,
        response: { 200: SiteAdaptiveSchemaSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'customize')
        const schema = normalizeAdaptiveSchema(req.body.jsonSchema)
        const sites = ctx.repo(siteRepository)
        const patch: SitePatch = { adaptive_schema: JSON.stringify(schema), adaptive_schema_updated_at: ctx.now, updated_at: ctx.now }
        if (changesVisitorSettings(site, patch)) patch.visitor_settings_at = ctx.now
        sites.update(site.id, patch)
        return presentAdaptiveSchema(sites.get(site.id)!)
      })
  )

  app.get(
    '/v1/orgs/:organizationId/sites/:siteId/published',
    {
      schema: {
        tags,
        summary: 'The published shape of a site: the site, its structure and its customizations',
        params: SiteParams,
        querystring: SitePublishedQuery,
        response: { 200: PublishedSiteSchema }
      }
    },
    async (req) =>
      read(req, (ctx): PublishedSite => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'view')
        const shareKey = checkShareKey(ctx, site, req.query.shareKey)
        const structure = readSiteStructure(ctx.db, site)
        let items: PublishedSite['structure']['structure']
        if (structure.type === 'sections') {
          const sections = structure.items.flatMap((item) =>
            item.kind === 'section' ? [item.section] : item.sections.map((s) => s.section)
          )
          const byId = new Map(presentSections(sections, ctx, site, { shareKey, siteSpaces: structure.siteSpaces }).map((s) => [s.id, s]))
          items = structure.items.map((item) =>
            item.kind === 'section'
              ? byId.get(item.section.id)!
              : presentGroup(
                  item.group,
                  site,
                  item.sections.map((s) => byId.get(s.section.id)!)
                )
          )
        } else {
          items = presentSiteSpaces(structure.rootSiteSpaces, ctx, site, shareKey)
        }
        return {
          object: 'published-content-site',
          site: presentOneSite(site, ctx, shareKey),
          structure: { type: structure.type, structure: items },
          customizations: { site: presentCustomization(site), siteSpaces: {} },
          scripts: []
        }
      })
  )

  app.get(
    '/v1/orgs/:organizationId/sites/:siteId/customization',
    {
      schema: {
        tags,
        summary: "The site's customization (stored values over the defaults)",
        params: SiteParams,
        response: { 200: SiteCustomizationSchema }
      }
    },
    async (req) => read(req, (ctx) => presentCustomization(loadSite(ctx, req.params.organizationId, req.params.siteId, 'view')))
  )

  app.put(
    '/v1/orgs/:organizationId/sites/:siteId/customization',
    {
      schema: {
        tags,
        summary: "Change any part of the site's customization",
        params: SiteParams,
        body: SiteCustomizationUpdateSchema,
        response: { 200: SiteCustomizationSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'customize')
        const sites = ctx.repo(siteRepository)
        sites.update(site.id, { customization: mergeCustomization(site, req.body), updated_at: ctx.now })
        return presentCustomization(sites.get(site.id)!)
      })
  )
}
