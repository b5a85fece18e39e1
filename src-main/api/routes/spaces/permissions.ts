import { NoContent } from '../../../../src-shared/schemas/common'
import {
  AggregatePermissionList,
  AggregatePermissionQuery,
  PermissionListQuery,
  PermissionUpdateSchema,
  SpaceTeamParams,
  SpaceUserParams,
  TeamPermissionList,
  UserPermissionList
} from '../../../../src-shared/schemas/permissions'
import { SpaceParams, SpacePermissionsSchema } from '../../../../src-shared/schemas/spaces'
import { grantRepository } from '../../../storage/repositories/grantRepository'
import type { Api } from '../../app'
import { read, write, type Ctx } from '../../../workspace/context'
import { forbidden } from '../../../base/errors'
import { invite, memberInPath, setGrant, teamInPath } from '../../commands/accessGrants'
import { membership, spaceRoles } from '../../policies/access'
import { listAggregatePermissions, listTeamPermissions, listUserPermissions } from '../../presenters/permission'
import { loadSpace } from './loaders'

const tags = ['Spaces']

/** Lists of access need the read role and an organization role: guests do not see the organization's people. */
function loadSpaceForAccessList(ctx: Ctx, spaceId: string) {
  const { space } = loadSpace(ctx, spaceId, 'view')
  if (!membership(ctx, space.organization_id)?.role) throw forbidden('Guests cannot see who has access to a space')
  return space
}

export default function spacePermissionRoutes(app: Api) {
  app.post(
    '/v1/spaces/:spaceId/permissions',
    {
      schema: {
        tags,
        summary: 'Grant a role on a space to users and teams (role null removes their grant)',
        params: SpaceParams,
        body: SpacePermissionsSchema,
        response: { 204: NoContent }
      }
    },
    async (req, reply) => {
      write(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'admin')
        invite(ctx, 'space', space, req.body)
      })
      return reply.code(204).send()
    }
  )

  app.get(
    '/v1/spaces/:spaceId/permissions/users',
    { schema: { tags, summary: 'List the users granted a role on a space', params: SpaceParams, querystring: PermissionListQuery, response: { 200: UserPermissionList } } },
    async (req) => read(req, (ctx) => listUserPermissions(ctx, 'space', loadSpaceForAccessList(ctx, req.params.spaceId), req.query))
  )

  app.get(
    '/v1/spaces/:spaceId/permissions/teams',
    { schema: { tags, summary: 'List the teams granted a role on a space', params: SpaceParams, querystring: PermissionListQuery, response: { 200: TeamPermissionList } } },
    async (req) => read(req, (ctx) => listTeamPermissions(ctx, 'space', loadSpaceForAccessList(ctx, req.params.spaceId), req.query))
  )

  app.get(
    '/v1/spaces/:spaceId/permissions/aggregate',
    {
      schema: {
        tags,
        summary: "List everyone's role on a space and where it comes from",
        params: SpaceParams,
        querystring: AggregatePermissionQuery,
        response: { 200: AggregatePermissionList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const space = loadSpaceForAccessList(ctx, req.params.spaceId)
        return listAggregatePermissions(ctx, 'space', space, req.query, (userId) => spaceRoles(ctx, space.organization_id, [space], userId).get(space.id) ?? null)
      })
  )

  app.patch(
    '/v1/spaces/:spaceId/permissions/users/:userId',
    { schema: { tags, summary: "Set a user's role on a space", params: SpaceUserParams, body: PermissionUpdateSchema, response: { 204: NoContent } } },
    async (req, reply) => {
      write(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'admin')
        setGrant(ctx, 'space', space, 'user', memberInPath(ctx, space.organization_id, req.params.userId), req.body.role, 'role')
      })
      return reply.code(204).send()
    }
  )

  app.delete(
    '/v1/spaces/:spaceId/permissions/users/:userId',
    { schema: { tags, summary: "Remove a user's grant on a space (205: removed; 204: there was none)", params: SpaceUserParams, response: { 204: NoContent, 205: NoContent } } },
    async (req, reply) => {
      const removed = write(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'admin')
        const userId = memberInPath(ctx, space.organization_id, req.params.userId)
        if (!ctx.repo(grantRepository).role('space', space.id, 'user', userId)) return false
        setGrant(ctx, 'space', space, 'user', userId, null, 'userId')
        return true
      })
      return reply.code(removed ? 205 : 204).send()
    }
  )

  app.patch(
    '/v1/spaces/:spaceId/permissions/teams/:teamId',
    { schema: { tags, summary: "Set a team's role on a space", params: SpaceTeamParams, body: PermissionUpdateSchema, response: { 204: NoContent } } },
    async (req, reply) => {
      write(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'admin')
        setGrant(ctx, 'space', space, 'team', teamInPath(ctx, space.organization_id, req.params.teamId), req.body.role, 'role')
      })
      return reply.code(204).send()
    }
  )

  app.delete(
    '/v1/spaces/:spaceId/permissions/teams/:teamId',
    { schema: { tags, summary: "Remove a team's grant on a space (205: removed; 204: there was none)", params: SpaceTeamParams, response: { 204: NoContent, 205: NoContent } } },
    async (req, reply) => {
      const removed = write(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'admin')
        const teamId = teamInPath(ctx, space.organization_id, req.params.teamId)
        if (!ctx.repo(grantRepository).role('space', space.id, 'team', teamId)) return false
        setGrant(ctx, 'space', space, 'team', teamId, null, 'teamId')
        return true
      })
      return reply.code(removed ? 205 : 204).send()
    }
  )
}
