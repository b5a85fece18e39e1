import { UserSchema } from '../../../../src-shared/schemas/common'
import { checkMergeRules } from '../../policies/mergeRules'
import {
  EmailDomainOrgs,
  EmailDomainParams,
  OrgCreateSchema,
  OrgList,
  OrgListQuery,
  OrgParams,
  OrgUpdateSchema,
  OrganizationSchema
} from '../../../../src-shared/schemas/orgs'
import { organizationRepository, type OrganizationPatch } from '../../../storage/repositories/organizationRepository'
import type { Api } from '../../app'
import { read, write } from '../../../workspace/context'
import { conflict } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { requireOrg, requireOrgRole } from '../../policies/access'
import { presentOrganization, presentOrganizations } from '../../presenters/organization'
import { presentUser } from '../../presenters/user'
import { auditChange } from '../../../workspace/audit'

const tags = ['Organizations']

export default function orgRoutes(app: Api) {
  app.get(
    '/v1/user',
    { config: { offline: 'copy' }, schema: { tags, summary: 'The authenticated user', response: { 200: UserSchema } } },
    async (req) => read(req, (ctx) => presentUser(ctx.actor, ctx))
  )

  app.get(
    '/v1/orgs',
    {
      config: { offline: 'copy' },
      schema: { tags, summary: 'Organizations of the authenticated user', querystring: OrgListQuery, response: { 200: OrgList } }
    },
    async (req) =>
      read(req, (ctx) => {
        const orgs = ctx.repo(organizationRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [after = 0] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = orgs.listForUser(ctx.actor.id, after, limit + 1)
        const count = cachedCount(ctx, `orgs:${ctx.actor.id}`, () => orgs.countForUser(ctx.actor.id))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.member_seq],
          (page) => presentOrganizations(page, ctx)
        )
      })
  )

  app.post(
    '/v1/orgs',
    {
      schema: {
        tags,
        summary: 'Create an organization (the caller becomes its admin)',
        body: OrgCreateSchema,
        response: { 201: OrganizationSchema }
      }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const orgs = ctx.repo(organizationRepository)
        const org = orgs.create({ title: req.body.title, emailDomains: req.body.emailDomains }, ctx.now)
        orgs.addMember(org.id, ctx.actor.id, 'admin', ctx.now)
        return presentOrganization(org, ctx)
      })
      return reply.code(201).send(body)
    }
  )

  app.get(
    '/v1/orgs/:organizationId',
    {
      config: { offline: 'copy' },
      schema: { tags, summary: 'Get an organization', params: OrgParams, response: { 200: OrganizationSchema } }
    },
    async (req) => read(req, (ctx) => presentOrganization(requireOrg(ctx, req.params.organizationId).org, ctx))
  )

  app.patch(
    '/v1/orgs/:organizationId',
    {
      schema: { tags, summary: 'Update an organization', params: OrgParams, body: OrgUpdateSchema, response: { 200: OrganizationSchema } }
    },
    async (req) =>
      write(req, (ctx) => {
        const { org } = requireOrgRole(ctx, req.params.organizationId, 'admin')
        const orgs = ctx.repo(organizationRepository)
        const b = req.body
        const patch: OrganizationPatch = {}
        if (b.title !== undefined) patch.title = b.title
        if (b.hostname !== undefined) {
          if (b.hostname !== null && orgs.hostnameTaken(b.hostname, org.id))
            throw conflict(`hostname: ${b.hostname} is already used by another organization`)
          patch.hostname = b.hostname
        }
        if (b.defaultRole !== undefined) patch.default_role = b.defaultRole
        if (b.defaultContent !== undefined) patch.default_content = b.defaultContent ? JSON.stringify(b.defaultContent) : null
        if (b.logo !== undefined) patch.logo = b.logo
        if (b.sso !== undefined) patch.sso = b.sso ? 1 : 0
        if (b.ai !== undefined) patch.ai = b.ai ? 1 : 0
        if (b.inviteLinks !== undefined) patch.invite_links = b.inviteLinks ? 1 : 0
        if (b.mergeRules !== undefined) {
          checkMergeRules(ctx, org.id, b.mergeRules)
          patch.merge_rules = b.mergeRules.type === 'none' ? null : JSON.stringify(b.mergeRules)
        }
        orgs.update(org.id, patch)
        auditChange(ctx, 'title', org.title, patch.title)
        auditChange(ctx, 'hostname', org.hostname, patch.hostname)
        auditChange(ctx, 'defaultRole', org.default_role, patch.default_role)
        if (b.emailDomains !== undefined) orgs.setEmailDomains(org.id, b.emailDomains)
        return presentOrganization(orgs.get(org.id)!, ctx)
      })
  )

  app.get(
    '/v1/email-domains/:emailDomain/orgs',
    {
      schema: { tags, summary: 'Organizations that claim an e-mail domain', params: EmailDomainParams, response: { 200: EmailDomainOrgs } }
    },
    async (req) =>
      read(req, (ctx) => ({
        organizations: presentOrganizations(ctx.repo(organizationRepository).byEmailDomain(req.params.emailDomain), ctx)
      }))
  )
}
