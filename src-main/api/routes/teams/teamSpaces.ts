import type { Role } from '../../../../src-shared/schemas/common'
import { TeamSpacePermissionList, PermissionListQuery } from '../../../../src-shared/schemas/permissions'
import { TeamParams } from '../../../../src-shared/schemas/teams'
import { grantRepository } from '../../../storage/repositories/grantRepository'
import type { Api } from '../../app'
import { read } from '../../../workspace/context'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { loadTeam } from './loaders'

export default function teamSpaceRoutes(app: Api) {
  // Whoever sees the team sees its grants: its members hold these roles themselves.
  app.get(
    '/v1/orgs/:organizationId/teams/:teamId/spaces',
    {
      schema: {
        tags: ['Teams'],
        summary: 'List the spaces granted to a team, with its role on each',
        params: TeamParams,
        querystring: PermissionListQuery,
        response: { 200: TeamSpacePermissionList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { team } = loadTeam(ctx, req.params.organizationId, req.params.teamId)
        const grants = ctx.repo(grantRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const rows = grants.teamSpaces(team.id, decodeCursor(req.query.page, ['string', 'string'] as const), limit + 1)
        const count = cachedCount(ctx, `team-spaces:${team.id}`, () => grants.countTeamSpaces(team.id))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.title, r.id],
          (page) => page.map((r) => ({ permission: r.role as Role, space: { id: r.id, title: r.title } }))
        )
      })
  )
}
