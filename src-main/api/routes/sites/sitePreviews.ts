import {
  SiteDraftPreviewSchema,
  SiteVisitorTokenCreateSchema,
  SiteVisitorTokenSchema,
  type SiteDraftPreview,
  type SiteVisitorToken
} from '../../../../src-shared/schemas/sitePreview'
import { SiteParams } from '../../../../src-shared/schemas/sites'
import { badRequest } from '../../../base/errors'
import { draftToken } from '../../../preview/draft'
import { previewPath } from '../../../preview/urls'
import { visitorClaimsKey } from '../../../preview/visitor'
import { read } from '../../../workspace/context'
import type { Api } from '../../app'
import { declaredClaims } from '../../commands/siteAdaptiveSchema'
import { loadSite } from './loaders'

const tags = ['Sites']
const DEFAULT_VISITOR_TOKEN_S = 60 * 60

/**
 * What readers will see, before they do (Quire's additions): the draft preview's address for those who may
 * change the site, and visitor tokens with chosen claims, for admins to try the site as a given visitor.
 */
export default function sitePreviewAccessRoutes(app: Api) {
  app.get(
    '/v1/orgs/:organizationId/sites/:siteId/draft-preview',
    {
      schema: {
        tags,
        summary: 'The address of the draft preview of a site (published or not), for the caller, for an hour',
        params: SiteParams,
        response: { 200: SiteDraftPreviewSchema }
      }
    },
    async (req) =>
      read(req, (ctx): SiteDraftPreview => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'preview')
        const { token, expiresAt } = draftToken(ctx.db, ctx.actor.id, site.id, new Date(ctx.now))
        return {
          object: 'site-draft-preview',
          url: ctx.url(`${previewPath(site.id)}?draft=${encodeURIComponent(token)}`),
          expiresAt: expiresAt.toISOString()
        }
      })
  )

  app.post(
    '/v1/orgs/:organizationId/sites/:siteId/visitor-tokens',
    {
      schema: {
        tags,
        summary: "Sign a visitor token with chosen claims of the site's adaptive schema (valid for this site only)",
        params: SiteParams,
        body: SiteVisitorTokenCreateSchema,
        response: { 201: SiteVisitorTokenSchema }
      },
      config: { noIdempotencyKey: 'its answer is signed after the read' }
    },
    async (req, reply) => {
      const { claims } = req.body
      const signing = read(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'mintVisitorToken')
        const declared = declaredClaims(site.adaptive_schema ? JSON.parse(site.adaptive_schema) : {})
        for (const name of Object.keys(claims)) {
          if (!declared.signed.has(name)) throw badRequest(`claims.${name}: not a signed claim of the site's adaptive schema`)
        }
        return { site, sub: ctx.actor.id, key: visitorClaimsKey(ctx.db, site.organization_id), now: new Date(ctx.now) }
      })
      const { site, sub, key, now } = signing
      const iat = Math.floor(now.getTime() / 1000)
      const exp = iat + (req.body.expiresIn ?? DEFAULT_VISITOR_TOKEN_S)
      // `site` binds the token to this site: the preview refuses it on any other (verifyVisitorToken).
      const { SignJWT } = await import('jose') // loaded on first use: most starts sign nothing
      const token = await new SignJWT({ ...claims, org: site.organization_id, site: site.id })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(sub)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key)
      const body: SiteVisitorToken = { object: 'site-visitor-token', token, claims, expiresAt: new Date(exp * 1000).toISOString() }
      return reply.code(201).send(body)
    }
  )
}
