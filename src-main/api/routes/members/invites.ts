import { NoContent, type Role } from '../../../../src-shared/schemas/common'
import {
  InviteCreateSchema,
  InviteList,
  InviteListQuery,
  InviteParams,
  InviteSchema,
  LinkInviteCreateSchema,
  LinkInviteUpdateSchema
} from '../../../../src-shared/schemas/members'
import { OrgParams } from '../../../../src-shared/schemas/orgs'
import { inviteRepository, type InviteRow } from '../../../storage/repositories/inviteRepository'
import { memberRepository } from '../../../storage/repositories/memberRepository'
import { organizationRepository, type OrganizationRow } from '../../../storage/repositories/organizationRepository'
import { userRepository } from '../../../storage/repositories/userRepository'
import type { Api } from '../../app'
import { read, write, type Ctx } from '../../../workspace/context'
import { forbidden, notFound } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { requireOrgRole } from '../../policies/access'
import { maxRole } from '../../policies/roles'
import { presentInvite } from '../../presenters/invite'

const tags = ['Invites']

const linksDisabled = () => forbidden('inviteLinks: invite links are disabled for this organization')

/** An invite link of an organization the caller administers (404 for another organization's invite). */
function loadLinkInvite(ctx: Ctx, orgId: string, inviteId: string): { org: OrganizationRow; invite: InviteRow } {
  const { org } = requireOrgRole(ctx, orgId, 'admin')
  const invite = ctx.repo(inviteRepository).get(inviteId)
  if (!invite || invite.organization_id !== org.id) throw notFound('Invite')
  return { org, invite }
}

export default function inviteRoutes(app: Api) {
  app.post(
    '/v1/orgs/:organizationId/invites',
    {
      schema: {
        tags,
        summary: 'Invite people by e-mail (each becomes a member)',
        params: OrgParams,
        body: InviteCreateSchema,
        response: { 204: NoContent }
      }
    },
    async (req, reply) => {
      write(req, (ctx) => {
        const { org } = requireOrgRole(ctx, req.params.organizationId, 'admin')
        const users = ctx.repo(userRepository)
        const orgs = ctx.repo(organizationRepository)
        const members = ctx.repo(memberRepository)
        // An absent role means the organization's default role (null there: guests).
        const fallback = req.body.role !== undefined ? req.body.role : (org.default_role as Role | null)
        for (const item of req.body.emails) {
          const { email, role } = typeof item === 'string' ? { email: item, role: undefined } : item
          const user = users.getByEmail(email) ?? users.create({ email }, ctx.now)
          // An existing member keeps their role: an invite is not a way to change roles.
          if (members.get(org.id, user.id)) continue
          orgs.addMember(org.id, user.id, role !== undefined ? role : fallback, ctx.now)
        }
      })
      return reply.code(204).send()
    }
  )

  app.post(
    '/v1/orgs/:organizationId/invites/:inviteId',
    {
      schema: {
        tags,
        summary: "Join an organization through an invite link, with the link's role",
        params: InviteParams,
        response: { 204: NoContent }
      }
    },
    async (req, reply) => {
      write(req, (ctx) => {
        // Any authenticated user may join: holding the invite id is the permission.
        const invite = ctx.repo(inviteRepository).get(req.params.inviteId)
        const org =
          invite && invite.organization_id === req.params.organizationId
            ? ctx.repo(organizationRepository).get(invite.organization_id)
            : undefined
        if (!invite || !org) throw notFound('Invite')
        if (!org.invite_links) throw linksDisabled()
        const members = ctx.repo(memberRepository)
        const existing = members.get(org.id, ctx.actor.id)
        if (!existing) {
          ctx.repo(organizationRepository).addMember(org.id, ctx.actor.id, invite.role, ctx.now)
        } else {
          // Never a downgrade; a guest or a lower role is raised to the link's role.
          const role = maxRole(existing.role as Role | null, invite.role as Role | null)
          if (role !== existing.role) members.setRole(org.id, ctx.actor.id, role)
        }
      })
      return reply.code(204).send()
    }
  )

  app.get(
    '/v1/orgs/:organizationId/link-invites',
    {
      schema: {
        tags,
        summary: 'List the invite links of an organization',
        params: OrgParams,
        querystring: InviteListQuery,
        response: { 200: InviteList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { org } = requireOrgRole(ctx, req.params.organizationId, 'admin')
        const invites = ctx.repo(inviteRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [afterSeq = 0] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = invites.list(org.id, afterSeq, limit + 1)
        const count = cachedCount(ctx, `link-invites:${org.id}`, () => invites.count(org.id))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => page.map((r) => presentInvite(r, org))
        )
      })
  )

  app.post(
    '/v1/orgs/:organizationId/link-invites',
    {
      schema: { tags, summary: 'Create an invite link', params: OrgParams, body: LinkInviteCreateSchema, response: { 201: InviteSchema } }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const { org } = requireOrgRole(ctx, req.params.organizationId, 'admin')
        if (!org.invite_links) throw linksDisabled()
        return presentInvite(ctx.repo(inviteRepository).create(org.id, req.body.role, ctx.actor.id, ctx.now), org)
      })
      return reply.code(201).send(body)
    }
  )

  app.get(
    '/v1/orgs/:organizationId/link-invites/:inviteId',
    { schema: { tags, summary: 'Get an invite link', params: InviteParams, response: { 200: InviteSchema } } },
    async (req) =>
      read(req, (ctx) => {
        const { org, invite } = loadLinkInvite(ctx, req.params.organizationId, req.params.inviteId)
        return presentInvite(invite, org)
      })
  )

  app.patch(
    '/v1/orgs/:organizationId/link-invites/:inviteId',
    {
      schema: {
        tags,
        summary: "Change an invite link's role",
        params: InviteParams,
        body: LinkInviteUpdateSchema,
        response: { 200: InviteSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { org, invite } = loadLinkInvite(ctx, req.params.organizationId, req.params.inviteId)
        const invites = ctx.repo(inviteRepository)
        invites.setRole(invite.id, req.body.role)
        return presentInvite(invites.get(invite.id)!, org)
      })
  )

  app.delete(
    '/v1/orgs/:organizationId/link-invites/:inviteId',
    { schema: { tags, summary: 'Delete an invite link', params: InviteParams, response: { 205: NoContent } } },
    async (req, reply) => {
      write(req, (ctx) => {
        const { invite } = loadLinkInvite(ctx, req.params.organizationId, req.params.inviteId)
        ctx.repo(inviteRepository).remove(invite.id)
      })
      return reply.code(205).send()
    }
  )
}
