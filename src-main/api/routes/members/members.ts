import { NoContent } from '../../../../src-shared/schemas/common'
import {
  MemberList,
  MemberListQuery,
  MemberParams,
  MemberSchema,
  MemberUpdateSchema,
  PingResultSchema
} from '../../../../src-shared/schemas/members'
import { OrgParams } from '../../../../src-shared/schemas/orgs'
import { memberRepository, type MemberFilter, type MemberRow } from '../../../storage/repositories/memberRepository'
import type { Api } from '../../app'
import { read, write, type Ctx } from '../../../workspace/context'
import { conflict } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { requireOrg, requireOrgMember } from '../../policies/access'
import { presentMember, presentMembers } from '../../presenters/member'
import { loadMember } from './loaders'
import { visitorClaimsKey } from '../../../preview/visitor'
import { signVisitorClaims } from './visitorClaims'
import { auditChange } from '../../../workspace/audit'

const tags = ['Members']

/** Refuses a change that would leave the organization without an active admin. */
function keepAnAdmin(ctx: Ctx, target: MemberRow, field: string, what: string): void {
  if (target.role !== 'admin' || target.disabled) return
  if (ctx.repo(memberRepository).otherActiveAdmins(target.organization_id, target.user_id) > 0) return
  throw conflict(`${field}: cannot ${what} the last admin of the organization; make another member admin first`)
}

export default function memberRoutes(app: Api) {
  app.get(
    '/v1/orgs/:organizationId/members',
    {
      schema: {
        tags,
        summary: 'List the members of an organization',
        params: OrgParams,
        querystring: MemberListQuery,
        response: { 200: MemberList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const orgId = req.params.organizationId
        requireOrgMember(ctx, orgId)
        const q = req.query
        const limit = q.limit ?? DEFAULT_LIMIT
        const order = q.order ?? 'desc'
        const filter: MemberFilter = { sort: q.sort ?? 'joinedAt', role: q.role, search: q.search ? q.search.toLowerCase() : undefined }
        const after = decodeCursor(q.page, ['string?', 'integer'])
        const members = ctx.repo(memberRepository)
        const rows = members.list(orgId, filter, order, after, limit + 1)
        const count = cachedCount(ctx, `members:${orgId}:${filter.sort}:${filter.role ?? ''}:${filter.search ?? ''}`, () =>
          members.count(orgId, filter)
        )
        const column = filter.sort === 'lastSeenAt' ? 'last_seen_at' : 'joined_at'
        return envelope(
          rows,
          limit,
          count,
          (r) => [r[column], r.seq],
          (page) => presentMembers(orgId, page, ctx)
        )
      })
  )

  app.get(
    '/v1/orgs/:organizationId/members/:userId',
    { schema: { tags, summary: 'Get a member of an organization', params: MemberParams, response: { 200: MemberSchema } } },
    async (req) => read(req, (ctx) => presentMember(loadMember(ctx, req.params.organizationId, req.params.userId).target, ctx))
  )

  app.patch(
    '/v1/orgs/:organizationId/members/:userId',
    {
      schema: {
        tags,
        summary: "Change a member's role (null: guest)",
        params: MemberParams,
        body: MemberUpdateSchema,
        response: { 200: MemberSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { target } = loadMember(ctx, req.params.organizationId, req.params.userId, 'updateRole')
        const members = ctx.repo(memberRepository)
        if (req.body.role !== 'admin') keepAnAdmin(ctx, target, 'role', 'demote')
        members.setRole(target.organization_id, target.user_id, req.body.role)
        auditChange(ctx, 'role', target.role, req.body.role)
        return presentMember(members.get(target.organization_id, target.user_id)!, ctx)
      })
  )

  app.delete(
    '/v1/orgs/:organizationId/members/:userId',
    { schema: { tags, summary: 'Remove a member (admins, or a member leaving)', params: MemberParams, response: { 204: NoContent } } },
    async (req, reply) => {
      write(req, (ctx) => {
        const { target } = loadMember(ctx, req.params.organizationId, req.params.userId, 'remove')
        keepAnAdmin(ctx, target, 'userId', 'remove')
        ctx.repo(memberRepository).remove(target.organization_id, target.user_id)
      })
      return reply.code(204).send()
    }
  )

  app.post(
    '/v1/orgs/:organizationId/members/:userId/sso',
    { schema: { tags, summary: 'Mark a member as an SSO member', params: MemberParams, response: { 200: MemberSchema } } },
    async (req) =>
      write(req, (ctx) => {
        const { target } = loadMember(ctx, req.params.organizationId, req.params.userId, 'markSso')
        const members = ctx.repo(memberRepository)
        members.markSso(target.organization_id, target.user_id)
        return presentMember(members.get(target.organization_id, target.user_id)!, ctx)
      })
  )

  app.post(
    '/v1/orgs/:organizationId/ping',
    {
      schema: {
        tags,
        summary: "Record the caller's activity; answers signed visitor claims",
        params: OrgParams,
        response: { 200: PingResultSchema }
      },
      config: { noIdempotencyKey: 'its answer is signed after the write' }
    },
    async (req) => {
      const { claims, key, now } = write(req, (ctx) => {
        const { org, member } = requireOrg(ctx, req.params.organizationId)
        ctx.repo(memberRepository).touch(org.id, ctx.actor.id, ctx.now)
        return {
          claims: { sub: ctx.actor.id, org: org.id, role: member.role },
          key: visitorClaimsKey(ctx.db, org.id),
          now: new Date(ctx.now)
        }
      })
      // Signing is asynchronous, so it happens after the (synchronous) transaction has committed.
      return { serviceVisitorClaims: await signVisitorClaims(claims, key, now) }
    }
  )
}
