import type { Role } from '../../../../src-shared/schemas/common'
import { MemberParams, MemberSpaceList, MemberSpacesQuery } from '../../../../src-shared/schemas/members'
import { MemberTeamList, MemberTeamsQuery } from '../../../../src-shared/schemas/teams'
import { memberRepository, type SortOrder } from '../../../storage/repositories/memberRepository'
import type { SpaceRow } from '../../../storage/repositories/spaceRepository'
import { teamRepository } from '../../../storage/repositories/teamRepository'
import type { Api } from '../../app'
import { read, type Ctx } from '../../../workspace/context'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { spaceRoles } from '../../policies/access'
import { presentSpaces } from '../../presenters/space'
import { presentTeams } from '../../presenters/team'
import { loadMember } from './loaders'

const tags = ['Members']

/** Spaces are read in chunks and filtered by the member's effective role (one batch of role queries each). */
const CHUNK = 500

/**
 * The next `want` live spaces of the organization (in `order`, after `afterSeq`) on which `userId` has an
 * effective role, with that role.
 */
function spacesWithRole(ctx: Ctx, orgId: string, userId: string, order: SortOrder, afterSeq: number | undefined, want: number) {
  const found: { row: SpaceRow; role: Role }[] = []
  const members = ctx.repo(memberRepository)
  let cursor = afterSeq
  while (found.length < want) {
    const chunk = members.liveSpaces(orgId, order, cursor, Math.max(CHUNK, want))
    if (!chunk.length) break
    const roles = spaceRoles(ctx, orgId, chunk, userId)
    for (const row of chunk) {
      const role = roles.get(row.id)
      if (role) found.push({ row, role })
      if (found.length === want) break
    }
    cursor = chunk[chunk.length - 1]!.seq
  }
  return found
}

function countSpacesWithRole(ctx: Ctx, orgId: string, userId: string): number {
  const members = ctx.repo(memberRepository)
  let total = 0
  let cursor: number | undefined
  for (;;) {
    const chunk = members.liveSpaceKeys(orgId, cursor, CHUNK * 2)
    if (!chunk.length) return total
    for (const role of spaceRoles(ctx, orgId, chunk, userId).values()) if (role) total++
    cursor = chunk[chunk.length - 1]!.seq
  }
}

export default function memberListRoutes(app: Api) {
  app.get(
    '/v1/orgs/:organizationId/members/:userId/spaces',
    {
      schema: {
        tags,
        summary: 'Spaces a member has a role on, with that role',
        params: MemberParams,
        querystring: MemberSpacesQuery,
        response: { 200: MemberSpaceList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { org, target } = loadMember(ctx, req.params.organizationId, req.params.userId, 'listSpaces')
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const order = req.query.order ?? 'desc'
        const [afterSeq] = decodeCursor(req.query.page, ['integer']) ?? []
        const found = spacesWithRole(ctx, org.id, target.user_id, order, afterSeq, limit + 1)
        const count = cachedCount(ctx, `member-spaces:${org.id}:${target.user_id}`, () => countSpacesWithRole(ctx, org.id, target.user_id))
        return envelope(
          found,
          limit,
          count,
          (f) => [f.row.seq],
          (page) => {
            // The member's roles are the caller's own when they list their own spaces.
            const callerRoles = target.user_id === ctx.actor.id ? new Map(page.map((f) => [f.row.id, f.role])) : undefined
            const spaces = presentSpaces(
              page.map((f) => f.row),
              ctx,
              callerRoles
            )
            return page.map((f, i) => ({ permission: f.role, space: spaces[i]! }))
          }
        )
      })
  )

  app.get(
    '/v1/orgs/:organizationId/members/:userId/teams',
    {
      schema: {
        tags,
        summary: 'Teams a member belongs to, with their team role',
        params: MemberParams,
        querystring: MemberTeamsQuery,
        response: { 200: MemberTeamList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { org, target } = loadMember(ctx, req.params.organizationId, req.params.userId, 'listTeams')
        const teams = ctx.repo(teamRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const title = req.query.title ? req.query.title.toLowerCase() : undefined
        const [afterSeq = 0] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = teams.listForMember(org.id, target.user_id, title, afterSeq, limit + 1)
        const count = cachedCount(ctx, `member-teams:${org.id}:${target.user_id}:${title ?? ''}`, () =>
          teams.countForMember(org.id, target.user_id, title)
        )
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => {
            const presented = presentTeams(org.id, page, ctx)
            return page.map((r, i) => ({ team: presented[i]!, member: { role: r.team_role } }))
          }
        )
      })
  )
}
