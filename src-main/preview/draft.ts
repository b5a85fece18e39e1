import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Db } from '../storage/database'
import { workspaceSecret } from '../storage/secrets'

/** How long a draft preview address opens the site (then the app asks for a new one). */
export const DRAFT_TOKEN_TTL_S = 60 * 60

function mac(db: Db, userId: string, siteId: string, exp: number): string {
  return createHmac('sha256', Buffer.from(workspaceSecret(db, 'sitePreview'), 'base64url'))
    .update(`draft\n${userId}\n${siteId}\n${exp}`)
    .digest('base64url')
}

/**
 * A token opening the draft preview of one site for one user (`<exp>.<user>.<hmac>`), for an hour. It names who
 * asked: the preview checks on every request that this user may still edit the site's organization's sites.
 */
export function draftToken(db: Db, userId: string, siteId: string, now: Date): { token: string; expiresAt: Date } {
  const exp = Math.floor(now.getTime() / 1000) + DRAFT_TOKEN_TTL_S
  return { token: `${exp}.${userId}.${mac(db, userId, siteId, exp)}`, expiresAt: new Date(exp * 1000) }
}

/** The user a draft token was given to, when it is this site's, well signed and not expired; else undefined. */
export function draftTokenUser(db: Db, siteId: string, token: string, now: Date): string | undefined {
  const [expText, userId, signature] = token.split('.')
  const exp = Number(expText)
  if (!userId || !signature || !Number.isInteger(exp)) return undefined
  const expected = Buffer.from(mac(db, userId, siteId, exp))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  return now.getTime() < exp * 1000 ? userId : undefined
}
