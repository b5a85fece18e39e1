import type { IncomingMessage, ServerResponse } from 'node:http'
import { answerNode, buildApi, type Api, type BuildOptions } from '../api/app'
import type { Clock } from '../base/clock'
import type { Services } from '../workspace/context'
import type { TokenSeal } from '../workspace/tokenSeal'
import { bootstrapWorkspace, openWorkspace, startMaintenance, type WorkspaceAccount } from '../workspace/workspace'
import { repository } from '../storage/repositories/memo'
import { userRepository } from '../storage/repositories/userRepository'
import type { WorkspaceBackend } from './backend'

/** A workspace on this computer: the embedded API on its database (every optional member but `connected` is present). */
export interface LocalBackend extends WorkspaceBackend {
  /** A valid owner token for in-process calls (the desktop app's own session, or the headless server's token). */
  readonly ownerToken: string
  readonly bootstrapped: boolean
  readonly services: Services
  readonly api: Api
  serveNode(req: IncomingMessage, res: ServerResponse): void
  setBaseUrl(url: string): void
  readonly connected?: undefined
}

/** The label of the desktop app's session token: one row, replaced on every open. */
export const SESSION_TOKEN_LABEL = 'session'

export interface LocalBackendOptions {
  dataDir: string
  /** Starts the URLs the API gives out (downloads, previews); the desktop app serves them itself. */
  baseUrl?: string
  /**
   * The owner token. Absent: a fresh random token, labelled `session`, replacing the previous session token (so
   * token rows do not pile up, one per start). Given: that token is made a valid owner token (the headless
   * server's `--token`); with `tokenLabel` it replaces the previous token of that label instead of adding one.
   */
  token?: string
  tokenLabel?: string
  clock?: Clock
  logger?: boolean
  /** Non-API routes (the renderer's static files), as `buildApi`'s `extend`. */
  extend?: BuildOptions['extend']
  /** A connected workspace's local copy: its owner is the server's account (no organization of its own is made). */
  account?: WorkspaceAccount
  /** The process's keychain seals (the desktop app's safeStorage): secrets in the database are sealed with them first. */
  seals?: readonly TokenSeal[]
}

/**
 * The embedded /v1 API, answered in process through Fastify's `inject`: no port is opened, so the desktop
 * app's IPC bridge reaches the same code the loopback server runs.
 */
export async function openLocalBackend(opts: LocalBackendOptions): Promise<LocalBackend> {
  const workspace = openWorkspace({ dataDir: opts.dataDir, clock: opts.clock, baseUrl: opts.baseUrl ?? 'http://quire.localhost' })
  let stopMaintenance = () => {}
  try {
    const ownerToken = opts.token ?? `qr_session_${crypto.randomUUID()}`
    const label = opts.token ? opts.tokenLabel : SESSION_TOKEN_LABEL
    const { services } = workspace
    if (opts.seals) services.seals = opts.seals
    // A connected workspace's copy records no audit event, from its first write on (upkeep runs at open): its
    // server's log is the workspace's.
    if (opts.account) services.audit = false
    const boot = services.db
      .transaction(() => {
        const result = bootstrapWorkspace(services, ownerToken, opts.account)
        if (label)
          repository(services.db, userRepository).replaceLabelledToken(
            result.owner.id,
            ownerToken,
            label,
            services.clock.now().toISOString()
          )
        return result
      })
      .immediate()
    services.writes++
    stopMaintenance = startMaintenance(services)
    const api = await buildApi(services, { logger: opts.logger, extend: opts.extend })
    const backend: LocalBackend = {
      ownerToken,
      bootstrapped: !!boot.organizationId,
      services,
      api,
      serveNode: (req, res) => answerNode(api, req, res),
      setBaseUrl: (url) => void (services.baseUrl = url),
      request(request: Request): Promise<Response> {
        const headers = new Headers(request.headers)
        headers.set('authorization', `Bearer ${ownerToken}`)
        return backend.fetch(new Request(request, { headers }))
      },
      fetch: (request: Request) => injectFetch(api, request),
      async close() {
        stopMaintenance()
        await api.close()
        await workspace.close()
      }
    }
    return backend
  } catch (error) {
    // A workspace that cannot be opened (a broken database, a failing migration) leaves nothing open behind.
    stopMaintenance()
    await workspace.close()
    throw error
  }
}

/**
 * A `Request` answered by a Fastify instance in process (`inject`: no socket), as a `Response`. A HEAD is answered
 * by its GET route, without the body (the API has no HEAD routes of its own: answerNode).
 */
export async function injectFetch(api: Pick<Api, 'inject'>, request: Request): Promise<Response> {
  const url = new URL(request.url)
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined
  const requestHeaders: Record<string, string> = {}
  request.headers.forEach((value, key) => void (requestHeaders[key] = value))
  const head = request.method === 'HEAD'
  const res = await api.inject({
    method: (head ? 'GET' : request.method) as 'GET',
    url: url.pathname + url.search,
    headers: requestHeaders,
    payload: body
  })
  const headers = new Headers()
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, String(v))
  const noBody = head || res.statusCode === 204 || res.statusCode === 205 || res.statusCode === 304
  return new Response(noBody ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers })
}
