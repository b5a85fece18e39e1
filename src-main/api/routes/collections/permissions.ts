import { NoContent } from '../../../../src-shared/schemas/common'
import {
  AggregatePermissionList,
  AggregatePermissionQuery,
  PermissionListQuery,
  PermissionUpdateSchema,
  CollectionTeamParams,
  CollectionUserParams,
  TeamPermissionList,
  UserPermissionList
} from '../../../../src-shared/schemas/permissions'
import { CollectionParams } from '../../../../src-shared/schemas/collections'
import { SpacePermissionsSchema } from '../../../../src-shared/schemas/spaces'
import { grantRepository } from '../../../storage/repositories/grantRepository'
import type { Api } from '../../app'
import { read, write, type Ctx } from '../../../workspace/context'
import { forbidden } from '../../../base/errors'
import { invite, memberInPath, setGrant, teamInPath } from '../../commands/accessGrants'
import { collectionRole, membership } from '../../policies/access'
import { listAggregatePermissions, listTeamPermissions, listUserPermissions } from '../../presenters/permission'
import { loadCollection } from './load'

const tags = ['Collections']

/** Lists of access need the read role and an organization role: guests do not see the organization's people. */
function loadCollectionForAccessList(ctx: Ctx, collectionId: string) {
  const { row } = loadCollection(ctx, collectionId, 'view')
  if (!membership(ctx, row.organization_id)?.role) throw forbidden('Guests cannot see who has access to a collection')
  return row
}

export default function collectionPermissionRoutes(app: Api) {
  app.post(
    '/v1/collections/:collectionId/permissions',
    {
      schema: {
        tags,
        summary: 'Grant a role on a collection to users and teams (role null removes their grant)',
        params: CollectionParams,
        body: SpacePermissionsSchema,
        response: { 204: NoContent }
      }
    },
    async (req, reply) => {
      write(req, (ctx) => {
        const { row: collection } = loadCollection(ctx, req.params.collectionId, 'admin')
        invite(ctx, 'collection', collection, req.body)
      })
      return reply.code(204).send()
    }
  )

  app.get(
    '/v1/collections/:collectionId/permissions/users',
    { schema: { tags, summary: 'List the users granted a role on a collection', params: CollectionParams, querystring: PermissionListQuery, response: { 200: UserPermissionList } } },
    async (req) => read(req, (ctx) => listUserPermissions(ctx, 'collection', loadCollectionForAccessList(ctx, req.params.collectionId), req.query))
  )

  app.get(
    '/v1/collections/:collectionId/permissions/teams',
    { schema: { tags, summary: 'List the teams granted a role on a collection', params: CollectionParams, querystring: PermissionListQuery, response: { 200: TeamPermissionList } } },
    async (req) => read(req, (ctx) => listTeamPermissions(ctx, 'collection', loadCollectionForAccessList(ctx, req.params.collectionId), req.query))
  )

  app.get(
    '/v1/collections/:collectionId/permissions/aggregate',
    {
      schema: {
        tags,
        summary: "List everyone's role on a collection and where it comes from",
        params: CollectionParams,
        querystring: AggregatePermissionQuery,
        response: { 200: AggregatePermissionList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const collection = loadCollectionForAccessList(ctx, req.params.collectionId)
        return listAggregatePermissions(ctx, 'collection', collection, req.query, (userId) => collectionRole(ctx, collection, userId))
      })
  )

  app.patch(
    '/v1/collections/:collectionId/permissions/users/:userId',
    { schema: { tags, summary: "Set a user's role on a collection", params: CollectionUserParams, body: PermissionUpdateSchema, response: { 204: NoContent } } },
    async (req, reply) => {
      write(req, (ctx) => {
        const { row: collection } = loadCollection(ctx, req.params.collectionId, 'admin')
        setGrant(ctx, 'collection', collection, 'user', memberInPath(ctx, collection.organization_id, req.params.userId), req.body.role, 'role')
      })
      return reply.code(204).send()
    }
  )

  app.delete(
    '/v1/collections/:collectionId/permissions/users/:userId',
    { schema: { tags, summary: "Remove a user's grant on a collection (205: removed; 204: there was none)", params: CollectionUserParams, response: { 204: NoContent, 205: NoContent } } },
    async (req, reply) => {
      const removed = write(req, (ctx) => {
        const { row: collection } = loadCollection(ctx, req.params.collectionId, 'admin')
        const userId = memberInPath(ctx, collection.organization_id, req.params.userId)
        if (!ctx.repo(grantRepository).role('collection', collection.id, 'user', userId)) return false
        setGrant(ctx, 'collection', collection, 'user', userId, null, 'userId')
        return true
      })
      return reply.code(removed ? 205 : 204).send()
    }
  )

  app.patch(
    '/v1/collections/:collectionId/permissions/teams/:teamId',
    { schema: { tags, summary: "Set a team's role on a collection", params: CollectionTeamParams, body: PermissionUpdateSchema, response: { 204: NoContent } } },
    async (req, reply) => {
      write(req, (ctx) => {
        const { row: collection } = loadCollection(ctx, req.params.collectionId, 'admin')
        setGrant(ctx, 'collection', collection, 'team', teamInPath(ctx, collection.organization_id, req.params.teamId), req.body.role, 'role')
      })
      return reply.code(204).send()
    }
  )

  app.delete(
    '/v1/collections/:collectionId/permissions/teams/:teamId',
    { schema: { tags, summary: "Remove a team's grant on a collection (205: removed; 204: there was none)", params: CollectionTeamParams, response: { 204: NoContent, 205: NoContent } } },
    async (req, reply) => {
      const removed = write(req, (ctx) => {
        const { row: collection } = loadCollection(ctx, req.params.collectionId, 'admin')
        const teamId = teamInPath(ctx, collection.organization_id, req.params.teamId)
        if (!ctx.repo(grantRepository).role('collection', collection.id, 'team', teamId)) return false
        setGrant(ctx, 'collection', collection, 'team', teamId, null, 'teamId')
        return true
      })
      return reply.code(removed ? 205 : 204).send()
    }
  )
}
