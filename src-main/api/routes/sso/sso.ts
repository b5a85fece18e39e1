import { X509Certificate } from 'node:crypto'
import { NoContent } from '../../../../src-shared/schemas/common'
import {
  SamlOrgParams,
  SamlProviderCreateSchema,
  SamlProviderList,
  SamlProviderListQuery,
  SamlProviderParams,
  SamlProviderSchema,
  SamlProviderUpdateSchema,
  SsoLoginInfoList
} from '../../../../src-shared/schemas/sso'
import { samlRepository, type SamlProviderPatch } from '../../../storage/repositories/samlRepository'
import { teamRepository } from '../../../storage/repositories/teamRepository'
import type { Api } from '../../app'
import { read, write, type Ctx } from '../../../workspace/context'
import { badRequest, notFound } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { requireOrg, requireOrgRole } from '../../policies/access'
import { presentSamlProvider, presentSamlProviders, samlServiceUrls } from '../../presenters/samlProvider'

const tags = ['SSO']

/**
 * The identity provider's signing certificate, checked by OpenSSL and stored in its canonical PEM form. Identity
 * providers often show it as the bare base64 body (no BEGIN/END lines): that is the DER certificate, read as such.
 */
function normalizeCertificate(text: string): string {
  const trimmed = text.trim()
  const bare = trimmed.replace(/\s+/g, '')
  try {
    if (!trimmed.startsWith('-----') && /^[A-Za-z0-9+/]+={0,2}$/.test(bare))
      return new X509Certificate(Buffer.from(bare, 'base64')).toString()
    return new X509Certificate(trimmed).toString()
  } catch {
    throw badRequest('certificate: must be an X.509 certificate, PEM or base64')
  }
}

function checkSsoUrl(url: string): string {
  // `format: uri` admits any scheme (javascript:, file:); a browser is sent there, so only web URLs.
  if (!/^https?:\/\//i.test(url)) throw badRequest('ssoURL: must be an http or https URL')
  return url
}

function checkTeam(ctx: Ctx, organizationId: string, teamId: string | null): string | null {
  if (teamId !== null && ctx.repo(teamRepository).get(teamId)?.organization_id !== organizationId) {
    throw badRequest(`defaultTeam: no team ${teamId} in this organization`)
  }
  return teamId
}

export default function ssoRoutes(app: Api) {
  app.get(
    '/v1/orgs/:organizationId/saml',
    {
      schema: {
        tags,
        summary: 'List the SAML providers of an organization (admins)',
        params: SamlOrgParams,
        querystring: SamlProviderListQuery,
        response: { 200: SamlProviderList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { org } = requireOrgRole(ctx, req.params.organizationId, 'admin')
        const saml = ctx.repo(samlRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [after = 0] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = saml.listInOrg(org.id, Number(after) || 0, limit + 1)
        const count = cachedCount(ctx, `saml:${org.id}`, () => saml.countInOrg(org.id))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => presentSamlProviders(org.id, page, ctx)
        )
      })
  )

  app.post(
    '/v1/orgs/:organizationId/saml',
    {
      schema: {
        tags,
        summary: 'Add a SAML provider to an organization (admins)',
        params: SamlOrgParams,
        body: SamlProviderCreateSchema,
        response: { 201: SamlProviderSchema }
      }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const { org } = requireOrgRole(ctx, req.params.organizationId, 'admin')
        const b = req.body
        const row = ctx.repo(samlRepository).create(
          org.id,
          {
            label: b.label,
            entity_id: b.entityID ?? null,
            certificate: b.certificate !== undefined ? normalizeCertificate(b.certificate) : null,
            sso_url: b.ssoURL !== undefined ? checkSsoUrl(b.ssoURL) : null,
            default_team_id: checkTeam(ctx, org.id, b.defaultTeam ?? null),
            default_role: b.defaultRole ?? null
          },
          ctx.now
        )
        return presentSamlProvider(row, ctx)
      })
      return reply.code(201).send(body)
    }
  )

  app.get(
    '/v1/orgs/:organizationId/saml/:samlProviderId',
    { schema: { tags, summary: 'Get a SAML provider (admins)', params: SamlProviderParams, response: { 200: SamlProviderSchema } } },
    async (req) =>
      read(req, (ctx) => {
        const { org } = requireOrgRole(ctx, req.params.organizationId, 'admin')
        const row = ctx.repo(samlRepository).get(org.id, req.params.samlProviderId)
        if (!row) throw notFound('SAML provider')
        return presentSamlProvider(row, ctx)
      })
  )

  app.patch(
    '/v1/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: {
        tags,
        summary: 'Update a SAML provider (admins)',
        params: SamlProviderParams,
        body: SamlProviderUpdateSchema,
        response: { 200: SamlProviderSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { org } = requireOrgRole(ctx, req.params.organizationId, 'admin')
        const saml = ctx.repo(samlRepository)
        const row = saml.get(org.id, req.params.samlProviderId)
        if (!row) throw notFound('SAML provider')
        const b = req.body
        const patch: SamlProviderPatch = {}
        if (b.label !== undefined) patch.label = b.label
        if (b.entityID !== undefined) patch.entity_id = b.entityID
        if (b.certificate !== undefined) patch.certificate = normalizeCertificate(b.certificate)
        if (b.ssoURL !== undefined) patch.sso_url = checkSsoUrl(b.ssoURL)
        if (b.defaultTeam !== undefined) patch.default_team_id = checkTeam(ctx, org.id, b.defaultTeam)
        if (b.defaultRole !== undefined) patch.default_role = b.defaultRole
        if (Object.keys(patch).length) saml.update(org.id, row.id, { ...patch, updated_at: ctx.now })
        return presentSamlProvider(saml.get(org.id, row.id)!, ctx)
      })
  )

  app.delete(
    '/v1/orgs/:organizationId/saml/:samlProviderId',
    { schema: { tags, summary: 'Remove a SAML provider (admins)', params: SamlProviderParams, response: { 204: NoContent } } },
    async (req, reply) => {
      write(req, (ctx) => {
        const { org } = requireOrgRole(ctx, req.params.organizationId, 'admin')
        if (!ctx.repo(samlRepository).remove(org.id, req.params.samlProviderId)) throw notFound('SAML provider')
      })
      return reply.code(204).send()
    }
  )

  app.get(
    '/v1/orgs/:organizationId/sso',
    {
      schema: {
        tags,
        summary: 'How members sign in to an organization with SSO (any member, guests included)',
        params: SamlOrgParams,
        response: { 200: SsoLoginInfoList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { org } = requireOrg(ctx, req.params.organizationId)
        const rows = ctx.repo(samlRepository).allInOrg(org.id)
        return { items: rows.map((r) => ({ id: r.id, label: r.label, startURL: samlServiceUrls(ctx, r).startURL })) }
      })
  )
}
