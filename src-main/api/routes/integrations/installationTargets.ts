import { NoContent, PageQuery } from '../../../../src-shared/schemas/common'
import { isComplete } from '../../../../src-shared/integrationConfiguration'
import {
  InstallationParams,
  SiteInstallationCreateSchema,
  SiteInstallationList,
  SiteInstallationParams,
  SiteInstallationSchema,
  SpaceInstallationCreateSchema,
  SpaceInstallationList,
  SpaceInstallationParams,
  SpaceInstallationSchema,
  TargetInstallationUpdateSchema
} from '../../../../src-shared/schemas/integrations'
import Type from 'typebox'
import { installationRepository, type InstallationTarget } from '../../../storage/repositories/installationRepository'
import type { InstallationRow, IntegrationRow } from '../../../storage/repositories/integrationRepository'
import type { Api } from '../../app'
import { read, write } from '../../../workspace/context'
import type { Ctx } from '../../../workspace/context'
import { badRequest, conflict, notFound } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { presentTargetInstallation } from '../../presenters/integration'
import { loadSpace } from '../spaces/loaders'
import { loadSite } from '../sites/loaders'
import { checkConfiguration, checkTarget, configurationSchema, loadInstallation } from './installationLoaders'

const tags = ['Integrations']

/**
 * The space or site a request names, checked for a write: space admins install on their space; on a site, the
 * organization role that manages sites (`create`, as for every site setting). 404 when the caller does not see it,
 * 400 when it is in another organization than the installation.
 */
function loadTarget(ctx: Ctx, target: InstallationTarget, installation: InstallationRow, id: string, field: string): void {
  if (target === 'space') {
    const { space } = loadSpace(ctx, id, 'admin')
    if (space.organization_id !== installation.organization_id)
      throw badRequest(`${field}: ${id} is not in the organization the integration is installed in`)
  } else {
    loadSite(ctx, installation.organization_id, id, 'customize')
  }
}

function existing(ctx: Ctx, target: InstallationTarget, installation: InstallationRow, id: string) {
  const row = ctx.repo(installationRepository).target(target, installation.id, id)
  if (!row) throw notFound(target === 'space' ? 'Space installation' : 'Site installation')
  return row
}

export default function installationTargetRoutes(app: Api) {
  for (const target of ['space', 'site'] as const) {
    const plural = `${target}s`
    const idParam = `${target}Id` as const
    const schemas =
      target === 'space'
        ? {
            one: SpaceInstallationSchema,
            list: SpaceInstallationList,
            params: SpaceInstallationParams,
            create: SpaceInstallationCreateSchema
          }
        : { one: SiteInstallationSchema, list: SiteInstallationList, params: SiteInstallationParams, create: SiteInstallationCreateSchema }
    const base = `/v1/integrations/:integrationName/installations/:installationId/${plural}`
    // One route body serves both targets; the response schema of each route checks the shape.
    const present = (row: Parameters<typeof presentTargetInstallation>[1], integration: IntegrationRow, ctx: Ctx) =>
      presentTargetInstallation(target, row, integration.name, ctx) as never

    app.get(
      base,
      {
        schema: {
          tags,
          summary: `The ${plural} an installation is installed on (members of its organization)`,
          params: InstallationParams,
          querystring: Type.Object(PageQuery),
          response: { 200: schemas.list }
        }
      },
      async (req) =>
        read(req, (ctx) => {
          const { integration, installation } = loadInstallation(ctx, req.params, 'view')
          const installations = ctx.repo(installationRepository)
          const limit = req.query.limit ?? DEFAULT_LIMIT
          const [after = 0] = decodeCursor(req.query.page, ['integer']) ?? []
          const rows = installations.listTargets(target, installation.id, after, limit + 1)
          const count = cachedCount(ctx, `${target}-installations:${installation.id}`, () =>
            installations.countTargets(target, installation.id)
          )
          return envelope(
            rows,
            limit,
            count,
            (r) => [r.seq],
            (page) => page.map((r) => present(r, integration, ctx))
          )
        })
    )

    app.post(
      base,
      {
        schema: {
          tags,
          summary: `Install on a ${target} of the installation\u2019s organization (${target === 'space' ? 'space admins' : 'site managers'}); pending until its required ${target} configuration is set`,
          params: InstallationParams,
          body: schemas.create,
          response: { 201: schemas.one }
        }
      },
      async (req, reply) => {
        const body = write(req, (ctx) => {
          const { integration, installation } = loadInstallation(ctx, req.params, 'view')
          const id = (req.body as unknown as Record<string, string>)[target]!
          checkTarget(integration, target)
          loadTarget(ctx, target, installation, id, target)
          const installations = ctx.repo(installationRepository)
          if (installations.target(target, installation.id, id)) throw conflict(`${target}: ${integration.name} is already installed there`)
          const configuration = req.body.configuration ?? {}
          const schema = configurationSchema(integration, target)
          checkConfiguration(schema, configuration, false)
          const row = installations.installOn(
            target,
            installation.id,
            id,
            isComplete(schema, configuration) ? 'active' : 'pending',
            configuration,
            ctx.now
          )
          return present(row, integration, ctx)
        })
        return reply.code(201).send(body)
      }
    )

    app.get(
      `${base}/:${idParam}`,
      { schema: { tags, summary: `An installation on a ${target}`, params: schemas.params, response: { 200: schemas.one } } },
      async (req) =>
        read(req, (ctx) => {
          const { integration, installation } = loadInstallation(ctx, req.params, 'view')
          return present(existing(ctx, target, installation, (req.params as Record<string, string>)[idParam]!), integration, ctx)
        })
    )

    app.patch(
      `${base}/:${idParam}`,
      {
        schema: {
          tags,
          summary: `Replace the configuration of an installation on a ${target} (checked against the integration\u2019s ${target} schema)`,
          params: schemas.params,
          body: TargetInstallationUpdateSchema,
          response: { 200: schemas.one }
        }
      },
      async (req) =>
        write(req, (ctx) => {
          const { integration, installation } = loadInstallation(ctx, req.params, 'view')
          const id = (req.params as Record<string, string>)[idParam]!
          loadTarget(ctx, target, installation, id, idParam)
          const row = existing(ctx, target, installation, id)
          const schema = configurationSchema(integration, target)
          checkConfiguration(schema, req.body.configuration, true)
          return present(
            ctx.repo(installationRepository).updateTarget(target, row, 'active', req.body.configuration, ctx.now),
            integration,
            ctx
          )
        })
    )

    app.delete(
      `${base}/:${idParam}`,
      { schema: { tags, summary: `Uninstall from a ${target}`, params: schemas.params, response: { 204: NoContent } } },
      async (req, reply) => {
        write(req, (ctx) => {
          const { installation } = loadInstallation(ctx, req.params, 'view')
          const id = (req.params as Record<string, string>)[idParam]!
          loadTarget(ctx, target, installation, id, idParam)
          existing(ctx, target, installation, id)
          ctx.repo(installationRepository).removeTarget(target, installation.id, id)
        })
        return reply.code(204).send()
      }
    )
  }
}
