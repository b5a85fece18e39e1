// The workspace host's side of hostProtocol.ts: in a process of its own (a child process under Node, Electron's
// utility process in the desktop app), it opens the workspaces (a home's WorkspaceHost, or one `--data` workspace)
// and answers the parent's messages. Whatever a request throws answers 500 in the /v1 envelope; the process itself
// ends only when asked to close (after closing its workspaces, which checkpoints their last write) or when it dies.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Api } from '../api/app'
import { buildApi } from '../api/app'
import { WARM_EVENT } from '../base/codeCache'
import { ApiError } from '../base/errors'
import { manualClock, type Clock } from '../base/clock'
import { WORKSPACE_BODY_LIMIT } from '../workspaces/operations'
import { injectFetch } from '../backend/localBackend'
import { cameThrough, VIA_HEADER } from '../backend/remoteBackend'
import { newToken } from '../storage/ids'
import { repository } from '../storage/repositories/memo'
import { organizationRepository } from '../storage/repositories/organizationRepository'
import { userRepository } from '../storage/repositories/userRepository'
import type { Services } from '../workspace/context'
import { aesSeal, fileSeal, type TokenSeal } from '../workspace/tokenSeal'
import { bootstrapWorkspace, openWorkspace, startMaintenance } from '../workspace/workspace'
import { WORKSPACE_HEADER } from '../../src-shared/workspaces'
import type { Role } from '../../src-shared/schemas/common'
import {
  requestOf,
  responseMessage,
  type FromHost,
  type HostControl,
  type HostPort,
  type HostReady,
  type HostRequestMessage,
  type HostStartOptions,
  type HostTarget,
  type ToHost
} from '../workspaces/hostProtocol'
import {
  answerWorkspaceRequest,
  errorResponse,
  isWorkspacesPath,
  isWorkspaceUpload,
  singleWorkspaceDirectory,
  type WorkspaceDirectory
} from '../workspaces/operations'
import { describeDataDir, openHome, rendererFastify, serveRenderer, tokenCheck } from './server'

/** What the host serves: a home's workspaces or one workspace. */
interface Hosted {
  ready: HostReady
  answer(to: HostTarget, request: Request): Promise<Response>
  setBaseUrl(url: string): void
  /** The served workspace's services (test control). */
  services(): Services | undefined
  close(): Promise<void>
}

/**
 * Answers the parent's messages on `port` until it asks to close; `exit` ends the process (with 0 once closed, 1
 * when the workspaces cannot be opened).
 */
export function serveHost(port: HostPort, exit: (code: number) => void): { close(): void } {
  let hosted: Promise<Hosted> | undefined
  let testing: { clock: ReturnType<typeof manualClock> } | undefined
  const post = (message: FromHost, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer)
  const opened = async () => {
    if (!hosted) throw new Error('The workspace host was not started')
    return hosted
  }

  port.on('message', (raw) => {
    const message = raw as ToHost
    switch (message.type) {
      case 'start': {
        if (hosted) return
        testing = message.testing && { clock: manualClock(new Date(message.testing.clock)) }
        hosted = openHosted(message, testing?.clock, (workspace) => post({ type: 'remote-change', workspace }))
        hosted.then(
          (h) => {
            post({ type: 'ready', ready: h.ready })
            // What opening the workspaces compiled is what the next host wants from the code cache (base/codeCache.ts).
            process.emit(WARM_EVENT)
          },
          (error: unknown) => {
            post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
            exit(1)
          }
        )
        return
      }
      case 'base-url':
        void opened().then((h) => h.setBaseUrl(message.url))
        return
      case 'request':
        void answer(message).then(({ message: answerMessage, transfer }) => post(answerMessage, transfer))
        return
      case 'control':
        void control(message.control).then(
          (result) => post({ type: 'control', id: message.id, result }),
          (error: unknown) => post({ type: 'control', id: message.id, error: error instanceof Error ? error.message : String(error) })
        )
        return
      case 'close':
        close()
        return
    }
  })

  let closing = false
  function close() {
    if (closing) return
    closing = true
    void opened()
      .then((h) => h.close())
      .catch((error: unknown) => console.error('Closing the workspaces failed:', error))
      .finally(() => {
        post({ type: 'closed' })
        exit(0)
      })
  }

  async function answer(message: HostRequestMessage) {
    let response: Response
    try {
      const h = await opened()
      response = await h.answer(message.to, requestOf(message))
    } catch (error) {
      if (error instanceof ApiError) response = errorResponse(error.status, error.message)
      else {
        console.error(`Workspace host: ${message.method} ${message.path} failed:`, error)
        response = errorResponse(500, 'Internal error')
      }
    }
    try {
      return await responseMessage(message.id, response)
    } catch (error) {
      console.error(`Workspace host: the answer to ${message.method} ${message.path} could not be read:`, error)
      return responseMessage(message.id, errorResponse(500, 'Internal error'))
    }
  }

  return { close }

  async function control(op: HostControl): Promise<unknown> {
    if (!testing) throw new Error('control: this host was not started for tests')
    if (op.op === 'crash') return void process.kill(process.pid, 'SIGKILL')
    if (op.op === 'clock') return void testing.clock.set(op.now)
    const h = await opened()
    const services = h.services()
    if (!services) throw new Error('control: the active workspace has no database here')
    const { db } = services
    const users = repository(db, userRepository)
    const firstOrg = () => db.prepare<[], string>('SELECT id FROM organizations ORDER BY seq LIMIT 1').pluck().get()!
    if (op.op === 'info') return { orgId: firstOrg(), owner: h.ready.token ? users.getByToken(h.ready.token) : undefined }
    const now = testing.clock.now().toISOString()
    const token = newToken()
    const user = db.transaction(() => {
      const row = users.create({ email: op.email, displayName: op.name }, now)
      users.addToken(row.id, token, 'test', now)
      if (op.role !== 'none') repository(db, organizationRepository).addMember(op.orgId ?? firstOrg(), row.id, op.role as Role | null, now)
      return row
    })()
    services.writes++
    return { user, token }
  }
}

async function openHosted(options: HostStartOptions, clock: Clock | undefined, onRemoteChange: (id: string) => void): Promise<Hosted> {
  // The desktop app's keychain key, opened by main: tokens and credentials are sealed with it (kind `os`).
  const seals: TokenSeal[] | undefined = options.keychainKey
    ? [{ ...aesSeal(Buffer.from(options.keychainKey, 'base64')), kind: 'os' }, fileSeal]
    : undefined
  const staticDir = options.http?.staticDir && resolve(options.http.staticDir)
  const extend = staticDir && existsSync(resolve(staticDir, 'index.html')) ? serveRenderer(staticDir) : undefined
  if (options.home) return hostHome(options.home, options, { clock, seals, extend, onRemoteChange })
  if (options.dataDir) return hostDataDir(options.dataDir, options, { clock, seals, extend })
  throw new Error('The workspace host needs home or dataDir')
}

interface Extras {
  clock?: Clock
  seals?: TokenSeal[]
  extend?: ReturnType<typeof serveRenderer>
  onRemoteChange?: (id: string) => void
}

/** A home's workspaces, as the desktop app and `quire serve --home` keep them. */
async function hostHome(home: string, options: HostStartOptions, extras: Extras): Promise<Hosted> {
  const http = options.http
  // Over HTTP the server's token is an owner token in every local workspace; the desktop app's own session
  // token is made per open instead (`request()` adds it).
  const token = http ? (http.token ?? newToken()) : undefined
  let baseUrl = options.baseUrl ?? 'http://127.0.0.1'
  const workspaces = await openHome(home, {
    token,
    generatedToken: !!http && !http.token,
    baseUrl: () => baseUrl,
    clock: extras.clock,
    logger: http?.logger,
    extend: extras.extend,
    seals: extras.seals,
    onRemoteChange: extras.onRemoteChange
  })
  const authorized = token === undefined ? () => false : tokenCheck(token)
  // What a connected workspace has beside its server's /v1: the renderer's files.
  const rendererOnly = await rendererFastify(extras.extend)

  /** As `serveHome` in server.ts answers the port, with Requests. */
  async function answerHttp(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname
    if (isWorkspacesPath(path)) return workspaceHttp(request, authorized, workspaces)
    if (cameThrough(request.headers.get(VIA_HEADER), workspaces.viaId)) {
      return errorResponse(508, 'This request came back to the Quire that sent it: a workspace here is connected to this very server')
    }
    return workspaces.use(async (backend, id) => {
      const shown = request.headers.get(WORKSPACE_HEADER)
      let response: Response
      if (shown !== null && shown !== id)
        response = errorResponse(409, 'Another window switched to another workspace: this window now shows that one')
      else if (backend.api) response = await backend.fetch(request)
      else if (path === '/v1' || path.startsWith('/v1/')) response = await proxy(request, backend.request.bind(backend), authorized)
      else response = await injectFetch(rendererOnly, request)
      return withHeader(response, WORKSPACE_HEADER, id)
    })
  }

  return {
    ready: { token, bootstrapped: workspaces.activeBackend.bootstrapped ?? false },
    answer(to, request) {
      if (to === 'http') return answerHttp(request)
      if (to === 'owner') return workspaces.use((backend) => backend.request(request))
      return workspaces.fetch(request)
    },
    setBaseUrl(url) {
      baseUrl = url
      workspaces.activeBackend.setBaseUrl?.(url)
    },
    services: () => workspaces.activeBackend.api?.services,
    async close() {
      await workspaces.close()
      await rendererOnly.close()
    }
  }
}

/** One workspace folder (`quire serve --data`). */
async function hostDataDir(dataDir: string, options: HostStartOptions, extras: Extras): Promise<Hosted> {
  const http = options.http
  const workspace = openWorkspace({ dataDir, clock: extras.clock, baseUrl: options.baseUrl, searchThreads: http?.searchThreads })
  const { services } = workspace
  if (extras.seals) services.seals = extras.seals
  let api: Api
  let stopMaintenance = () => {}
  let boot: ReturnType<typeof bootstrapWorkspace>
  try {
    boot = bootstrapWorkspace(services, http?.token)
    stopMaintenance = startMaintenance(services)
    api = await buildApi(services, { logger: http?.logger, extend: extras.extend })
  } catch (error) {
    stopMaintenance()
    await workspace.close()
    throw error
  }
  const users = repository(services.db, userRepository)
  const directory = singleWorkspaceDirectory(describeDataDir(dataDir))
  const ownerToken = http?.token ?? boot.createdToken
  return {
    ready: { token: ownerToken, bootstrapped: !!boot.organizationId },
    answer(to, request) {
      if (isWorkspacesPath(new URL(request.url).pathname)) {
        // Any token of the workspace may read the list; the writes answer 409 whoever asks.
        return to === 'http' ? workspaceHttp(request, (t) => !!users.getByToken(t), directory) : answerWorkspaceRequest(directory, request)
      }
      if (to === 'owner') {
        if (!ownerToken) return Promise.resolve(errorResponse(503, 'This workspace host has no owner token to answer as'))
        const headers = new Headers(request.headers)
        headers.set('authorization', `Bearer ${ownerToken}`)
        return injectFetch(api, new Request(request, { headers }))
      }
      return injectFetch(api, request)
    },
    setBaseUrl: (url) => void (services.baseUrl = url),
    services: () => services,
    async close() {
      stopMaintenance()
      await api.close()
      await workspace.close()
    }
  }
}

const bearerOf = (request: Request) => /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1]

/** `/app/workspaces…` over HTTP: the bearer token like /v1 (401 without), then the shared operations (server.ts). */
async function workspaceHttp(request: Request, authorized: (token: string) => boolean, directory: WorkspaceDirectory): Promise<Response> {
  const token = bearerOf(request)
  if (!request.headers.get('authorization')) return errorResponse(401, 'Authentication required: send Authorization: Bearer <token>')
  if (token === undefined || !authorized(token)) return errorResponse(401, 'The token is unknown or has been revoked')
  const url = new URL(request.url)
  let body: ReadableStream<Uint8Array> | string | undefined
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    if (isWorkspaceUpload(request.method, url.pathname)) body = request.body ?? undefined
    else {
      const bytes = await request.arrayBuffer()
      if (bytes.byteLength > WORKSPACE_BODY_LIMIT) return errorResponse(413, 'body: larger than the server accepts')
      body = new TextDecoder().decode(bytes)
    }
  }
  const headers = new Headers()
  const type = request.headers.get('content-type')
  if (type) headers.set('content-type', type)
  return answerWorkspaceRequest(directory, new Request(url, { method: request.method, headers, body, duplex: 'half' } as RequestInit))
}

/** /v1 of a connected workspace: the caller shows the server's token (the public OpenAPI document aside). */
async function proxy(
  request: Request,
  send: (request: Request) => Promise<Response>,
  authorized: (token: string) => boolean
): Promise<Response> {
  const token = bearerOf(request)
  const path = new URL(request.url).pathname
  if (token === undefined && path !== '/v1/openapi.json')
    return errorResponse(401, 'Authentication required: send Authorization: Bearer <token>')
  if (token !== undefined && !authorized(token)) return errorResponse(401, 'The token is unknown or has been revoked')
  return send(request)
}

/** The same answer with one more header (answers of `fetch` may have immutable headers). */
function withHeader(response: Response, name: string, value: string): Response {
  const headers = new Headers(response.headers)
  headers.set(name, value)
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}
