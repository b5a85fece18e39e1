// A connected workspace's backend: /v1 answered by a server elsewhere, reached with the workspace's token. The
// caller's own credentials (the app's session, the loopback server's token) never leave this process, and the
// server's token never reaches the caller. Failures to reach the server answer in the /v1 error envelope.
import { randomUUID } from 'node:crypto'
import { REMOTE_STATUS_HEADER, type RemoteAccount, type RemoteConnection, type RemoteStatus } from '../../src-shared/workspaces'
import { API_BODY_LIMIT } from '../api/limits'
import { ApiError } from '../base/errors'
import type { WorkspaceBackend } from './backend'

/** How long one proxied request may take, answer included, before it answers 504. */
export const REMOTE_TIMEOUT_MS = 30_000
/** How long connecting (asking the server who the token belongs to) may take. */
export const PROBE_TIMEOUT_MS = 10_000

/**
 * Names the workspace hosts a request was proxied by (`quire-via: <id>, <id>`). A server whose host finds itself
 * in it refuses the request (508) instead of sending it round again: a workspace connected to the very server
 * that serves it would otherwise loop until sockets run out.
 */
export const VIA_HEADER = 'quire-via'

/** A new id for a host to name itself by in `quire-via`. */
export const newViaId = (): string => randomUUID()

/** True when a request was already proxied by the host named `viaId`. */
export function cameThrough(via: string | string[] | null | undefined, viaId: string): boolean {
  const value = Array.isArray(via) ? via.join(',') : via
  return !!value && value.split(',').some((id) => id.trim() === viaId)
}

/** Headers of the caller's request passed on (not its Authorization, cookies or hop-by-hop headers). */
const FORWARDED_REQUEST_HEADERS = [
  'accept',
  'accept-language',
  'content-type',
  'idempotency-key',
  'if-match',
  'if-none-match',
  'if-modified-since',
  'if-unmodified-since'
]
/** Headers of the server's answer passed back (the body is passed on decoded, so not its encoding or length). */
const FORWARDED_RESPONSE_HEADERS = [
  'content-type',
  'content-disposition',
  'etag',
  'last-modified',
  'cache-control',
  'retry-after',
  'location',
  'idempotency-replayed'
]

/**
 * On this backend's own 502: `none` when the request certainly never reached the server (the connection was not
 * made: refused, no such host, no route). Any other failure after the request left may have been applied.
 */
export const DELIVERY_HEADER = 'quire-remote-delivery'
/** Network errors that happen before a request is sent. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID'
])

export interface RemoteBackendOptions {
  /** The server's base address, normalized (`normalizeRemoteUrl`): `/v1/...` paths are appended to it. */
  url: string
  /** The workspace's token; undefined when it cannot be read here (`tokenProblem` says why). */
  token: string | undefined
  /** The host's id in `quire-via`. */
  via: string
  tokenProblem?: string
  /** Told whenever the connection's status or its message changes. */
  onConnection?: (connection: RemoteConnection) => void
  timeoutMs?: number
  now?: () => Date
  /** The fetch implementation (tests). */
  fetch?: typeof fetch
}

export class RemoteBackend implements WorkspaceBackend {
  private state: RemoteConnection = { status: 'unknown' }
  private readonly host: string
  private readonly send: typeof fetch

  constructor(private readonly options: RemoteBackendOptions) {
    this.host = new URL(options.url).host
    this.send = options.fetch ?? fetch
  }

  get url(): string {
    return this.options.url
  }

  /** What the last request found. */
  get connection(): RemoteConnection {
    return { ...this.state }
  }

  /** Only /v1 goes to the server; downloads and previews of this process do not exist for a connected workspace. */
  fetch(request: Request): Promise<Response> {
    return this.request(request)
  }

  async request(request: Request): Promise<Response> {
    const incoming = new URL(request.url)
    if (incoming.pathname !== '/v1' && !incoming.pathname.startsWith('/v1/')) {
      return this.error(404, `${incoming.pathname} is not served for a workspace connected to ${this.host}`)
    }
    if (!this.options.token) {
      const message = this.options.tokenProblem ?? `No token is kept for ${this.host}: enter it again in Manage workspaces`
      this.record('refused', message)
      return this.error(401, message)
    }
    const method = request.method.toUpperCase()
    let body: ArrayBuffer | undefined
    if (method !== 'GET' && method !== 'HEAD') {
      body = await request.arrayBuffer()
      if (body.byteLength > API_BODY_LIMIT) return this.error(413, 'body: larger than the server accepts')
    }
    const headers = new Headers()
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = request.headers.get(name)
      if (value !== null) headers.set(name, value)
    }
    headers.set('authorization', `Bearer ${this.options.token}`)
    const via = request.headers.get(VIA_HEADER)
    headers.set(VIA_HEADER, via ? `${via}, ${this.options.via}` : this.options.via)
    const target = `${this.options.url}${incoming.pathname}${incoming.search}`
    const timeoutMs = this.options.timeoutMs ?? REMOTE_TIMEOUT_MS
    let answer: Response
    let bytes: ArrayBuffer
    const signal = AbortSignal.timeout(timeoutMs)
    const exchange = async () => {
      const res = await this.send(target, { method, headers, body, redirect: 'manual', signal })
      return { res, data: await res.arrayBuffer() }
    }
    try {
      let result
      try {
        result = await exchange()
      } catch (error) {
        // A kept-alive connection the server closed meanwhile fails at once; a read is asked again, on a new one
        // (a write is not: the server may have applied it).
        if ((method !== 'GET' && method !== 'HEAD') || !isStaleConnection(error)) throw error
        result = await exchange()
      }
      answer = result.res
      bytes = result.data
    } catch (error) {
      if (isTimeout(error)) {
        const message = `${this.host} did not answer within ${duration(timeoutMs)}`
        this.record('unreachable', message)
        return this.error(504, message)
      }
      const message = `Could not reach ${this.host}: ${networkReason(error)}`
      this.record('unreachable', message)
      const code = error instanceof Error ? (error.cause as { code?: unknown } | undefined)?.code : undefined
      return this.error(502, message, typeof code === 'string' && NOT_SENT.has(code) ? { [DELIVERY_HEADER]: 'none' } : {})
    }
    if (answer.status === 401) {
      const message = `${this.host} refused this workspace's token (${errorMessage(bytes) ?? 'unauthorized'}): enter a new one in Manage workspaces`
      this.record('refused', message)
      return this.error(401, message)
    }
    this.record('online')
    const out = new Headers({ [REMOTE_STATUS_HEADER]: 'online' })
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = answer.headers.get(name)
      if (value !== null) out.set(name, value)
    }
    const empty = answer.status === 204 || answer.status === 205 || answer.status === 304 || method === 'HEAD'
    return new Response(empty ? null : bytes, { status: answer.status, headers: out })
  }

  /** Asks the server who the token belongs to, now; the connection it finds. */
  async check(): Promise<RemoteConnection> {
    await this.request(new Request('http://quire.localhost/v1/user'))
    return this.connection
  }

  async close(): Promise<void> {
    // Nothing is held open: each request is its own fetch (the host closes a backend once its requests finished).
  }

  private record(status: RemoteStatus, message?: string): void {
    const previous = this.state
    const at = (this.options.now?.() ?? new Date()).toISOString()
    // A refused token is an answer too: only a server out of reach keeps the time it last answered.
    const answeredAt = status === 'unreachable' ? previous.answeredAt : this.options.token ? at : previous.answeredAt
    this.state = { status, checkedAt: at, ...(answeredAt ? { answeredAt } : {}), ...(message ? { message } : {}) }
    if (previous.status !== status || previous.message !== message) this.options.onConnection?.(this.connection)
  }

  private error(status: number, message: string, extra: Record<string, string> = {}): Response {
    return new Response(JSON.stringify({ error: { code: status, message } }), {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8', [REMOTE_STATUS_HEADER]: this.state.status, ...extra }
    })
  }
}

/**
 * Connecting: asks the server at `url` who `token` belongs to (`GET /v1/user`). A server that cannot be reached,
 * is not a /v1 API, or refuses the token is a 400 naming the field to correct.
 */
export async function probeRemote(
  url: string,
  token: string,
  options: { via?: string; timeoutMs?: number; fetch?: typeof fetch } = {}
): Promise<RemoteAccount> {
  const host = new URL(url).host
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS
  let answer: Response
  let bytes: ArrayBuffer
  try {
    answer = await (options.fetch ?? fetch)(`${url}/v1/user`, {
      headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...(options.via ? { [VIA_HEADER]: options.via } : {}) },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs)
    })
    bytes = await answer.arrayBuffer()
  } catch (error) {
    if (isTimeout(error)) throw new ApiError(400, `remote.url: ${host} did not answer within ${duration(timeoutMs)}`)
    throw new ApiError(400, `remote.url: could not reach ${host}: ${networkReason(error)}`)
  }
  if (answer.status === 401 || answer.status === 403) {
    throw new ApiError(400, `remote.token: ${host} refused the token (${errorMessage(bytes) ?? answer.status})`)
  }
  if (answer.status === 508) throw new ApiError(400, `remote.url: ${url} is this Quire itself; connect to another server`)
  const user = answer.ok ? parseJson(bytes) : undefined
  if (!user || typeof user.id !== 'string' || !user.id) {
    throw new ApiError(
      400,
      `remote.url: ${url} does not answer as a /v1 API (GET /v1/user: ${answer.status}${answer.ok ? ', not a user' : ''})`
    )
  }
  return {
    id: user.id,
    displayName: typeof user.displayName === 'string' && user.displayName ? user.displayName : user.id,
    ...(typeof user.email === 'string' && user.email ? { email: user.email } : {})
  }
}

function parseJson(bytes: ArrayBuffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes))
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** The message of an answer in the /v1 error envelope, if it is one. */
function errorMessage(bytes: ArrayBuffer): string | undefined {
  const error = parseJson(bytes)?.error as { message?: unknown } | undefined
  return typeof error?.message === 'string' && error.message ? error.message.slice(0, 300) : undefined
}

const duration = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`)

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || (error.cause instanceof Error && error.cause.name === 'TimeoutError'))
}

function isStaleConnection(error: unknown): boolean {
  const code = error instanceof Error ? (error.cause as { code?: unknown } | undefined)?.code : undefined
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET'
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'its name could not be looked up (offline?)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable (offline?)',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate is not trusted',
  CERT_HAS_EXPIRED: 'its certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is for another name'
}

/** Why a fetch failed, in words (fetch itself says only "fetch failed"; the reason is in its cause). */
function networkReason(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined
  const code = typeof cause?.code === 'string' ? cause.code : undefined
  if (code && REASONS[code]) return REASONS[code]
  if (typeof cause?.message === 'string' && cause.message) return cause.message
  return error instanceof Error ? error.message : String(error)
}
