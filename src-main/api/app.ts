import { RouteTable } from '../workspace/offline'
import Fastify, { type FastifyError, type FastifyInstance, type FastifyBaseLogger, type FastifyReply, type RawServerDefault } from 'fastify'
import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import swagger from '@fastify/swagger'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { ErrorSchema } from '../../src-shared/schemas/common'
import { PageSchema } from '../../src-shared/schemas/content'
import { dataVersion, isCorruption } from '../storage/database'
import { repository } from '../storage/repositories/memo'
import { userRepository, type UserRow } from '../storage/repositories/userRepository'
import type { Services } from '../workspace/context'
import { ApiError, badPercentEncoding } from '../base/errors'
import { API_BODY_LIMIT, MAX_URL_LENGTH } from './limits'
import { buildSerializer, compileValidator } from './compilers'
import { formatValidationError } from './validation'
import { documentIdempotencyKey, installIdempotency } from './idempotency'
import { routeModules } from './routes'

export type Api = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>

export interface BuildOptions {
  /** Log requests (pino). Off by default: tests and benchmarks want quiet, fast servers. */
  logger?: boolean
  /** Where the log goes (default standard output). */
  logStream?: NodeJS.WritableStream
  /** Adds non-API routes (the renderer's static files) before the instance is sealed. */
  extend?: (app: Api) => Promise<void>
}

/** Paths served without a token. Everything else under /v1 needs `Authorization: Bearer <token>`. */
const PUBLIC_PATHS = new Set(['/v1/openapi.json'])

/**
 * Builds the /v1 API from the route modules. The same instance answers the loopback HTTP server, in-process
 * calls (`inject`, used by the Electron IPC bridge) and tests.
 */
export async function buildApi(services: Services, options: BuildOptions = {}): Promise<Api> {
  const app = Fastify({
    logger: options.logger
      ? {
          level: 'info',
          ...(options.logStream && { stream: options.logStream }),
          serializers: { req: (req) => ({ method: req.method, url: redactSecrets(req.url), remoteAddress: req.ip }) }
        }
      : false,
    bodyLimit: API_BODY_LIMIT,
    // A HEAD is answered by its GET route (answerNode, injectFetch): a second route for every GET doubled what
    // the router builds at each start (~40 ms of it).
    exposeHeadRoutes: false,
    // Long ids must reach validation (400 naming the field), not die in the router with 414: only a URL longer
    // than the HTTP server takes answers 414.
    routerOptions: { maxParamLength: MAX_URL_LENGTH },
    // What the router refuses before any route (a broken %-escape) answers in the envelope too.
    frameworkErrors: (error, _req, reply) => sendError(reply, describeError(error)),
    schemaErrorFormatter: (errors, dataVar) => new ApiError(400, formatValidationError(errors, dataVar)) as unknown as Error,
    // Compiled once per process, not per instance (compilers.ts).
    schemaController: { compilersFactory: { buildSerializer } }
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.setValidatorCompiler(compileValidator)

  // Shared schemas, referenced by `$ref` (a page's `pages` are pages).
  app.addSchema(PageSchema)

  app.decorate('services', services)
  app.decorateRequest('actor', null)
  const routeTable = new RouteTable()
  app.decorate('routeTable', routeTable)
  app.addHook('onRoute', (route) => routeTable.add(route.method, route.url, route.config?.offline))

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quire /v1 API',
        version: '1.0.0',
        description: 'The documentation workspace API served by Quire, locally or by a remote server.'
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }]
    },
    transform: documentIdempotencyKey as never
  })

  // Before the routes: it wraps every /v1 write's handler.
  installIdempotency(app)

  // Every route documents the error envelope, so OpenAPI clients know the shape of failures.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1/') || PUBLIC_PATHS.has(route.url)) return
    const schema = (route.schema ??= {}) as { response?: Record<string, unknown> }
    schema.response = { ...(schema.response ?? {}), '4XX': ErrorSchema, '5XX': ErrorSchema }
  })

  const users = repository(services.db, userRepository)
  // SHA-256 of the token -> user, valid until the next write (of this process: services.writes; of another:
  // data_version), so a revoked token stops working at once, and reads skip the tokens/users join.
  const tokenCache = new Map<string, { user: UserRow; writes: number; dataVersion: number }>()
  // A callback hook, not an async one: no promise and no extra microtask per request.
  app.addHook('onRequest', (req, _reply, done) => {
    if (!req.url.startsWith('/v1/')) return done()
    const q = req.url.indexOf('?')
    const path = q < 0 ? req.url : req.url.slice(0, q)
    if (PUBLIC_PATHS.has(path)) return done()
    const header = req.headers.authorization
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
    if (!match) return done(new ApiError(401, 'Authentication required: send Authorization: Bearer <token>'))
    const token = match[1]!
    const writes = services.writes
    const version = dataVersion(services.db)
    // Keyed by digest, never by the token itself: a lookup compares hashes, so its time tells nothing of a token.
    const key = createHash('sha256').update(token).digest('base64url')
    let hit = tokenCache.get(key)
    if (!hit || hit.writes !== writes || hit.dataVersion !== version) {
      const user = users.getByToken(token)
      if (!user) return done(new ApiError(401, 'The token is unknown or has been revoked'))
      if (tokenCache.size > 1000) tokenCache.clear()
      tokenCache.set(key, (hit = { user, writes, dataVersion: version }))
    }
    req.actor = hit.user
    done()
  })

  app.setErrorHandler((error: FastifyError | ApiError, req, reply) => {
    const described = describeError(error)
    if (described.status >= 500) req.log.error({ err: error }, 'request failed')
    return sendError(reply, described)
  })

  app.setNotFoundHandler((req, reply) =>
    sendError(reply, { status: 404, message: `No operation ${req.method} ${req.url.split('?', 1)[0]}` })
  )

  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger())

  for (const register of routeModules) register(app)
  if (options.extend) await options.extend(app)
  await app.ready()
  return app
}

/**
 * A request from a `node:http` server, answered by the API. A HEAD is routed as its GET: Node made the response a
 * HEAD's before this runs (its headers are sent, Content-Length included, and its body never), which is what HEAD
 * means. The static files' route keeps a HEAD of its own.
 */
export function answerNode(api: Pick<Api, 'routing'>, req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'HEAD') req.method = 'GET'
  api.routing(req, res)
}

/** Query parameters that carry credentials: signed download tokens, share-link keys, visitor tokens. */
const SECRET_PARAMS = /([?&](?:token|shareKey|jwt_token)=)[^&#]*/gi

/** A URL as the log may show it: credentials in its query replaced by `[redacted]` (headers are never logged). */
export function redactSecrets(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]')
}

/**
 * The envelope of every failure. Never stored (a download's long-lived caching does not carry over to its error)
 * nor sniffed.
 */
function sendError(reply: FastifyReply, { status, message }: { status: number; message: string }) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .type('application/json')
    .send({ error: { code: status, message } })
}

function describeError(error: FastifyError | ApiError): { status: number; message: string } {
  if (error instanceof ApiError) return { status: error.status, message: error.message }
  const fe = error as FastifyError
  if (fe.validation) return { status: 400, message: formatValidationError(fe.validation, fe.validationContext ?? 'body') }
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, message: `body: ${fe.message}` }
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, message: 'body: larger than the server accepts' }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, message: 'body: send JSON with Content-Type: application/json' }
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, message: 'body: its length is not the Content-Length sent' }
    case 'FST_ERR_BAD_URL':
      return { status: 400, message: badPercentEncoding().message }
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 414, message: 'path: longer than the server accepts' }
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return { status: fe.statusCode, message: fe.message }
  }
  if (isCorruption(error)) return { status: 500, message: 'The workspace file is damaged: restore it from a backup (Open workspace file…)' }
  return { status: 500, message: 'Internal error' }
}
