import { createHmac } from 'node:crypto'
import type { Db } from '../storage/database'
import { repository } from '../storage/repositories/memo'
import { memberRepository } from '../storage/repositories/memberRepository'
import { siteShareLinkRepository } from '../storage/repositories/siteShareLinkRepository'
import type { SitePatch, SiteRow } from '../storage/repositories/siteRepository'
import type { VisitorClaims } from './conditions'
import { PREVIEW_PREFIX } from './urls'

/** Cookies that keep a reader in after the first visit with `?shareKey=` or `?jwt_token=` (scoped to one site). */
export const SHARE_COOKIE = 'quire_share_key'
export const VISITOR_COOKIE = 'quire_visitor_token'
/** Query parameters `visitor.<name>=…` carry unsigned claims (`visitor.claims.unsigned.<name>`). */
const UNSIGNED_PREFIX = 'visitor.'
const JWT_REGISTERED = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti'])

export interface VisitorRequest {
  query: Record<string, unknown>
  cookies: Record<string, string>
  /**
   * The draft token of someone who may edit the site (checked by the caller): the site opens whatever its
   * visibility, and the token (with a `jwt_token` given in the query) is carried in links instead of cookies.
   */
  draft?: string
}

export type VisitorAccess =
  { ok: true; claims: VisitorClaims; setCookies: string[]; carry: Record<string, string> } | { ok: false; status: 401 | 404 }

export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {}
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq < 1) continue
    const name = part.slice(0, eq).trim()
    try {
      cookies[name] ??= decodeURIComponent(part.slice(eq + 1).trim())
    } catch {
      // a malformed value is no credential
    }
  }
  return cookies
}

function cookie(site: SiteRow, name: string, value: string): string {
  return `${name}=${encodeURIComponent(value)}; Path=${PREVIEW_PREFIX}/${encodeURIComponent(site.id)}; HttpOnly; SameSite=Lax`
}

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined)

/**
 * The key an organization's visitor tokens are signed and verified with (HS256): derived from the workspace's
 * visitor-claims secret and the organization's id, so a token issued for one organization never verifies for
 * another's sites.
 */
export function visitorClaimsKey(db: Db, organizationId: string): Uint8Array {
  const secret = repository(db, memberRepository).visitorClaimsSecret()
  return createHmac('sha256', Buffer.from(secret, 'base64url')).update(`quire-visitor-claims:${organizationId}`).digest()
}

/**
 * Whether a site write changes its visitor settings (who it admits, which claims it reads): the visitor tokens
 * issued until then stop opening it (the write sets `visitor_settings_at`).
 */
export function changesVisitorSettings(site: SiteRow, patch: SitePatch): boolean {
  return (
    (patch.visibility !== undefined && patch.visibility !== site.visibility) ||
    (patch.adaptive_enabled !== undefined && patch.adaptive_enabled !== site.adaptive_enabled) ||
    (patch.adaptive_schema !== undefined && patch.adaptive_schema !== site.adaptive_schema)
  )
}

/**
 * The claims of a visitor JWT that holds for this site, or undefined: signed with the key of the site's
 * organization, naming that organization in `org` (and the site in `site`, when it names one), and issued after
 * the site's visitor settings last changed (`iat` counts whole seconds: a token of the same second is refused).
 */
export async function verifyVisitorToken(db: Db, site: SiteRow, token: string, now: Date): Promise<Record<string, unknown> | undefined> {
  const { jwtVerify } = await import('jose') // loaded on first use: most starts verify nothing
  let payload
  try {
    ;({ payload } = await jwtVerify(token, visitorClaimsKey(db, site.organization_id), {
      algorithms: ['HS256'],
      currentDate: now,
      requiredClaims: ['iat']
    }))
  } catch {
    return undefined
  }
  if (payload.org !== site.organization_id) return undefined
  if (payload.site !== undefined && payload.site !== site.id) return undefined
  if (site.visitor_settings_at && payload.iat! <= Math.floor(Date.parse(site.visitor_settings_at) / 1000)) return undefined
  return Object.fromEntries(Object.entries(payload).filter(([k]) => !JWT_REGISTERED.has(k) && k !== 'unsigned'))
}

/**
 * Who may read a published site, and as whom: public and unlisted sites are open; a share-link site needs the
 * key of an active link (else 404, as if the site did not exist); a visitor-auth site needs a visitor JWT
 * (else 401). Signed claims come from the JWT; with adaptive content on, unsigned claims come from
 * `visitor.<name>` query parameters. A key or token given in the query is kept in a cookie for the next pages.
 * A draft preview (`req.draft`) opens any visibility, and its claims come from the query only.
 */
export async function resolveVisitor(db: Db, site: SiteRow, req: VisitorRequest, now: Date): Promise<VisitorAccess> {
  const setCookies: string[] = []
  const queryKey = text(req.query.shareKey)
  const queryToken = text(req.query.jwt_token)
  const draft = req.draft

  if (site.visibility === 'share-link' && !draft) {
    const key = queryKey ?? req.cookies[SHARE_COOKIE]
    if (!key || !repository(db, siteShareLinkRepository).activeOfSite(site.id, key)) return { ok: false, status: 404 }
    if (queryKey) setCookies.push(cookie(site, SHARE_COOKIE, queryKey))
  }

  // A draft preview shows exactly the visitor it is asked for: no token kept from an earlier visit.
  const token = queryToken ?? (draft ? undefined : req.cookies[VISITOR_COOKIE])
  const signed = token ? await verifyVisitorToken(db, site, token, now) : undefined
  if (site.visibility === 'visitor-auth' && !signed && !draft) return { ok: false, status: 401 }
  const carry: Record<string, string> = {}
  if (draft) {
    // The draft preview sits in the app's frame, where the preview's cookies may not be kept.
    carry.draft = draft
    if (signed && queryToken) carry.jwt_token = queryToken
  } else if (signed && queryToken) setCookies.push(cookie(site, VISITOR_COOKIE, queryToken))

  const claims: VisitorClaims = { ...(signed ?? {}) }
  if (site.adaptive_enabled) {
    const unsigned: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(req.query)) {
      if (!name.startsWith(UNSIGNED_PREFIX) || typeof value !== 'string') continue
      const claim = name.slice(UNSIGNED_PREFIX.length)
      unsigned[claim] = value === 'true' ? true : value === 'false' ? false : value
      carry[name] = value
    }
    claims.unsigned = unsigned
  }
  return { ok: true, claims, setCookies, carry }
}
