import type { TSchema } from 'typebox'
import { NoContent } from '../../../src-shared/schemas/common'
import {
  AggregatePermissionList,
  AggregatePermissionQuery,
  PermissionListQuery,
  PermissionUpdateSchema,
  TeamPermissionList,
  UserPermissionList
} from '../../../src-shared/schemas/permissions'
import { SpacePermissionsSchema } from '../../../src-shared/schemas/spaces'
import type { Role } from '../../../src-shared/schemas/common'
import { grantRepository } from '../../storage/repositories/grantRepository'
import type { Api } from '../app'
import { read, write, type Ctx } from '../../workspace/context'
import { forbidden } from '../../base/errors'
import { invite, memberInPath, setGrant, teamInPath } from '../commands/accessGrants'
import { membership } from '../policies/access'
import type { AccessObject } from '../policies/accessSources'
import { listAggregatePermissions, listTeamPermissions, listUserPermissions } from '../presenters/permission'

/** What the access routes of one kind of object (a space, a collection) need to know about it. */
export interface GrantRoutesOf<T extends AccessObject & { organization_id: string }> {
  kind: 'space' | 'collection'
  /** The path's prefix and its id parameter: `/v1/spaces`, `spaceId`. */
  base: string
  param: string
  tags: string[]
  params: TSchema
  userParams: TSchema
  teamParams: TSchema
  /** Loads the object for the caller, who needs `view` or `admin` on it (404/403 as its own routes answer). */
  load(ctx: Ctx, id: string, need: 'view' | 'admin'): T
  /** The caller-independent effective role of a user on the object (what the access checks decide). */
  roleOf(ctx: Ctx, object: T, userId: string): Role | null
}

/**
 * The access management routes of a space or a collection: invite, the users' and teams' lists, everyone's
 * effective role with its sources, and a user's or a team's grant changed or removed.
 */
export function grantRoutes<T extends AccessObject & { organization_id: string }>(app: Api, of: GrantRoutesOf<T>): void {
  const { kind, base, param, tags } = of
  const path = `${base}/:${param}/permissions`
  const idOf = (req: { params: unknown }) => (req.params as Record<string, string>)[param]!
  // Lists of access need the read role and an organization role: guests do not see the organization's people.
  const forList = (ctx: Ctx, id: string) => {
    const object = of.load(ctx, id, 'view')
    if (!membership(ctx, object.organization_id)?.role) throw forbidden(`Guests cannot see who has access to a ${kind}`)
    return object
  }

  app.post(
    path,
    {
      schema: {
        tags,
        summary: `Grant a role on a ${kind} to users and teams (role null removes their grant)`,
        params: of.params,
        body: SpacePermissionsSchema,
        response: { 204: NoContent }
      }
    },
    async (req, reply) => {
      write(req, (ctx) =>
        invite(ctx, kind, of.load(ctx, idOf(req), 'admin'), req.body as { role: Role | null; users?: string[]; teams?: string[] })
      )
      return reply.code(204).send()
    }
  )

  app.get(
    `${path}/users`,
    {
      schema: {
        tags,
        summary: `List the users granted a role on a ${kind}`,
        params: of.params,
        querystring: PermissionListQuery,
        response: { 200: UserPermissionList }
      }
    },
    async (req) =>
      read(req, (ctx) => listUserPermissions(ctx, kind, forList(ctx, idOf(req)), req.query as { page?: string; limit?: number }))
  )

  app.get(
    `${path}/teams`,
    {
      schema: {
        tags,
        summary: `List the teams granted a role on a ${kind}`,
        params: of.params,
        querystring: PermissionListQuery,
        response: { 200: TeamPermissionList }
      }
    },
    async (req) =>
      read(req, (ctx) => listTeamPermissions(ctx, kind, forList(ctx, idOf(req)), req.query as { page?: string; limit?: number }))
  )

  app.get(
    `${path}/aggregate`,
    {
      schema: {
        tags,
        summary: `List everyone's role on a ${kind} and where it comes from`,
        params: of.params,
        querystring: AggregatePermissionQuery,
        response: { 200: AggregatePermissionList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const object = forList(ctx, idOf(req))
        return listAggregatePermissions(ctx, kind, object, req.query as never, (userId) => of.roleOf(ctx, object, userId))
      })
  )

  for (const type of ['user', 'team'] as const) {
    const principal = `${type}Id`
    const principalOf = (ctx: Ctx, object: T, id: string) =>
      type === 'user' ? memberInPath(ctx, object.organization_id, id) : teamInPath(ctx, object.organization_id, id)
    const principalParam = (req: { params: unknown }) => (req.params as Record<string, string>)[principal]!

    app.patch(
      `${path}/${type}s/:${principal}`,
      {
        schema: {
          tags,
          summary: `Set a ${type}'s role on a ${kind}`,
          params: type === 'user' ? of.userParams : of.teamParams,
          body: PermissionUpdateSchema,
          response: { 204: NoContent }
        }
      },
      async (req, reply) => {
        write(req, (ctx) => {
          const object = of.load(ctx, idOf(req), 'admin')
          setGrant(ctx, kind, object, type, principalOf(ctx, object, principalParam(req)), (req.body as { role: Role }).role, 'role')
        })
        return reply.code(204).send()
      }
    )

    app.delete(
      `${path}/${type}s/:${principal}`,
      {
        schema: {
          tags,
          summary: `Remove a ${type}'s grant on a ${kind} (205: removed; 204: there was none)`,
          params: type === 'user' ? of.userParams : of.teamParams,
          response: { 204: NoContent, 205: NoContent }
        }
      },
      async (req, reply) => {
        const removed = write(req, (ctx) => {
          const object = of.load(ctx, idOf(req), 'admin')
          const id = principalOf(ctx, object, principalParam(req))
          if (!ctx.repo(grantRepository).role(kind, object.id, type, id)) return false
          setGrant(ctx, kind, object, type, id, null, principal)
          return true
        })
        return reply.code(removed ? 205 : 204).send()
      }
    )
  }
}
