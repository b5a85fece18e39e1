import type { FastifyRequest } from 'fastify'
import type Database from 'better-sqlite3'
import type { Db } from '../storage/database'
import type { UserRow } from '../storage/repositories/userRepository'
import { repository } from '../storage/repositories/memo'
import type { SearchPool } from '../content/searchPool'
import type { Clock } from '../base/clock'
import { unauthorized } from '../base/errors'
import { answerRecorded, recordAnswer } from './idempotency'
import { beginAudit, finishAudit } from './audit'
import type { RouteTable } from './offline'
import type { TokenSeal } from './tokenSeal'

/** What every request shares: the workspace database and the process-wide settings. */
export interface Services {
  db: Db
  clock: Clock
  /** Origin the server is reachable at (`http://127.0.0.1:4100`), used for every `urls` member. */
  baseUrl: string
  /** Bumped after each committed write; keys caches of derived values such as list counts. */
  writes: number
  /** Threads that share the ranking of broad searches with the main one (a workspace file on a machine with several cores). */
  searchPool?: SearchPool
  /** OpenAPI processing settings (tests shorten the fetch timeout); defaults apply when absent. */
  openapi?: OpenAPIOptions
  /**
   * Told of every write a request makes, inside its transaction, with what the route answers: a connected
   * workspace's local copy keeps its outbox this way (src-main/sync/journal.ts). Throwing undoes the write.
   */
  journal?: (req: FastifyRequest, ctx: Ctx, result: unknown) => void
  /**
   * False where writes record no audit event: a connected workspace's local copy (its server records the
   * writes when the outbox sends them). Default true (audit.ts).
   */
  audit?: boolean
  /** The process's keychain seals (the desktop app's), used first for secrets kept in the database (tokenSeal.ts). */
  seals?: readonly TokenSeal[]
}

/** Settings of OpenAPI processing, on `services.openapi` (tests shorten the timeout). */
export interface OpenAPIOptions {
  /** How long one fetch (the document or one of its `$ref` files) may take; default 10 s. */
  fetchTimeoutMs?: number
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
    /** Every route with its offline behaviour (offline.ts). */
    routeTable: RouteTable
  }
}

/** A class, not an object of closures: no per-request function allocation (and no esbuild `__name` calls). */
class RequestCtx implements Ctx {
  readonly db: Db
  readonly now: string
  readonly memo = new Map<string, unknown>()
  constructor(
    readonly services: Services,
    readonly actor: UserRow
  ) {
    this.db = services.db
    this.now = services.clock.now().toISOString()
  }
  repo<T>(factory: (db: Db) => T): T {
    return repository(this.db, factory)
  }
  url(path: string): string {
    return `${this.services.baseUrl}${path}`
  }
  appUrl(route: string): string {
    return `${this.services.baseUrl}/#${route}`
  }
}

function makeCtx(services: Services, actor: UserRow): Ctx {
  return new RequestCtx(services, actor)
}

type Runner = Database.Transaction<(fn: (ctx: Ctx) => unknown, ctx: Ctx) => unknown>
const runners = new WeakMap<Db, Runner>()

/** One transaction function per database, made once: `db.transaction()` per request costs more than the query. */
function runner(db: Db): Runner {
  let run = runners.get(db)
  if (!run) runners.set(db, (run = db.transaction((fn: (ctx: Ctx) => unknown, ctx: Ctx) => fn(ctx))))
  return run
}

function actorOf(req: FastifyRequest): UserRow {
  if (!req.actor) throw unauthorized()
  return req.actor
}

/** Runs `fn` in one read transaction (a consistent snapshot across the request's queries). */
export function read<T>(req: FastifyRequest, fn: (ctx: Ctx) => T): T {
  const services = req.server.services
  const ctx = makeCtx(services, actorOf(req))
  return runner(services.db).deferred(fn, ctx) as T
}

/**
 * Runs `fn` in one write transaction (BEGIN IMMEDIATE): all of it commits or none of it does, so a failed
 * request changes nothing.
 */
export function write<T>(req: FastifyRequest, fn: (ctx: Ctx) => T): T {
  const services = req.server.services
  const ctx = makeCtx(services, actorOf(req))
  const journal = services.journal
  // A keyed request (Idempotency-Key) records its answer in the same transaction as its effect.
  const keyed = req.idempotency !== null && !req.idempotency.recorded
  const audited = services.audit !== false
  // Before the write, its audit event learns what the write may remove (a deleted space's organization and title);
  // after it, the event is recorded in the same transaction, before the journal and the idempotency record.
  const body =
    journal || keyed || audited
      ? (c: Ctx) => {
          const pending = audited ? beginAudit(req, c) : undefined
          const result = fn(c)
          if (pending) finishAudit(pending, c, result)
          journal?.(req, c, result)
          if (keyed) recordAnswer(req, c, result)
          return result
        }
      : fn
  const result = runner(services.db).immediate(body, ctx) as T
  services.writes++
  if (keyed) answerRecorded(req)
  return result
}

/** A context outside of HTTP (CLI, bootstrap, benchmarks' data generation). */
export function systemCtx(services: Services, actor: UserRow): Ctx {
  return makeCtx(services, actor)
}
