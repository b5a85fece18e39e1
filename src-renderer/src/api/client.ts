// The one way the renderer talks to the API. In the desktop app requests go over the preload bridge
// (`window.quire`) to the embedded backend; in a browser they go over HTTP to the server that served the page.
import { isTextContentType, type BridgeBody, type BridgeRequest, type BridgeResponse } from '../../../src-shared/ipc.ts'
import { ApiError, toApiError } from './apiError.ts'

export { ApiError, fieldError } from './apiError.ts'
export { withQuery } from './paths.ts'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface ApiClient {
  /** Which transport answers: the desktop bridge or HTTP to this origin. */
  readonly transport: 'ipc' | 'http'
  /** False in a browser opened without a token: every request would answer 401. */
  readonly hasCredentials: boolean
  request<T = unknown>(method: HttpMethod, path: string, body?: unknown): Promise<T>
}

type Send = (req: BridgeRequest) => Promise<BridgeResponse>

const TOKEN_KEY = 'quire.token'

/**
 * Takes `?token=` from the address once: keeps it in sessionStorage (this tab only) and removes it from the
 * URL so it is not left in history, bookmarks or screenshots.
 */
export function takeTokenFromLocation(): string | null {
  const url = new URL(window.location.href)
  const fromUrl = url.searchParams.get('token')
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl)
    url.searchParams.delete('token')
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash)
    return fromUrl
  }
  return sessionStorage.getItem(TOKEN_KEY)
}

function httpTransport(token: string | null): Send {
  return async ({ method, path, headers, body }) => {
    const res = await fetch(path, {
      method,
      headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ?? null,
    })
    const responseHeaders: Record<string, string> = {}
    res.headers.forEach((value, key) => {
      responseHeaders[key] = value
    })
    const contentType = res.headers.get('content-type')
    const raw = isTextContentType(contentType) ? await res.text() : new Uint8Array(await res.arrayBuffer())
    return { status: res.status, headers: responseHeaders, body: raw.length === 0 ? null : raw }
  }
}

function parseJson(body: BridgeBody | null): unknown {
  if (body === null) return undefined
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body)
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export function createApiClient(options: { send: Send; transport: 'ipc' | 'http'; hasCredentials: boolean }): ApiClient {
  const { send, transport, hasCredentials } = options
  return {
    transport,
    hasCredentials,
    async request<T>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
      const req: BridgeRequest = { method, path, headers: { accept: 'application/json' } }
      if (body !== undefined) {
        req.headers = { ...req.headers, 'content-type': 'application/json' }
        req.body = JSON.stringify(body)
      }
      let res: BridgeResponse
      try {
        res = await send(req)
      } catch (cause) {
        throw new ApiError(0, 'network_error', cause instanceof Error ? cause.message : String(cause))
      }
      const payload = parseJson(res.body)
      if (res.status >= 400) throw toApiError(res.status, payload)
      return payload as T
    },
  }
}

function createDefaultClient(): ApiClient {
  const bridge = window.quire
  if (bridge) return createApiClient({ send: (req) => bridge.request(req), transport: 'ipc', hasCredentials: true })
  const token = takeTokenFromLocation()
  return createApiClient({ send: httpTransport(token), transport: 'http', hasCredentials: token !== null })
}

export const api: ApiClient = createDefaultClient()
