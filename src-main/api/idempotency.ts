import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import type { Db } from '../storage/database'
import { repository } from '../storage/repositories/memo'
import { idempotencyKeyRepository } from '../storage/repositories/idempotencyKeyRepository'
import { ApiError, badRequest, conflict } from '../base/errors'
import type { Services } from '../workspace/context'
import { expiredBefore } from '../workspace/idempotency'
import type { Api } from './app'

/**
 * `Idempotency-Key` on /v1 writes: the first answer to a keyed write is recorded in the write's own transaction
 * (`write()` in workspace/context.ts calls `recordAnswer`, workspace/idempotency.ts), so the effect and the record commit together or not at all, and
 * the same request sent again (its answer was lost) is answered with that answer instead of being applied twice.
 *
 * What is stored is what the client got: a route answers the value its `write` returns, with the one 2xx status
 * its response schema declares (checked here for every write route), serialized by the same compiled serializer
 * Fastify sends it with. So the record is made inside the transaction, not in an onSend hook after the commit.
 * A route whose answer is made after its write, or holds a secret shown once, sets `config.noIdempotencyKey`.
 */
const HEADER = 'idempotency-key'
const KEY = /^[\x21-\x7e]{1,255}$/
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Keys (user and key) whose first request is running, per database: a second one meanwhile answers 409. */
const running = new WeakMap<Db, Set<string>>()

function runningOf(db: Db): Set<string> {
  let set = running.get(db)
  if (!set) running.set(db, (set = new Set()))
  return set
}

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
  const accepted =
    url.startsWith('/v1/') &&
    methods.some((m) => WRITE_METHODS.has(m)) &&
    !route.config?.noIdempotencyKey &&
    successStatus(route) !== undefined
  if (!accepted) return { schema, url }
  const header = {
    type: 'string',
    minLength: 1,
    maxLength: 255,
    pattern: '^[\\x21-\\x7e]+$',
    description:
      'Makes the write safe to send again: a repeat with the same key, method, path and body within 24 hours is answered ' +
      'with the first answer (header Idempotency-Replayed: true) and applied once. Scoped to the user.'
  }
  const headers = { type: 'object', properties: { 'Idempotency-Key': header } }
  return { schema: { ...(schema as object), headers }, url }
}

async function keyed(
  handler: RouteOptions['handler'],
  self: unknown,
  req: FastifyRequest,
  reply: FastifyReply,
  key: string,
  status: number
): Promise<unknown> {
  const { db, clock } = req.server.services as Services
  const userId = req.actor!.id
  const method = req.method
  const path = req.url
  const bodyHash = createHash('sha256')
    .update(req.body === undefined ? '' : JSON.stringify(req.body))
    .digest('hex')

  const stored = repository(db, idempotencyKeyRepository).get(userId, key, expiredBefore(clock.now().getTime()))
  if (stored) {
    if (stored.method !== method || stored.path !== path || stored.body_hash !== bodyHash) {
      throw new ApiError(
        422,
        `Idempotency-Key: already used for another request (${stored.method} ${stored.path}); send a new key with a new request`
      )
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
    userId,
    key,
    method,
    path,
    bodyHash,
    status,
    recorded: false,
    serialize: (result) => reply.serializeInput(result as Record<string, unknown>, String(status)) as string
  }
  try {
    // Awaited here, so the key stays running until the handler's write committed (or failed).
    return await handler.call(self as never, req, reply)
  } finally {
    runningKeys.delete(id)
  }
}
