import { createHmac, timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import type { Db } from '../storage/database'
import { repository } from '../storage/repositories/memo'
import { userRepository, type UserRow } from '../storage/repositories/userRepository'
import { workspaceSecret } from '../storage/secrets'
import type { Ctx } from '../workspace/context'
import { unauthorized } from '../base/errors'

/**
 * Downloads (file bytes, PDFs) live outside /v1 so an `<img src>` or a link can load them without a header.
 * Their URLs carry `?token=`: an HMAC over the user, the space, the revision and an expiry. Expiries fall on
 * window boundaries, so a URL stays the same (and browser-cacheable) within a window and lives 1-2 windows.
 */
export const DOWNLOAD_TOKEN_WINDOW_MS = 60 * 60 * 1000

function mac(db: Db, userId: string, exp: number, spaceId: string, revisionId: string): string {
  return createHmac('sha256', Buffer.from(workspaceSecret(db, 'downloads'), 'base64url'))
    .update(`${userId}\n${exp}\n${spaceId}\n${revisionId}`)
    .digest('base64url')
}

/** A token letting the caller download what revision `revisionId` of space `spaceId` holds, for a while. */
export function downloadToken(ctx: Ctx, spaceId: string, revisionId: string): string {
  const exp = (Math.floor(Date.parse(ctx.now) / DOWNLOAD_TOKEN_WINDOW_MS) + 2) * DOWNLOAD_TOKEN_WINDOW_MS
  const expS = exp / 1000
  return `${expS}.${ctx.actor.id}.${mac(ctx.db, ctx.actor.id, expS, spaceId, revisionId)}`
}

/** An absolute download URL for `path` (outside /v1) with the caller's signed token and any extra query. */
export function downloadUrl(ctx: Ctx, path: string, spaceId: string, revisionId: string, query: Record<string, string> = {}): string {
  const params = new URLSearchParams({ ...query, token: downloadToken(ctx, spaceId, revisionId) })
  return ctx.url(`${path}?${params}`)
}

/**
 * The user a download request acts for: the bearer token when sent (as on /v1), else a valid, unexpired
 * `?token=` signed for this space and revision. Anything else answers 401. The caller's access to the space is
 * checked afterwards, as for any request, so a token outlives no permission.
 */
export function downloadActor(req: FastifyRequest, spaceId: string, revisionId: string): UserRow {
  const { db, clock } = req.server.services
  const users = repository(db, userRepository)
  const header = req.headers.authorization
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
    const user = match ? users.getByToken(match[1]!) : undefined
    if (!user) throw unauthorized('The token is unknown or has been revoked')
    return user
  }
  const token = (req.query as { token?: unknown }).token
  if (typeof token !== 'string' || !token)
    throw unauthorized('Authentication required: send Authorization: Bearer <token> or a signed ?token=')
  const [expText, userId, signature] = token.split('.')
  const exp = Number(expText)
  if (!userId || !signature || !Number.isInteger(exp)) throw unauthorized('The download token is malformed')
  const expected = Buffer.from(mac(db, userId, exp, spaceId, revisionId))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw unauthorized('The download token is not valid for this content')
  if (clock.now().getTime() >= exp * 1000) throw unauthorized('The download token has expired')
  const user = users.get(userId)
  if (!user) throw unauthorized('The download token is not valid for this content')
  return user
}
