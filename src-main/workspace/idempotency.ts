import type { FastifyRequest } from 'fastify'
import { conflict } from '../base/errors'
import { repository } from '../storage/repositories/memo'
import { idempotencyKeyRepository } from '../storage/repositories/idempotencyKeyRepository'
import type { Ctx, Services } from './context'

// The part of `Idempotency-Key` that lives in a write's transaction (api/idempotency.ts checks the header and
// answers repeats): `write()` records the first answer of a keyed write with its effect, and upkeep sweeps old
// records. See api/idempotency.ts for the whole rule.

/** How long a key's answer is kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000

/** A keyed write in progress: what `recordAnswer` stores once the route's write has run. */
export interface IdempotentRequest {
  userId: string
  key: string
  method: string
  path: string
  bodyHash: string
  status: number
  serialize: (result: unknown) => string
  recorded: boolean
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotentRequest | null
  }
  interface FastifyContextConfig {
    /** Why this write refuses an `Idempotency-Key` (400). */
    noIdempotencyKey?: string
  }
}

/** Records older than this (ISO time) no longer answer. */
export const expiredBefore = (now: number) => new Date(now - IDEMPOTENCY_TTL_MS).toISOString()

/**
 * Records the answer of a keyed write, inside its transaction (called by `write()` after the route's callback).
 * Only the request's first write transaction is recorded: every route writes in one.
 */
export function recordAnswer(req: FastifyRequest, ctx: Ctx, result: unknown): void {
  const idem = req.idempotency
  if (!idem || idem.recorded) return
  const empty = idem.status === 204 || idem.status === 205
  const recorded = ctx.repo(idempotencyKeyRepository).record(
    {
      user_id: idem.userId,
      key: idem.key,
      method: idem.method,
      path: idem.path,
      body_hash: idem.bodyHash,
      status: idem.status,
      response: empty ? null : idem.serialize(result),
      created_at: ctx.now
    },
    expiredBefore(Date.parse(ctx.now))
  )
  // Another process serving the same file recorded this key meanwhile: undo this write; the retry gets its answer.
  if (!recorded) throw conflict('Idempotency-Key: a request with this key is in progress')
}

/** After `write()` committed: later writes of the same request are not recorded again. */
export function answerRecorded(req: FastifyRequest): void {
  if (req.idempotency) req.idempotency.recorded = true
}

/** Removes records past their 24 hours (hourly, startMaintenance). Returns how many went. */
export function sweepIdempotencyKeys(services: Services): number {
  const removed = repository(services.db, idempotencyKeyRepository).sweep(expiredBefore(services.clock.now().getTime()))
  if (removed) services.writes++
  return removed
}
