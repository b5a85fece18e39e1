import { NoContent } from '../../../../src-shared/schemas/common'
import {
  TeamMemberList,
  TeamMemberParams,
  TeamMemberSetSchema,
  TeamMembersQuery,
  TeamMembersUpdateSchema,
  TeamParams,
  type TeamRole
} from '../../../../src-shared/schemas/teams'
import { memberRepository } from '../../../storage/repositories/memberRepository'
import { teamRepository } from '../../../storage/repositories/teamRepository'
import type { Api } from '../../app'
import { read, write } from '../../../workspace/context'
import { badRequest, notFound } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { MEMBER_RULES } from '../../policies/member'
import { authorizeTeam } from '../../policies/team'
import { presentMembers } from '../../presenters/member'
import { emptyBodyIsObject } from '../../validation'
import { loadTeam } from './loaders'

const tags = ['Teams']

export default function teamMemberRoutes(app: Api) {
  app.get(
    '/v1/orgs/:organizationId/teams/:teamId/members',
    {
      schema: {
        tags,
        summary: 'List the members of a team',
        params: TeamParams,
        querystring: TeamMembersQuery,
        response: { 200: TeamMemberList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { org, team, actor } = loadTeam(ctx, req.params.organizationId, req.params.teamId)
        const teams = ctx.repo(teamRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [afterSeq = 0] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = teams.members(team.id, afterSeq, limit + 1)
        const count = cachedCount(ctx, `team-members:${team.id}`, () => teams.countMembers(team.id))
        const caller = { userId: ctx.actor.id, orgRole: actor.orgRole }
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => {
            const byUser = ctx.repo(memberRepository).getMany(
              org.id,
              page.map((r) => r.user_id)
            )
            const members = presentMembers(
              org.id,
              page.map((r) => byUser.get(r.user_id)!),
              ctx
            )
            return page.map((r, i) => ({
              organization: members[i]!,
              team: { role: r.role },
              permissions: { view: MEMBER_RULES.view(caller, r.user_id) }
            }))
          }
        )
      })
  )

  app.put(
    '/v1/orgs/:organizationId/teams/:teamId/members',
    {
      schema: {
        tags,
        summary: 'Add, remove and set the roles of team members (by user id or e-mail)',
        params: TeamParams,
        body: TeamMembersUpdateSchema,
        response: { 204: NoContent }
      },
      preValidation: emptyBodyIsObject
    },
    async (req, reply) => {
      write(req, (ctx) => {
        const { org, team } = loadTeam(ctx, req.params.organizationId, req.params.teamId, 'admin')
        const add = req.body.add ?? []
        const remove = req.body.remove ?? []
        const memberships = Object.entries(req.body.memberships ?? {})
        const resolved = ctx.repo(memberRepository).resolve(org.id, [...add, ...remove, ...memberships.map(([ref]) => ref)])
        const lists: [string, string[]][] = [
          ['add', add],
          ['remove', remove],
          ['memberships', memberships.map(([ref]) => ref)]
        ]
        for (const [field, refs] of lists) {
          const unknown = refs.find((ref) => !resolved.has(ref))
          if (unknown !== undefined) throw badRequest(`${field}: ${unknown} is not a member of the organization`)
        }
        // A user in both `add` and `remove` is removed; `memberships` sets the role of everyone it names.
        const removed = new Set(remove.map((ref) => resolved.get(ref)!))
        const roles = new Map<string, TeamRole>(memberships.map(([ref, m]) => [resolved.get(ref)!, m.role]))
        const teams = ctx.repo(teamRepository)
        for (const ref of add) {
          const id = resolved.get(ref)!
          if (!removed.has(id) && !roles.has(id)) teams.addMember(team.id, id, 'member', ctx.now)
        }
        for (const [id, role] of roles) if (!removed.has(id)) teams.setMember(team.id, id, role, ctx.now)
        for (const id of removed) teams.removeMember(team.id, id)
      })
      return reply.code(204).send()
    }
  )

  app.put(
    '/v1/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      schema: {
        tags,
        summary: 'Add a member to a team or set their team role',
        params: TeamMemberParams,
        body: TeamMemberSetSchema,
        response: { 204: NoContent }
      },
      preValidation: emptyBodyIsObject
    },
    async (req, reply) => {
      write(req, (ctx) => {
        const { org, team } = loadTeam(ctx, req.params.organizationId, req.params.teamId, 'admin')
        if (!ctx.repo(memberRepository).get(org.id, req.params.userId)) throw notFound('Member')
        const teams = ctx.repo(teamRepository)
        // Without `role`, a new member joins as `member` and an existing one keeps their role.
        const role = req.body.role ?? teams.membership(team.id, req.params.userId)?.role ?? 'member'
        teams.setMember(team.id, req.params.userId, role, ctx.now)
      })
      return reply.code(204).send()
    }
  )

  app.delete(
    '/v1/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      schema: {
        tags,
        summary: 'Remove a member from a team (managers, or the member leaving)',
        params: TeamMemberParams,
        response: { 204: NoContent }
      }
    },
    async (req, reply) => {
      write(req, (ctx) => {
        const { team, actor } = loadTeam(ctx, req.params.organizationId, req.params.teamId)
        if (req.params.userId !== ctx.actor.id) authorizeTeam(actor, 'admin')
        if (!ctx.repo(teamRepository).removeMember(team.id, req.params.userId)) throw notFound('Team member')
      })
      return reply.code(204).send()
    }
  )
}
