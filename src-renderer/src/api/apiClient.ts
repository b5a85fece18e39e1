// The renderer's API client over any transport (the desktop bridge or HTTP): JSON in and out, the addendum's
// error envelope as ApiError, and the workspace a window shows. Pure (no window): tested under Node.
import { type BridgeBody, type BridgeRequest, type BridgeResponse } from '../../../src-shared/ipc.ts'
import { REMOTE_STATUS_HEADER, UNSENT_HEADER, WORKSPACE_HEADER, type RemoteStatus } from '../../../src-shared/workspaces.ts'
import { ApiError, toApiError } from './apiError.ts'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface ApiClient {
  /** Which transport answers: the desktop bridge or HTTP to this origin. */
  readonly transport: 'ipc' | 'http'
  /** False in a browser opened without a token: every request would answer 401. */
  readonly hasCredentials: boolean
  request<T = unknown>(method: HttpMethod, path: string, body?: unknown, options?: RequestOptions): Promise<T>
  /** A file the API answers (a workspace backup): its bytes, type and the name it is saved as (content-disposition). */
  download(path: string): Promise<Download>
  /** Sends a file as the raw body (`POST`, of `contentType`); the JSON answer, errors as `request`'s. */
  upload<T = unknown>(path: string, bytes: Uint8Array<ArrayBuffer>, contentType: string): Promise<T>
  /**
   * Called when the server answers from another workspace than the one this window showed (another window of
   * a `--home` server switched): the request was refused, nothing was read or written. Returns the unsubscribe.
   */
  onWorkspaceChanged(listener: (workspaceId: string) => void): () => void
  /** This window switched itself: requests from now on are meant for `workspaceId`. */
  expectWorkspace(workspaceId: string): void
  /**
   * Called when an answer of a connected workspace says its connection is not what the last one said
   * (`quire-remote-status`: the server went out of reach, refused the token, answers again). Returns the unsubscribe.
   */
  onRemoteStatus(listener: (status: RemoteStatus) => void): () => void
  /**
   * Called when an answer of a connected workspace says another number of writes wait to be sent to its server
   * than the last one did (`quire-unsent`; an answer of one without it: none). Returns the unsubscribe.
   */
  onUnsent(listener: (count: number) => void): () => void
}

/** Headers of one request, and the answer's headers for the few callers that read them (ETag). */
export interface RequestOptions {
  headers?: Record<string, string>
  /** Called with the answer's headers (lower-case names) before its body is returned or its error thrown. */
  onHeaders?(headers: Record<string, string>): void
}

export type Send = (req: BridgeRequest) => Promise<BridgeResponse>

export interface Download {
  bytes: Uint8Array<ArrayBuffer>
  contentType: string
  /** From the answer's content-disposition; empty when it names none. */
  filename: string
}

/** `attachment; filename="a.quire.db"` → `a.quire.db` (`filename*=UTF-8''…` preferred when present). */
export function dispositionFilename(header: string | undefined): string {
  if (!header) return ''
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim())
    } catch {
      // fall back to the plain name
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1] ?? ''
}

/** The code of the error a request gets when another window switched the server's workspace meanwhile. */
export const WORKSPACE_CHANGED = 'workspace_changed'
/** The code of a 401 from a connected workspace whose server refused its token (not this app's own token). */
export const REMOTE_REFUSED = 'remote_refused'
/** The code of a 502/504 from a connected workspace whose server could not be reached or did not answer. */
export const REMOTE_UNREACHABLE = 'remote_unreachable'
/**
 * The code of a refusal from a connected workspace's copy on this computer while its server is out of reach: a
 * 503 for what the copy does not keep or a write that needs the server, a 404 for what was never copied.
 */
export const REMOTE_OFFLINE = 'remote_offline'

const REMOTE_STATUSES: readonly string[] = ['online', 'unreachable', 'refused', 'unknown'] satisfies RemoteStatus[]

function parseJson(body: BridgeBody | null): unknown {
  if (body === null) return undefined
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body)
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * The unsent writes an answer reports: its `quire-unsent` count, or none when a connected workspace answered
 * without it (the header is left out at zero); null for an answer that says nothing (not a connected workspace's).
 */
function unsentCount(header: string | undefined, connected: boolean): number | null {
  if (header !== undefined && /^\d{1,9}$/.test(header.trim())) return Number(header.trim())
  return connected ? 0 : null
}

export function createApiClient(options: { send: Send; transport: 'ipc' | 'http'; hasCredentials: boolean }): ApiClient {
  const { send, transport, hasCredentials } = options
  // The workspace this window shows, as the server names it (only a `--home` server does).
  let shown: string | null = null
  const listeners = new Set<(workspaceId: string) => void>()
  // The connection status the last answer of a connected workspace gave; only /v1 answers of one carry it.
  let remoteStatus: RemoteStatus | null = null
  const statusListeners = new Set<(status: RemoteStatus) => void>()
  // Writes the connected workspace keeps to send, as the last answer of one said (null: none seen yet).
  let unsent: number | null = null
  const unsentListeners = new Set<(count: number) => void>()
  const client: ApiClient = {
    transport,
    hasCredentials,
    onWorkspaceChanged(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    expectWorkspace(workspaceId) {
      shown = workspaceId
      // Another workspace, another connection (or none): its first answer says how it is.
      remoteStatus = null
      unsent = null
    },
    onRemoteStatus(listener) {
      statusListeners.add(listener)
      return () => void statusListeners.delete(listener)
    },
    onUnsent(listener) {
      unsentListeners.add(listener)
      return () => void unsentListeners.delete(listener)
    },
    async request<T>(method: HttpMethod, path: string, body?: unknown, options?: RequestOptions): Promise<T> {
      const res = await exchange(
        method,
        path,
        body === undefined ? undefined : { body: JSON.stringify(body), type: 'application/json' },
        options
      )
      return parseJson(res.body) as T
    },
    async download(path) {
      const res = await exchange('GET', path, undefined, { headers: { accept: '*/*' } })
      const bytes = res.body === null ? new Uint8Array() : typeof res.body === 'string' ? new TextEncoder().encode(res.body) : res.body
      return {
        bytes,
        contentType: res.headers['content-type'] ?? 'application/octet-stream',
        filename: dispositionFilename(res.headers['content-disposition'])
      }
    },
    async upload<T>(path: string, bytes: Uint8Array<ArrayBuffer>, contentType: string): Promise<T> {
      const res = await exchange('POST', path, { body: bytes, type: contentType })
      return parseJson(res.body) as T
    }
  }

  /** One request: the workspace header out, the workspace, connection and unsent headers in, errors thrown. */
  async function exchange(
    method: HttpMethod,
    path: string,
    body: { body: BridgeBody; type: string } | undefined,
    options?: RequestOptions
  ): Promise<BridgeResponse> {
    const req: BridgeRequest = {
      method,
      path,
      headers: { accept: 'application/json', ...options?.headers, ...(shown ? { [WORKSPACE_HEADER]: shown } : {}) }
    }
    if (body !== undefined) {
      req.headers = { ...req.headers, 'content-type': body.type }
      req.body = body.body
    }
    let res: BridgeResponse
    try {
      res = await send(req)
    } catch (cause) {
      throw new ApiError(0, 'network_error', cause instanceof Error ? cause.message : String(cause))
    }
    options?.onHeaders?.(res.headers)
    const answered = res.headers[WORKSPACE_HEADER]
    const sentFor = shown
    if (answered && answered !== shown) {
      shown = answered
      if (sentFor !== null) for (const listener of listeners) listener(answered)
    }
    const status = res.headers[REMOTE_STATUS_HEADER]
    const remote = status !== undefined && REMOTE_STATUSES.includes(status) ? (status as RemoteStatus) : null
    if (remote && remote !== remoteStatus) {
      remoteStatus = remote
      for (const listener of statusListeners) listener(remote)
    }
    const count = unsentCount(res.headers[UNSENT_HEADER], remote !== null)
    if (count !== null && count !== unsent) {
      unsent = count
      for (const listener of unsentListeners) listener(count)
    }
    if (res.status < 400) return res
    const payload = parseJson(res.body)
    // Refused because the window showed another workspace: the listeners tell the user, once, not each request.
    if (res.status === 409 && answered && sentFor !== null && answered !== sentFor) {
      throw new ApiError(409, WORKSPACE_CHANGED, toApiError(res.status, payload).message)
    }
    const error = toApiError(res.status, payload)
    // The connected workspace's server, not this app, refused or could not be asked: screens say so.
    if (res.status === 401 && remote === 'refused') throw new ApiError(401, REMOTE_REFUSED, error.message, error.details)
    if (remote === 'unreachable') {
      // 502/504: the server did not answer. 503/404: the copy on this computer answered instead, and does not
      // keep this (or the write needs the server): not the same as a server that is down, so named apart.
      if (res.status === 502 || res.status === 504) throw new ApiError(res.status, REMOTE_UNREACHABLE, error.message, error.details)
      if (res.status === 503 || res.status === 404) throw new ApiError(res.status, REMOTE_OFFLINE, error.message, error.details)
    }
    throw error
  }

  return client
}
