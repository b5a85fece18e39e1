import type { FastifyRequest } from 'fastify'
import type { Db } from '../storage/database'
import type { UserRow } from '../storage/repositories/userRepository'
import { repository } from '../storage/repositories/memo'
import type { Clock } from './clock'
import { unauthorized } from './errors'

/** What every request shares: the workspace database and the process-wide settings. */
export interface Services {
  db: Db
  clock: Clock
  /** Origin the server is reachable at (`http://127.0.0.1:4100`), used for every `urls` member. */
  baseUrl: string
  /** Bumped after each committed write; keys caches of derived values such as list counts. */
  writes: number
}

/** One request's view: the services, the authenticated caller, the request's clock reading and a memo. */
export interface Ctx {
  services: Services
  db: Db
  actor: UserRow
  /** ISO timestamp fixed for the whole request, so one write stamps one time. */
  now: string
  /** Per-request memo (memberships, roles), so policies do not query twice. */
  memo: Map<string, unknown>
  repo<T>(factory: (db: Db) => T): T
  url(path: string): string
  appUrl(route: string): string
}

declare module 'fastify' {
  interface FastifyRequest {
    actor: UserRow | null
  }
  interface FastifyInstance {
    services: Services
  }
}

function makeCtx(services: Services, actor: UserRow): Ctx {
  return {
    services,
    db: services.db,
    actor,
    now: services.clock.now().toISOString(),
    memo: new Map(),
    repo: (factory) => repository(services.db, factory),
    url: (path) => `${services.baseUrl}${path}`,
    appUrl: (route) => `${services.baseUrl}/#${route}`
  }
}

function actorOf(req: FastifyRequest): UserRow {
  if (!req.actor) throw unauthorized()
  return req.actor
}

/** Runs `fn` in one read transaction (a consistent snapshot across the request's queries). */
export function read<T>(req: FastifyRequest, fn: (ctx: Ctx) => T): T {
  const services = req.server.services
  const ctx = makeCtx(services, actorOf(req))
  return services.db.transaction(() => fn(ctx)).deferred()
}

/**
 * Runs `fn` in one write transaction (BEGIN IMMEDIATE): all of it commits or none of it does, so a failed
 * request changes nothing.
 */
export function write<T>(req: FastifyRequest, fn: (ctx: Ctx) => T): T {
  const services = req.server.services
  const ctx = makeCtx(services, actorOf(req))
  const result = services.db.transaction(() => fn(ctx)).immediate()
  services.writes++
  return result
}

/** A context outside of HTTP (CLI, bootstrap, benchmarks' data generation). */
export function systemCtx(services: Services, actor: UserRow): Ctx {
  return makeCtx(services, actor)
}
