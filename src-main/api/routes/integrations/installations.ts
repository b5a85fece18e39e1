import {
  InstallationCreateSchema, InstallationList, InstallationListQuery, InstallationSchema, IntegrationParams
} from '../../../../src-shared/schemas/integrations'
import { integrationRepository } from '../../../storage/repositories/integrationRepository'
import type { Api } from '../../app'
import { read, write } from '../../../workspace/context'
import { conflict, forbidden } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { authorizeIntegration, isAdminOf } from '../../policies/integration'
import { presentInstallation } from '../../presenters/integration'

const tags = ['Integrations']

export default function installationRoutes(app: Api) {
  app.get(
    '/v1/integrations/:integrationName/installations',
    {
      schema: {
        tags, summary: 'Installations of an integration (admins of its owner organization)',
        params: IntegrationParams, querystring: InstallationListQuery, response: { 200: InstallationList }
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
          integrations.countInstallations(integration.id, externalId))
        return envelope(rows, limit, count, (r) => [r.seq], (page) => page.map(presentInstallation))
      })
  )

  // Quire extension (api-v1.md shows no way to install): an organization admin installs an integration into it.
  app.post(
    '/v1/integrations/:integrationName/installations',
    {
      schema: {
        tags, summary: 'Install an integration into an organization the caller administers (Quire extension)',
        params: IntegrationParams, body: InstallationCreateSchema, response: { 201: InstallationSchema }
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
        if (integrations.installationIn(integration.id, org.id)) throw conflict(`organization: ${integration.name} is already installed there`)
        const configuration = req.body.configuration ?? {}
        // Active once the account configuration has every required property, as the hosted service does.
        const required: string[] = JSON.parse(integration.configurations).account?.required ?? []
        const status = required.every((name) => configuration[name] !== undefined && configuration[name] !== null) ? 'active' : 'pending'
        const row = integrations.install(
          { integration_id: integration.id, organization_id: org.id, status, configuration, external_ids: req.body.externalIds ?? [] },
          ctx.now
        )
        return presentInstallation(row)
      })
      return reply.code(201).send(body)
    }
  )
}
