import { NoContent } from '../../../../src-shared/schemas/common'
import {
  PermissionListQuery,
  PermissionUpdateSchema,
  SiteTeamParams,
  SiteUserParams,
  TeamPermissionList,
  UserPermissionList
} from '../../../../src-shared/schemas/permissions'
import { SiteParams } from '../../../../src-shared/schemas/sites'
import { SpacePermissionsSchema } from '../../../../src-shared/schemas/spaces'
import { grantRepository } from '../../../storage/repositories/grantRepository'
import type { SiteRow } from '../../../storage/repositories/siteRepository'
import type { Api } from '../../app'
import { read, write } from '../../../workspace/context'
import { invite, memberInPath, setGrant, teamInPath } from '../../commands/accessGrants'
import type { AccessObject } from '../../policies/accessSources'
import { listTeamPermissions, listUserPermissions } from '../../presenters/permission'
import { loadSite } from './loaders'

const tags = ['Sites']

/** A site as the grant rules see it: no general access, no collection above it. */
const asObject = (site: SiteRow): AccessObject => ({
  id: site.id,
  title: site.title,
  default_level: null,
  parent_id: null,
  organization_id: site.organization_id
})

export default function sitePermissionRoutes(app: Api) {
  const base = '/v1/orgs/:organizationId/sites/:siteId/permissions'

  app.post(
    base,
    {
      schema: {
        tags,
        summary: 'Grant a role on a site to users and teams (role null removes their grant)',
        params: SiteParams,
        body: SpacePermissionsSchema,
        response: { 204: NoContent }
      }
    },
    async (req, reply) => {
      write(req, (ctx) => invite(ctx, 'site', asObject(loadSite(ctx, req.params.organizationId, req.params.siteId, 'access')), req.body))
      return reply.code(204).send()
    }
  )

  // Members who see the site see who else holds a role on it (as on spaces; guests only through a grant).
  app.get(
    `${base}/users`,
    {
      schema: {
        tags,
        summary: 'List the users granted a role on a site',
        params: SiteParams,
        querystring: PermissionListQuery,
        response: { 200: UserPermissionList }
      }
    },
    async (req) =>
      read(req, (ctx) =>
        listUserPermissions(ctx, 'site', asObject(loadSite(ctx, req.params.organizationId, req.params.siteId, 'view')), req.query)
      )
  )

  app.get(
    `${base}/teams`,
    {
      schema: {
        tags,
        summary: 'List the teams granted a role on a site',
        params: SiteParams,
        querystring: PermissionListQuery,
        response: { 200: TeamPermissionList }
      }
    },
    async (req) =>
      read(req, (ctx) =>
        listTeamPermissions(ctx, 'site', asObject(loadSite(ctx, req.params.organizationId, req.params.siteId, 'view')), req.query)
      )
  )

  for (const type of ['user', 'team'] as const) {
    const path = `${base}/${type}s/:${type}Id`
    const params = type === 'user' ? SiteUserParams : SiteTeamParams
    const principal = (ctx: Parameters<typeof memberInPath>[0], orgId: string, p: Record<string, string>) =>
      type === 'user' ? memberInPath(ctx, orgId, p.userId!) : teamInPath(ctx, orgId, p.teamId!)

    app.patch(
      path,
      { schema: { tags, summary: `Set a ${type}'s role on a site`, params, body: PermissionUpdateSchema, response: { 204: NoContent } } },
      async (req, reply) => {
        write(req, (ctx) => {
          const site = asObject(loadSite(ctx, req.params.organizationId, req.params.siteId, 'access'))
          setGrant(
            ctx,
            'site',
            site,
            type,
            principal(ctx, site.organization_id, req.params as Record<string, string>),
            req.body.role,
            'role'
          )
        })
        return reply.code(204).send()
      }
    )

    app.delete(
      path,
      {
        schema: {
          tags,
          summary: `Remove a ${type}'s grant on a site (205: removed; 204: there was none)`,
          params,
          response: { 204: NoContent, 205: NoContent }
        }
      },
      async (req, reply) => {
        const removed = write(req, (ctx) => {
          const site = asObject(loadSite(ctx, req.params.organizationId, req.params.siteId, 'access'))
          const id = principal(ctx, site.organization_id, req.params as Record<string, string>)
          if (!ctx.repo(grantRepository).role('site', site.id, type, id)) return false
          setGrant(ctx, 'site', site, type, id, null, `${type}Id`)
          return true
        })
        return reply.code(removed ? 205 : 204).send()
      }
    )
  }
}
