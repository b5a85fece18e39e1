import { NoContent, PageQuery } from '../../../../src-shared/schemas/common'
import {
  InstallationCreateSchema,
  InstallationList,
  InstallationListQuery,
  InstallationParams,
  InstallationSchema,
  InstallationUpdateSchema,
  IntegrationParams,
  OrganizationInstallationList
} from '../../../../src-shared/schemas/integrations'
import { OrgParams } from '../../../../src-shared/schemas/orgs'
import Type from 'typebox'
import { installationRepository } from '../../../storage/repositories/installationRepository'
import { integrationRepository } from '../../../storage/repositories/integrationRepository'
import type { Api } from '../../app'
import { read, write } from '../../../workspace/context'
import { conflict, forbidden } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { requireOrgRole } from '../../policies/access'
import { authorizeIntegration, isAdminOf } from '../../policies/integration'
import { presentInstallation, presentInstallations, presentIntegrations } from '../../presenters/integration'
import { checkConfiguration, configurationSchema, loadInstallation } from './installationLoaders'
import installationTargetRoutes from './installationTargets'
import { isComplete } from '../../../../src-shared/integrationConfiguration'

const tags = ['Integrations']

export default function installationRoutes(app: Api) {
  app.get(
    '/v1/integrations/:integrationName/installations',
    {
      schema: {
        tags,
        summary: 'Installations of an integration (admins of its owner organization)',
        params: IntegrationParams,
        querystring: InstallationListQuery,
        response: { 200: InstallationList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const integrations = ctx.repo(integrationRepository)
        const integration = authorizeIntegration(ctx, integrations.getByName(req.params.integrationName), 'admin')
        const { externalId } = req.query
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [after = 0] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = integrations.listInstallations(integration.id, externalId, after, limit + 1)
        const count = cachedCount(ctx, `installations:${integration.id}:${externalId ?? ''}`, () =>
          integrations.countInstallations(integration.id, externalId)
        )
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => presentInstallations(page, new Map([[integration.id, integration.name]]), ctx)
        )
      })
  )

  // Quire extension (api-v1.md shows no way to install): an organization admin installs an integration into it.
  app.post(
    '/v1/integrations/:integrationName/installations',
    {
      schema: {
        tags,
        summary: 'Install an integration into an organization the caller administers (Quire extension)',
        params: IntegrationParams,
        body: InstallationCreateSchema,
        response: { 201: InstallationSchema }
      }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const integrations = ctx.repo(integrationRepository)
        const integration = authorizeIntegration(ctx, integrations.getByName(req.params.integrationName), 'view')
        const org = integrations.organization(req.body.organization)
        if (!org || !isAdminOf(ctx, org.id)) throw forbidden('organization: installing needs the admin role in that organization')
        if (integration.visibility === 'private' && org.id !== integration.owner_id) {
          throw forbidden('A private integration installs only into the organization that owns it')
        }
        if (integrations.installationIn(integration.id, org.id))
          throw conflict(`organization: ${integration.name} is already installed there`)
        const configuration = req.body.configuration ?? {}
        // Active once the account configuration has every required property, as the hosted service does.
        const schema = configurationSchema(integration, 'account')
        checkConfiguration(schema, configuration, false)
        const status = isComplete(schema, configuration) ? 'active' : 'pending'
        const row = integrations.install(
          { integration_id: integration.id, organization_id: org.id, status, configuration, external_ids: req.body.externalIds ?? [] },
          ctx.now
        )
        return presentInstallation(row, integration.name, 0, ctx)
      })
      return reply.code(201).send(body)
    }
  )

  app.get(
    '/v1/orgs/:organizationId/installations',
    {
      schema: {
        tags,
        summary: 'Integrations installed in an organization, each with its integration (non-guest members)',
        params: OrgParams,
        querystring: Type.Object(PageQuery),
        response: { 200: OrganizationInstallationList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { org } = requireOrgRole(ctx, req.params.organizationId, 'read')
        const installations = ctx.repo(installationRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [after = 0] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = installations.listOfOrg(org.id, after, limit + 1)
        const count = cachedCount(ctx, `org-installations:${org.id}`, () => installations.countOfOrg(org.id))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => {
            const integrationRows = ctx.repo(integrationRepository).getByIds(page.map((r) => r.integration_id))
            const presented = new Map(presentIntegrations(integrationRows, ctx).map((i, n) => [integrationRows[n]!.id, i]))
            const installed = presentInstallations(page, new Map(integrationRows.map((r) => [r.id, r.name])), ctx)
            return page.map((r, n) => ({ installation: installed[n]!, integration: presented.get(r.integration_id)! }))
          }
        )
      })
  )

  app.get(
    '/v1/integrations/:integrationName/installations/:installationId',
    {
      schema: {
        tags,
        summary: 'An installation (members of its organization, admins of the integration\u2019s owner)',
        params: InstallationParams,
        response: { 200: InstallationSchema }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { integration, installation } = loadInstallation(ctx, req.params, 'view')
        return presentInstallations([installation], new Map([[integration.id, integration.name]]), ctx)[0]!
      })
  )

  app.patch(
    '/v1/integrations/:integrationName/installations/:installationId',
    {
      schema: {
        tags,
        summary: 'Update an installation\u2019s configuration (checked against the account schema) and external ids (organization admins)',
        params: InstallationParams,
        body: InstallationUpdateSchema,
        response: { 200: InstallationSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { integration, installation } = loadInstallation(ctx, req.params, 'admin')
        const schema = configurationSchema(integration, 'account')
        const configuration = req.body.configuration ?? JSON.parse(installation.configuration)
        if (req.body.configuration) checkConfiguration(schema, configuration, true)
        const row = ctx.repo(installationRepository).update(
          installation,
          {
            status: isComplete(schema, configuration) ? 'active' : 'pending',
            configuration,
            external_ids: req.body.externalIds ?? JSON.parse(installation.external_ids)
          },
          ctx.now
        )
        return presentInstallations([row], new Map([[integration.id, integration.name]]), ctx)[0]!
      })
  )

  app.delete(
    '/v1/integrations/:integrationName/installations/:installationId',
    {
      schema: {
        tags,
        summary: 'Uninstall from the organization, and so from all of its spaces and sites (organization admins)',
        params: InstallationParams,
        response: { 204: NoContent }
      }
    },
    async (req, reply) => {
      write(req, (ctx) => {
        const { installation } = loadInstallation(ctx, req.params, 'admin')
        ctx.repo(installationRepository).remove(installation.id)
      })
      return reply.code(204).send()
    }
  )

  installationTargetRoutes(app)
}
