import { existsSync, statSync } from 'node:fs'
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { Readable, type Duplex } from 'node:stream'
import { basename, resolve } from 'node:path'
import { createHash, timingSafeEqual } from 'node:crypto'
import fastifyStatic from '@fastify/static'
import Fastify from 'fastify'
import { answerNode, buildApi, type Api, type BuildOptions } from '../api/app'
import { ApiError } from '../base/errors'
import { API_BODY_LIMIT, MAX_URL_LENGTH } from '../api/limits'
import type { WorkspaceBackend } from '../backend/backend'
import { openLocalBackend } from '../backend/localBackend'
import { cameThrough, VIA_HEADER } from '../backend/remoteBackend'
import { newToken } from '../storage/ids'
import { repository } from '../storage/repositories/memo'
import { userRepository } from '../storage/repositories/userRepository'
import { REMOTE_STATUS_HEADER, WORKSPACE_HEADER } from '../../src-shared/workspaces'
import { WorkspaceHost, type WorkspaceHostOptions } from '../workspaces/host'
import { HostClient, HostStoppedError } from '../workspaces/hostClient'
import type { HostStartOptions } from '../workspaces/hostProtocol'
import { forkHost } from './hostFork'
import {
  WORKSPACE_BODY_LIMIT,
  answerWorkspaceRequest,
  errorResponse,
  isWorkspacesPath,
  isWorkspaceUpload,
  singleWorkspaceDirectory,
  type WorkspaceDirectory
} from '../workspaces/operations'
import { slugify } from '../workspaces/registry'
import { AuthThrottle, bearerToken, HostPolicy, refuseForeign, weakTokenReason, type ThrottleOptions } from './guard'
import { bootstrapWorkspace, databaseFileOf, openWorkspace, startMaintenance } from '../workspace/workspace'
import type { Clock } from '../base/clock'

export interface ServerOptions {
  /** One workspace: the folder of its `quire.db` (':memory:' for a throwaway one). Either this or `home`. */
  dataDir?: string
  /**
   * Several workspaces (`workspaces.json`, `workspaces/<id>/quire.db`), the active one served and switched
   * through `/app/workspaces`, as the desktop app does with its user-data folder.
   */
  home?: string
  port?: number
  host?: string
  /**
   * Other names this server answers to (`--allow-host`: a reverse proxy's or the machine's LAN name), with any
   * port. Requests naming any other host are refused (421), as are browser writes from another origin (403).
   */
  allowHosts?: string[]
  /** How failed authentications slow down (guard.ts); tests shorten it. */
  authThrottle?: ThrottleOptions
  /**
   * Made a valid owner token (with `dataDir`, the bootstrap token is created only when none is given). With
   * `home`, the server's token: an owner token in every workspace it opens, generated when not given. At least
   * 32 characters (`MIN_TOKEN_LENGTH`).
   */
  token?: string
  /** Built renderer to serve at `/` (out/renderer). Skipped when missing. */
  staticDir?: string
  /** Log requests with pino. */
  logger?: boolean
  clock?: Clock
  /** With `dataDir`: threads ranking searches beside the main one (default: one per core besides it, 3 at most; 0: in process). */
  searchThreads?: number
  /** Milliseconds a client has to send a request's headers (default 10 s); at most `requestTimeout`. */
  headersTimeout?: number
  /** Milliseconds a client has to send a whole request, body included (default 30 s); then it answers 408 and closes. */
  requestTimeout?: number
  /**
   * Runs the workspaces (SQLite, the /v1 engine, sync) in a child process of their own (`quire serve
   * --host-process`; hostProtocol.ts): this process keeps the socket, and a long write there never stalls it. `api`
   * and `workspaces` are then absent, and `clock` is not used.
   */
  hostProcess?: boolean
  /** Test harness only, with `hostProcess`: the host's manual clock starts there and it takes control messages. */
  hostTesting?: HostStartOptions['testing']
}

export interface RunningServer {
  url: string
  port: number
  /** The token the caller can use: the one given, the bootstrap token created on first start, or (home) the generated one. */
  token?: string
  /** True when this start bootstrapped an empty workspace. */
  bootstrapped: boolean
  /**
   * The API of the workspace served now (with `home`, it changes when another workspace is activated; a connected
   * workspace has none here: reading it throws).
   */
  readonly api: Api
  /** With `home`: the workspaces and the active one's backend. */
  workspaces?: WorkspaceHost
  /** With `hostProcess`: the client of the host process. */
  host?: HostClient
  close(): Promise<void>
}

const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: http://127.0.0.1:*",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'"
].join('; ')

/** The label of a `--home` server's generated token: replaced at each start instead of piling up. */
export const GENERATED_TOKEN_LABEL = 'serve session'

type Handler = (req: IncomingMessage, res: ServerResponse) => void

/** Answers of the API and the workspace operations: data for one caller, never stored by a browser or a proxy. */
const isApiPath = (path: string) => path === '/v1' || path.startsWith('/v1/') || path === '/app' || path.startsWith('/app/')

/** What holds for every request the port answers, before it is dispatched (`handle`). */
function answerHttp(handle: Handler): Handler {
  return (req, res) => {
    res.setHeader('x-content-type-options', 'nosniff')
    if (isApiPath(pathOf(req))) res.setHeader('cache-control', 'no-store')
    if ((req.url ?? '').length > MAX_URL_LENGTH)
      void sendResponse(res, errorResponse(414, `url: must be at most ${MAX_URL_LENGTH} characters`))
    else handle(req, res)
  }
}

/** Requests Node's parser refuses or that ran out of time, by `error.code`; anything else is a malformed request (400). */
const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'headers: larger than the server accepts'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'body: chunk extensions larger than the server accepts'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request: not received in time']
}

/**
 * Node's `clientError`: answers in the envelope (Node's own answer has no body), then closes the connection, whose
 * stream cannot be read further. Nothing is written once an answer has started on it (`_httpMessage`, as Node
 * itself checks).
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const answering = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage
  if (error.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) {
    socket.destroy()
    return
  }
  const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'request: malformed HTTP request']
  const body = JSON.stringify({ error: { code: status, message } })
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'cache-control: no-store',
    'x-content-type-options: nosniff',
    'connection: close'
  ]
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy())
}

/**
 * Serves /v1, `/app/workspaces` and the built renderer on loopback. One `node:http` server dispatches: the
 * workspace operations here, everything else to the served workspace's Fastify (`api.routing`, never listening
 * itself), so `--home` can swap the workspace behind the same port. Never imports electron.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  if (!options.dataDir === !options.home) throw new Error('startServer: give either dataDir or home')
  const weak = options.token === undefined ? undefined : weakTokenReason(options.token)
  if (weak) throw new Error(weak)
  const host = options.host ?? '127.0.0.1'
  const hosts = new HostPolicy({ host, allowHosts: options.allowHosts })
  const staticDir = options.staticDir && resolve(options.staticDir)
  const extend = staticDir && existsSync(resolve(staticDir, 'index.html')) ? serveRenderer(staticDir) : undefined
  const served = options.hostProcess
    ? await serveThroughHost(options)
    : options.home
      ? await serveHome(options.home, options, extend)
      : await serveDataDir(options.dataDir!, options, extend)

  const requestTimeout = options.requestTimeout ?? 30_000
  const headersTimeout = Math.min(options.headersTimeout ?? 10_000, requestTimeout)
  const http = createServer(
    {
      keepAliveTimeout: 72_000,
      requestTimeout,
      headersTimeout,
      // Node looks for late requests every 30 s by default: a stalled one would live up to twice its time.
      connectionsCheckingInterval: Math.min(1_000, Math.max(100, headersTimeout)),
      // Room for a URL over MAX_URL_LENGTH, so it answers 414 (not Node's bare 431 at 16 KiB of headers).
      maxHeaderSize: 32 * 1024
    },
    answerHttp(guard(served.handle, hosts, new AuthThrottle(options.authThrottle)))
  )
  http.on('clientError', answerClientError)
  try {
    await new Promise<void>((resolvePromise, reject) => {
      http.once('error', reject)
      http.listen(options.port ?? 0, host, () => {
        http.off('error', reject)
        resolvePromise()
      })
    })
  } catch (error) {
    await served.close()
    throw error
  }
  const address = http.address()
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0)
  hosts.listening(port)
  const urlHost = host.includes(':') ? `[${host}]` : host
  const url = `http://${urlHost}:${port}`
  served.setBaseUrl(url)

  let closed = false
  return {
    url,
    port,
    token: served.token,
    bootstrapped: served.bootstrapped,
    get api() {
      return served.api()
    },
    workspaces: served.workspaces,
    host: served.host,
    async close() {
      if (closed) return
      closed = true
      await closeHttp(http)
      await served.close()
    }
  }
}

/**
 * Before anything is read or written: the request must name this server (421), a browser write must come from
 * its own origin (403), and a client that keeps failing to authenticate waits (429) unless its token was
 * accepted before (guard.ts).
 */
function guard(handle: Handler, hosts: HostPolicy, throttle: AuthThrottle): Handler {
  return (req, res) => {
    const refusal = refuseForeign(hosts, req)
    if (refusal) return void sendResponse(res, errorResponse(refusal.status, refusal.message))
    const token = bearerToken(req)
    if (token !== undefined) {
      const address = req.socket.remoteAddress ?? ''
      const wait = throttle.waitFor(address, token)
      if (wait > 0) {
        const response = errorResponse(429, `Too many failed authentications from this address: try again in ${wait} s`)
        response.headers.set('retry-after', String(wait))
        return void sendResponse(res, response)
      }
      // A connected workspace's server refusing the workspace's own token is no failure of this caller's.
      res.once('finish', () =>
        throttle.answered(address, token, res.statusCode !== 401 || res.getHeader(REMOTE_STATUS_HEADER) === 'refused')
      )
    }
    handle(req, res)
  }
}

interface Served {
  handle: Handler
  api(): Api
  token?: string
  bootstrapped: boolean
  workspaces?: WorkspaceHost
  host?: HostClient
  setBaseUrl(url: string): void
  close(): Promise<void>
}

/** Hop-by-hop and framing headers: the host gets the body whole, and its own framing. */
const UNFORWARDED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade'])

/**
 * `hostProcess`: the workspaces in a child process (hostProcess.ts answers there as `serveHome` and `serveDataDir`
 * do here); this process reads each request, hands it over whole and writes the answer back. A host that stops is
 * started again; what it had not answered answers 503.
 */
async function serveThroughHost(options: ServerOptions): Promise<Served> {
  let closing = false
  const { token, staticDir, logger, searchThreads } = options
  const client: HostClient = await HostClient.start({
    spawn: forkHost,
    start: {
      home: options.home && resolve(options.home),
      dataDir: options.dataDir,
      http: { token, staticDir, logger, searchThreads },
      testing: options.hostTesting
    },
    onStopped(reason) {
      if (closing) return
      console.error(`The workspace host stopped (${reason}): starting it again`)
      client.restart().catch((error: unknown) => console.error('The workspace host could not start again:', error))
    }
  })
  const answer = async (req: IncomingMessage): Promise<Response> => {
    try {
      const method = req.method ?? 'GET'
      // A workspace file sent to be opened has no size limit (held whole here, then in the host).
      const limit = isWorkspaceUpload(method, pathOf(req)) ? Infinity : API_BODY_LIMIT
      const body = method === 'GET' || method === 'HEAD' ? undefined : await readBytes(req, limit)
      if (body === null) return errorResponse(413, 'body: larger than the server accepts')
      const headers = new Headers()
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined && !UNFORWARDED.has(name)) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
      }
      const request = new Request(new URL(req.url ?? '/', 'http://quire.localhost'), {
        method,
        headers,
        body: body && new Uint8Array(body)
      })
      return await client.fetch(request, 'http')
    } catch (error) {
      if (error instanceof HostStoppedError) return errorResponse(503, 'The workspace host stopped before it answered: try again')
      console.error('Request to the workspace host failed:', error)
      return errorResponse(500, 'Internal error')
    }
  }
  return {
    handle: (req, res) => void answer(req).then((response) => sendResponse(res, response)),
    api() {
      throw new Error('The workspaces run in a host process: this process has no API of theirs')
    },
    token: client.ready.token,
    bootstrapped: client.ready.bootstrapped,
    host: client,
    setBaseUrl: (url) => client.setBaseUrl(url),
    async close() {
      closing = true
      await client.close()
    }
  }
}

/** `--data`: one workspace, as before `--home` existed; `/app/workspaces` lists it and refuses writes. */
async function serveDataDir(dataDir: string, options: ServerOptions, extend: BuildOptions['extend']): Promise<Served> {
  const workspace = openWorkspace({ dataDir, clock: options.clock, searchThreads: options.searchThreads })
  const boot = bootstrapWorkspace(workspace.services, options.token)
  const stopMaintenance = startMaintenance(workspace.services)
  let api: Api
  try {
    api = await buildApi(workspace.services, { logger: options.logger, extend })
  } catch (error) {
    stopMaintenance()
    await workspace.close()
    throw error
  }
  const users = repository(workspace.services.db, userRepository)
  const directory = singleWorkspaceDirectory(describeDataDir(dataDir))
  // Any token of the workspace may read the list; the writes answer 409 whoever asks.
  const authorized = (token: string) => !!users.getByToken(token)
  return {
    handle(req, res) {
      if (isWorkspacesPath(pathOf(req))) void answerWorkspaceHttp(req, res, authorized, directory)
      else answerNode(api, req, res)
    },
    api: () => api,
    token: options.token ?? boot.createdToken,
    bootstrapped: !!boot.organizationId,
    setBaseUrl: (url) => void (workspace.services.baseUrl = url),
    async close() {
      stopMaintenance()
      await api.close()
      await workspace.close()
    }
  }
}

/** How a home's workspaces open theirs, here (`serveHome`) or in a host process (hostProcess.ts). */
export interface HomeOpening {
  /** An owner token in every local workspace (the desktop app makes its own per open instead). */
  token?: string
  /** Whether `token` was generated at start (its label says so). */
  generatedToken: boolean
  /** Where the workspaces are served, read as each one opens (the port is known once the server listens). */
  baseUrl(): string
  clock?: Clock
  logger?: BuildOptions['logger']
  extend?: BuildOptions['extend']
  seals?: WorkspaceHostOptions['seals']
  onRemoteChange?: WorkspaceHostOptions['onRemoteChange']
}

/** A home's workspaces; a connected workspace's copy is owned by its server's account (`account`). */
export function openHome(home: string, o: HomeOpening): Promise<WorkspaceHost> {
  return WorkspaceHost.open({
    home: resolve(home),
    open: ({ dataDir, account }) =>
      openLocalBackend({
        dataDir,
        account,
        baseUrl: o.baseUrl(),
        token: o.token,
        tokenLabel: o.token && o.generatedToken ? GENERATED_TOKEN_LABEL : undefined,
        clock: o.clock,
        logger: o.logger,
        extend: o.extend,
        seals: o.seals
      }),
    seals: o.seals,
    onRemoteChange: o.onRemoteChange
  })
}

/** Compares a given token with `token` in constant time (of their digests). */
export function tokenCheck(token: string): (given: string) => boolean {
  const expected = digest(token)
  return (given) => timingSafeEqual(digest(given), expected)
}

/**
 * `--home`: the same host as the desktop app; the server's token is an owner token in every local workspace, and
 * the only token a connected workspace's /v1 takes here (the workspace's own token for its server stays in this
 * process).
 */
async function serveHome(home: string, options: ServerOptions, extend: BuildOptions['extend']): Promise<Served> {
  const token = options.token ?? newToken()
  let baseUrl = 'http://127.0.0.1'
  const workspaces = await openHome(home, {
    token,
    generatedToken: !options.token,
    baseUrl: () => baseUrl,
    clock: options.clock,
    logger: options.logger,
    extend
  })
  const authorized = tokenCheck(token)
  // What a connected workspace has beside its server's /v1: the renderer's files.
  const rendererOnly = await rendererApp(extend)
  return {
    handle(req, res) {
      const path = pathOf(req)
      if (isWorkspacesPath(path)) {
        void answerWorkspaceHttp(req, res, authorized, workspaces)
        return
      }
      if (cameThrough(req.headers[VIA_HEADER], workspaces.viaId)) {
        void sendResponse(
          res,
          errorResponse(508, 'This request came back to the Quire that sent it: a workspace here is connected to this very server')
        )
        return
      }
      // Counted in flight until the answer is sent, so a switch closes this backend only afterwards.
      workspaces
        .use(
          (backend, id) =>
            new Promise<void>((done) => {
              res.once('close', done)
              res.setHeader(WORKSPACE_HEADER, id)
              // A window still showing the workspace another window switched away from: refused, nothing read or written.
              const shown = req.headers[WORKSPACE_HEADER]
              if (typeof shown === 'string' && shown !== id) {
                void sendResponse(res, errorResponse(409, 'Another window switched to another workspace: this window now shows that one'))
                return
              }
              if (backend.serveNode) backend.serveNode(req, res)
              else if (path === '/v1' || path.startsWith('/v1/')) void proxyHttp(req, res, backend, authorized)
              else rendererOnly(req, res)
            })
        )
        .catch((error: unknown) => {
          const status = error instanceof ApiError ? error.status : 500
          void sendResponse(res, errorResponse(status, status === 500 ? 'Internal error' : (error as Error).message))
        })
    },
    api: () => {
      const { api, connected } = workspaces.activeBackend
      if (!api) throw new Error(`The active workspace is connected to ${connected?.url ?? 'a server'}: it has no API here`)
      return api
    },
    token,
    bootstrapped: workspaces.activeBackend.bootstrapped ?? false,
    workspaces,
    setBaseUrl(url) {
      baseUrl = url
      workspaces.activeBackend.setBaseUrl?.(url)
    },
    close: () => workspaces.close()
  }
}

/** The one workspace of a `--data` server, named after its folder (or its file, less `.quire.db` or `.db`). */
export function describeDataDir(dataDir: string) {
  const name = dataDir === ':memory:' ? 'In memory' : basename(resolve(dataDir)).replace(/(\.quire)?\.db$/i, '') || 'Workspace'
  let createdAt = new Date().toISOString()
  if (dataDir !== ':memory:') {
    try {
      const st = statSync(databaseFileOf(dataDir))
      createdAt = new Date(st.birthtimeMs > 0 ? st.birthtimeMs : st.mtimeMs).toISOString()
    } catch {
      // not written yet: now
    }
  }
  return { id: slugify(name) || 'workspace', name: [...name].slice(0, 64).join(''), createdAt }
}

/**
 * The renderer's files (`extend`) on a Fastify of their own, for a connected workspace (whose /v1 is its server's,
 * and which has no downloads or previews here): anything else answers 404 in the /v1 envelope.
 */
async function rendererApp(extend: BuildOptions['extend']): Promise<Handler> {
  const app = await rendererFastify(extend)
  return (req, res) => app.routing(req, res)
}

/** The Fastify instance of `rendererApp` (the workspace host answers through its `inject`). */
export async function rendererFastify(extend: BuildOptions['extend']) {
  const app = Fastify()
  app.setNotFoundHandler((req, reply) => {
    void reply.code(404).send({ error: { code: 404, message: `${pathOf(req.raw)} is not served for a connected workspace` } })
  })
  if (extend) await extend(app as unknown as Api)
  await app.ready()
  return app
}

/**
 * /v1 of a workspace whose API is not in this process (a connected one) over HTTP: the caller shows this server's
 * token (the public OpenAPI document aside), then the backend answers as the workspace's own user (its server,
 * with the workspace's own token).
 */
async function proxyHttp(
  req: IncomingMessage,
  res: ServerResponse,
  backend: WorkspaceBackend,
  authorized: (token: string) => boolean
): Promise<void> {
  let response: Response
  try {
    const header = req.headers.authorization
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
    const method = req.method ?? 'GET'
    if (!match && pathOf(req) !== '/v1/openapi.json')
      response = errorResponse(401, 'Authentication required: send Authorization: Bearer <token>')
    else if (match && !authorized(match[1]!)) response = errorResponse(401, 'The token is unknown or has been revoked')
    else {
      const body = method === 'GET' || method === 'HEAD' ? undefined : await readBytes(req, API_BODY_LIMIT)
      if (body === null) response = errorResponse(413, 'body: larger than the server accepts')
      else {
        const headers = new Headers()
        for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
        response = await backend.request(
          new Request(new URL(req.url ?? '/', 'http://quire.localhost'), { method, headers, body: body && new Uint8Array(body) })
        )
      }
    }
  } catch (error) {
    console.error('Proxied request failed:', error instanceof Error ? error.message : error)
    response = errorResponse(500, 'Internal error')
  }
  await sendResponse(res, response)
}

export function serveRenderer(staticDir: string): BuildOptions['extend'] {
  return async (app) => {
    await app.register(fastifyStatic, {
      root: staticDir,
      index: 'index.html',
      setHeaders: (res) => {
        res.header('Content-Security-Policy', RENDERER_CSP)
        res.header('X-Content-Type-Options', 'nosniff')
      }
    })
  }
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/'
  const q = url.indexOf('?')
  return q < 0 ? url : url.slice(0, q)
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest()
}

/** `/app/workspaces…` over HTTP: the bearer token like /v1 (401 without), then the shared operations. */
async function answerWorkspaceHttp(
  req: IncomingMessage,
  res: ServerResponse,
  authorized: (token: string) => boolean,
  directory: WorkspaceDirectory
): Promise<void> {
  let response: Response
  try {
    const header = req.headers.authorization
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
    if (!match) response = errorResponse(401, 'Authentication required: send Authorization: Bearer <token>')
    else if (!authorized(match[1]!)) response = errorResponse(401, 'The token is unknown or has been revoked')
    else {
      const method = req.method ?? 'GET'
      // A workspace file sent to be opened is streamed to disk by the operation, never read whole here.
      const upload = isWorkspaceUpload(method, pathOf(req))
      const body =
        method === 'GET' || method === 'HEAD'
          ? undefined
          : upload
            ? (Readable.toWeb(req) as ReadableStream<Uint8Array>)
            : await readBody(req)
      if (body === null) response = errorResponse(413, 'body: larger than the server accepts')
      else {
        const headers = new Headers()
        if (req.headers['content-type']) headers.set('content-type', req.headers['content-type'])
        const init = { method, headers, body, duplex: 'half' } as RequestInit
        response = await answerWorkspaceRequest(directory, new Request(new URL(req.url ?? '/', 'http://quire.localhost'), init))
      }
    }
  } catch (error) {
    console.error('Workspace request failed:', error)
    response = errorResponse(500, 'Internal error')
  }
  await sendResponse(res, response)
}

/** The request body as text (workspace operations take JSON), or null when it is larger than they take. */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const bytes = await readBytes(req, WORKSPACE_BODY_LIMIT)
  return bytes && bytes.toString('utf8')
}

/**
 * The request body, or null as soon as it is known to be larger than `limit` bytes (its Content-Length, else what
 * arrived), as Fastify's bodyLimit does for /v1. The rest is discarded as it arrives (the request is not destroyed:
 * the 413 must reach the client), and that answer closes the connection (`sendResponse`).
 */
function readBytes(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const stop = (result: Buffer | null, error?: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', onError)
      req.resume()
      if (error) reject(error)
      else resolvePromise(result)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) stop(null)
      else chunks.push(chunk)
    }
    const onEnd = () => stop(Buffer.concat(chunks))
    const onError = (error: Error) => stop(null, error)
    if (Number(req.headers['content-length']) > limit) return stop(null)
    req.on('data', onData).on('end', onEnd).on('error', onError)
  })
}

async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  if (res.headersSent) return void res.end()
  // A body left unread (a 413 told by its Content-Length): the client may still be sending it.
  if (!res.req.complete) res.setHeader('connection', 'close')
  // A download (a workspace backup) is streamed as it is read, never held whole.
  if (response.body && response.headers.has('content-disposition')) {
    res.statusCode = response.status
    response.headers.forEach((value, key) => res.setHeader(key, value))
    return streamBody(res, response.body)
  }
  const body = Buffer.from(await response.arrayBuffer())
  res.statusCode = response.status
  response.headers.forEach((value, key) => res.setHeader(key, value))
  if (body.length) res.setHeader('content-length', body.length)
  res.end(body)
}

/**
 * Writes a body as it is read, waiting while the socket is full. The last chunk goes with `end()`: a client that
 * has every byte finds the answer finished (a server closing then does not wait for the connection).
 */
async function streamBody(res: ServerResponse, body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader()
  let held: Uint8Array | undefined
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (held && !res.write(held)) {
        await new Promise<void>((resolvePromise) => {
          const go = () => {
            res.off('drain', go)
            res.off('close', go)
            resolvePromise()
          }
          res.on('drain', go)
          res.on('close', go)
        })
      }
      if (res.destroyed) return
      held = value
    }
    res.end(held)
  } finally {
    // A client that went away: the source stops (and a backup's temporary file goes with it).
    await reader.cancel().catch(() => {})
  }
}

/** Stops accepting, closes idle keep-alive connections, waits for answers in progress (at most 10 s). */
function closeHttp(http: Server): Promise<void> {
  return new Promise((resolvePromise) => {
    const force = setTimeout(() => http.closeAllConnections(), 10_000).unref()
    http.close(() => {
      clearTimeout(force)
      resolvePromise()
    })
    http.closeIdleConnections()
  })
}
