import { NoContent } from '../../../../src-shared/schemas/common'
import {
  TeamCreateSchema,
  TeamList,
  TeamListParams,
  TeamListQuery,
  TeamParams,
  TeamSchema,
  TeamUpdateSchema
} from '../../../../src-shared/schemas/teams'
import { memberRepository } from '../../../storage/repositories/memberRepository'
import { teamRepository, type TeamFilter } from '../../../storage/repositories/teamRepository'
import type { Api } from '../../app'
import { read, write } from '../../../workspace/context'
import { badRequest } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { requireOrgMember, requireOrgRole } from '../../policies/access'
import { presentTeam, presentTeams } from '../../presenters/team'
import { loadTeam } from './loaders'
import teamSpaceRoutes from './teamSpaces'
import { auditChange } from '../../../workspace/audit'

const tags = ['Teams']

export default function teamRoutes(app: Api) {
  app.get(
    '/v1/orgs/:organizationId/teams',
    {
      schema: {
        tags,
        summary: 'List the teams of an organization',
        params: TeamListParams,
        querystring: TeamListQuery,
        response: { 200: TeamList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const orgId = req.params.organizationId
        requireOrgMember(ctx, orgId)
        const teams = ctx.repo(teamRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const filter: TeamFilter = {
          owner: req.query.owner || undefined,
          title: req.query.title ? req.query.title.toLowerCase() : undefined
        }
        const [afterSeq = 0] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = teams.list(orgId, filter, afterSeq, limit + 1)
        const count = cachedCount(ctx, `teams:${orgId}:${filter.owner ?? ''}:${filter.title ?? ''}`, () => teams.count(orgId, filter))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => presentTeams(orgId, page, ctx)
        )
      })
  )

  app.put(
    '/v1/orgs/:organizationId/teams',
    { schema: { tags, summary: 'Create a team', params: TeamListParams, body: TeamCreateSchema, response: { 201: TeamSchema } } },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const { org } = requireOrgRole(ctx, req.params.organizationId, 'admin')
        const ids = [...new Set(req.body.members ?? [])]
        const found = ctx.repo(memberRepository).getMany(org.id, ids)
        const unknown = ids.find((id) => !found.has(id))
        if (unknown) throw badRequest(`members: ${unknown} is not a member of the organization`)
        const teams = ctx.repo(teamRepository)
        const team = teams.create(org.id, req.body.title, ctx.now)
        for (const id of ids) teams.addMember(team.id, id, 'member', ctx.now)
        return presentTeam(team, ctx)
      })
      return reply.code(201).send(body)
    }
  )

  app.get(
    '/v1/orgs/:organizationId/teams/:teamId',
    { schema: { tags, summary: 'Get a team', params: TeamParams, response: { 200: TeamSchema } } },
    async (req) => read(req, (ctx) => presentTeam(loadTeam(ctx, req.params.organizationId, req.params.teamId).team, ctx))
  )

  app.patch(
    '/v1/orgs/:organizationId/teams/:teamId',
    {
      schema: {
        tags,
        summary: 'Rename a team (admins and team owners)',
        params: TeamParams,
        body: TeamUpdateSchema,
        response: { 200: TeamSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { team } = loadTeam(ctx, req.params.organizationId, req.params.teamId, 'admin')
        const teams = ctx.repo(teamRepository)
        teams.setTitle(team.id, req.body.title)
        auditChange(ctx, 'title', team.title, req.body.title)
        return presentTeam(teams.get(team.id)!, ctx)
      })
  )

  app.delete(
    '/v1/orgs/:organizationId/teams/:teamId',
    { schema: { tags, summary: 'Delete a team and its grants', params: TeamParams, response: { 204: NoContent } } },
    async (req, reply) => {
      write(req, (ctx) => {
        const { team } = loadTeam(ctx, req.params.organizationId, req.params.teamId, 'delete')
        ctx.repo(teamRepository).remove(team.id)
      })
      return reply.code(204).send()
    }
  )

  teamSpaceRoutes(app)
}
