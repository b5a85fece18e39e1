import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import type { Db } from '../storage/database'
import { repository } from '../storage/repositories/memo'
import { idempotencyKeyRepository } from '../storage/repositories/idempotencyKeyRepository'
import type { Api } from './app'
import type { Ctx, Services } from './context'
import { ApiError, badRequest, conflict } from './errors'

/**
 * `Idempotency-Key` on /v1 writes: the first answer to a keyed write is recorded in the write's own transaction
 * (`write()` in context.ts calls `recordAnswer`), so the effect and the record commit together or not at all, and
 * the same request sent again (its answer was lost) is answered with that answer instead of being applied twice.
 *
 * What is stored is what the client got: a route answers the value its `write` returns, with the one 2xx status
 * its response schema declares (checked here for every write route), serialized by the same compiled serializer
 * Fastify sends it with. So the record is made inside the transaction, not in an onSend hook after the commit.
 * A route whose answer is made after its write, or holds a secret shown once, sets `config.noIdempotencyKey`.
 */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000

const HEADER = 'idempotency-key'
const KEY = /^[\x21-\x7e]{1,255}$/
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

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

/** Keys (user and key) whose first request is running, per database: a second one meanwhile answers 409. */
const running = new WeakMap<Db, Set<string>>()

function runningOf(db: Db): Set<string> {
  let set = running.get(db)
  if (!set) running.set(db, (set = new Set()))
  return set
}

const expiredBefore = (now: number) => new Date(now - IDEMPOTENCY_TTL_MS).toISOString()

/** The single success status a route's schema declares, if it declares exactly one. */
function successStatus(route: RouteOptions): number | undefined {
  const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {}
  const codes = Object.keys(response).filter((code) => /^2\d\d$/.test(code))
  return codes.length === 1 ? Number(codes[0]) : undefined
}

/** Wraps the handler of every /v1 write route (call before the routes are added). */
export function installIdempotency(app: Api): void {
  app.decorateRequest('idempotency', null)
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1/')) return
    const methods = ([] as string[]).concat(route.method)
    if (!methods.some((m) => WRITE_METHODS.has(m))) return
    const status = successStatus(route)
    const refusal = route.config?.noIdempotencyKey ?? (status === undefined ? 'its answer has no single status' : undefined)
    const handler = route.handler
    route.handler = async function (this: unknown, req: FastifyRequest, reply: FastifyReply) {
      const key = req.headers[HEADER]
      if (key === undefined) return handler.call(this as never, req, reply)
      if (typeof key !== 'string' || !KEY.test(key)) throw badRequest('Idempotency-Key: must be 1 to 255 visible ASCII characters')
      if (refusal) throw badRequest(`Idempotency-Key: not accepted by ${req.method} ${route.url} (${refusal})`)
      return keyed(handler, this, req, reply, key, status!)
    }
  })
}

/**
 * `@fastify/swagger`'s transform: documents the header on the write operations that accept it (in the OpenAPI
 * document only; the handler wrapper above checks it, so the routes' own validation does not change).
 */
export function documentIdempotencyKey({ schema, url, route }: { schema: unknown; url: string; route: RouteOptions }) {
  const methods = ([] as string[]).concat(route.method)
  const accepted = url.startsWith('/v1/') && methods.some((m) => WRITE_METHODS.has(m)) && !route.config?.noIdempotencyKey && successStatus(route) !== undefined
  if (!accepted) return { schema, url }
  const header = {
    type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$',
    description:
      'Makes the write safe to send again: a repeat with the same key, method, path and body within 24 hours is answered ' +
      'with the first answer (header Idempotency-Replayed: true) and applied once. Scoped to the user.'
  }
  const headers = { type: 'object', properties: { 'Idempotency-Key': header } }
  return { schema: { ...(schema as object), headers }, url }
}

async function keyed(
  handler: RouteOptions['handler'], self: unknown, req: FastifyRequest, reply: FastifyReply, key: string, status: number
): Promise<unknown> {
  const { db, clock } = req.server.services as Services
  const userId = req.actor!.id
  const method = req.method
  const path = req.url
  const bodyHash = createHash('sha256').update(req.body === undefined ? '' : JSON.stringify(req.body)).digest('hex')

  const stored = repository(db, idempotencyKeyRepository).get(userId, key, expiredBefore(clock.now().getTime()))
  if (stored) {
    if (stored.method !== method || stored.path !== path || stored.body_hash !== bodyHash) {
      throw new ApiError(422, `Idempotency-Key: already used for another request (${stored.method} ${stored.path}); send a new key with a new request`)
    }
    reply.code(stored.status).header('idempotency-replayed', 'true')
    // A string with a JSON content type is sent as is: the bytes the first answer carried.
    return stored.response === null ? reply.send() : reply.type('application/json').send(stored.response)
  }

  const runningKeys = runningOf(db)
  const id = `${userId}\n${key}`
  if (runningKeys.has(id)) throw conflict('Idempotency-Key: a request with this key is in progress')
  runningKeys.add(id)
  req.idempotency = {
    userId, key, method, path, bodyHash, status, recorded: false,
    serialize: (result) => reply.serializeInput(result as Record<string, unknown>, String(status)) as string
  }
  try {
    // Awaited here, so the key stays running until the handler's write committed (or failed).
    return await handler.call(self as never, req, reply)
  } finally {
    runningKeys.delete(id)
  }
}

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
      user_id: idem.userId, key: idem.key, method: idem.method, path: idem.path, body_hash: idem.bodyHash,
      status: idem.status, response: empty ? null : idem.serialize(result), created_at: ctx.now
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
