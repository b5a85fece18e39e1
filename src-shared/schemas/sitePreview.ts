import Type from 'typebox'
import { DateTime, Url } from './common'

/** Quire's addition: the address of a site's draft preview for the caller (GET …/sites/{siteId}/draft-preview). */
export const SiteDraftPreviewSchema = Type.Object({
  object: Type.Literal('site-draft-preview'),
  /** Opens the site, published or not, as the caller may see it; for an hour (`expiresAt`). */
  url: Url,
  expiresAt: DateTime
})
export type SiteDraftPreview = Type.Static<typeof SiteDraftPreviewSchema>

export const VISITOR_TOKEN_MAX_S = 24 * 60 * 60
export const VISITOR_TOKEN_MIN_S = 60

/** Quire's addition: a signed visitor token with chosen claims, for trying what a visitor sees. */
export const SiteVisitorTokenCreateSchema = Type.Object({
  /** Signed claims of the site's adaptive schema, by name (they are booleans). */
  claims: Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.Boolean(), { maxProperties: 100 }),
  /** Lifetime in seconds (default one hour). */
  expiresIn: Type.Optional(Type.Integer({ minimum: VISITOR_TOKEN_MIN_S, maximum: VISITOR_TOKEN_MAX_S }))
})
export type SiteVisitorTokenCreate = Type.Static<typeof SiteVisitorTokenCreateSchema>

export const SiteVisitorTokenSchema = Type.Object({
  object: Type.Literal('site-visitor-token'),
  /** An HS256 JWT naming the site and its organization; the local preview takes it as `?jwt_token=`. */
  token: Type.String(),
  claims: Type.Record(Type.String(), Type.Boolean()),
  expiresAt: DateTime
})
export type SiteVisitorToken = Type.Static<typeof SiteVisitorTokenSchema>
