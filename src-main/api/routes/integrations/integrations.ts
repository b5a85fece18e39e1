import { NoContent } from '../../../../src-shared/schemas/common'
import {
  IntegrationList,
  IntegrationListQuery,
  IntegrationParams,
  IntegrationPublishSchema,
  IntegrationSchema
} from '../../../../src-shared/schemas/integrations'
import { integrationRepository, type IntegrationFilters } from '../../../storage/repositories/integrationRepository'
import type { Api } from '../../app'
import { read, write } from '../../../workspace/context'
import { conflict, forbidden } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { authorizeIntegration, integrationViewer, isAdminOf, listableOwners } from '../../policies/integration'
import { presentIntegrations } from '../../presenters/integration'
import integrationAssetRoutes from './assets'
import installationRoutes from './installations'
import { normalizeDomain, prepareManifest, storeManifest } from './manifest'

const tags = ['Integrations']

export default function integrationRoutes(app: Api) {
  app.get(
    '/v1/integrations',
    {
      schema: {
        tags,
        summary: 'Integrations the caller can see (public ones, and all of their organizations\u2019)',
        querystring: IntegrationListQuery,
        response: { 200: IntegrationList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const q = req.query
        const filters: IntegrationFilters = {
          search: q.search?.toLowerCase() || undefined,
          category: q.category,
          blockDomain: q.blockDomain === undefined ? undefined : normalizeDomain(q.blockDomain),
          blocks: q.blocks,
          contentSources: q.contentSources,
          owner: q.owner
        }
        const mine = listableOwners(integrationViewer(ctx))
        const integrations = ctx.repo(integrationRepository)
        const limit = q.limit ?? DEFAULT_LIMIT
        const [after = 0] = decodeCursor(q.page, ['integer']) ?? []
        const rows = integrations.list(filters, mine, after, limit + 1)
        const count = cachedCount(ctx, `integrations:${mine.join(',')}:${JSON.stringify(filters)}`, () => integrations.count(filters, mine))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => presentIntegrations(page, ctx)
        )
      })
  )

  app.get(
    '/v1/integrations/:integrationName',
    { schema: { tags, summary: 'Get an integration', params: IntegrationParams, response: { 200: IntegrationSchema } } },
    async (req) =>
      read(req, (ctx) => {
        const row = authorizeIntegration(ctx, ctx.repo(integrationRepository).getByName(req.params.integrationName), 'view')
        return presentIntegrations([row], ctx)[0]!
      })
  )

  app.post(
    '/v1/integrations/:integrationName',
    {
      schema: {
        tags,
        summary: 'Publish an integration (admins of the owner organization); each publish bumps its version',
        params: IntegrationParams,
        body: IntegrationPublishSchema,
        response: { 200: IntegrationSchema }
      }
    },
    async (req) => {
      // Decoding images is CPU work with no database: done before the transaction.
      const prepared = prepareManifest(req.body)
      return write(req, (ctx) => {
        const integrations = ctx.repo(integrationRepository)
        const org = integrations.organization(req.body.organization)
        // Unknown organizations and ones the caller does not administer answer alike: nothing is revealed.
        if (!org || !isAdminOf(ctx, org.id)) {
          throw forbidden('organization: publishing needs the admin role in that organization')
        }
        const name = req.params.integrationName
        const existing = integrations.getByName(name)
        if (existing && existing.owner_id !== org.id)
          throw conflict(`integrationName: ${name} is already published by another organization`)
        const manifest = storeManifest(ctx.db, prepared, existing)
        const row = existing
          ? integrations.republish(existing, manifest, prepared.index, ctx.now)
          : integrations.create(name, org.id, manifest, prepared.index, ctx.now)
        return presentIntegrations([row], ctx)[0]!
      })
    }
  )

  app.delete(
    '/v1/integrations/:integrationName',
    {
      schema: {
        tags,
        summary: 'Unpublish an integration; its installations are removed',
        params: IntegrationParams,
        response: { 204: NoContent }
      }
    },
    async (req, reply) => {
      write(req, (ctx) => {
        const integrations = ctx.repo(integrationRepository)
        const row = authorizeIntegration(ctx, integrations.getByName(req.params.integrationName), 'admin')
        integrations.remove(row.id)
      })
      return reply.code(204).send()
    }
  )

  installationRoutes(app)
  integrationAssetRoutes(app)
}
