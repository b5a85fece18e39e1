import { jwtVerify } from 'jose'
import type { Db } from '../storage/database'
import { repository } from '../storage/repositories/memo'
import { memberRepository } from '../storage/repositories/memberRepository'
import { siteShareLinkRepository } from '../storage/repositories/siteShareLinkRepository'
import type { SiteRow } from '../storage/repositories/siteRepository'
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
}

export type VisitorAccess =
  | { ok: true; claims: VisitorClaims; setCookies: string[]; carry: Record<string, string> }
  | { ok: false; status: 401 | 404 }

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

/** The claims of a visitor JWT signed with the workspace's visitor-claims secret, or undefined when it does not verify. */
export async function verifyVisitorToken(db: Db, token: string, now: Date): Promise<Record<string, unknown> | undefined> {
  const secret = repository(db, memberRepository).visitorClaimsSecret()
  try {
    const { payload } = await jwtVerify(token, Buffer.from(secret, 'base64url'), { algorithms: ['HS256'], currentDate: now })
    return Object.fromEntries(Object.entries(payload).filter(([k]) => !JWT_REGISTERED.has(k) && k !== 'unsigned'))
  } catch {
    return undefined
  }
}

/**
 * Who may read a published site, and as whom: public and unlisted sites are open; a share-link site needs the
 * key of an active link (else 404, as if the site did not exist); a visitor-auth site needs a visitor JWT
 * (else 401). Signed claims come from the JWT; with adaptive content on, unsigned claims come from
 * `visitor.<name>` query parameters. A key or token given in the query is kept in a cookie for the next pages.
 */
export async function resolveVisitor(db: Db, site: SiteRow, req: VisitorRequest, now: Date): Promise<VisitorAccess> {
  const setCookies: string[] = []
  const queryKey = text(req.query.shareKey)
  const queryToken = text(req.query.jwt_token)

  if (site.visibility === 'share-link') {
    const key = queryKey ?? req.cookies[SHARE_COOKIE]
    if (!key || !repository(db, siteShareLinkRepository).activeByKey(site.id, key)) return { ok: false, status: 404 }
    if (queryKey) setCookies.push(cookie(site, SHARE_COOKIE, queryKey))
  }

  const token = queryToken ?? req.cookies[VISITOR_COOKIE]
  const signed = token ? await verifyVisitorToken(db, token, now) : undefined
  if (site.visibility === 'visitor-auth' && !signed) return { ok: false, status: 401 }
  if (signed && queryToken) setCookies.push(cookie(site, VISITOR_COOKIE, queryToken))

  const claims: VisitorClaims = { ...(signed ?? {}) }
  const carry: Record<string, string> = {}
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
