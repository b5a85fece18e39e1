// The one way the renderer talks to the API. In the desktop app requests go over the preload bridge
// (`window.quire`) to the embedded backend; in a browser they go over HTTP to the server that served the page.
import { isTextContentType } from '../../../src-shared/ipc.ts'
import { createApiClient, type ApiClient, type Send } from './apiClient.ts'

export { ApiError, fieldError } from './apiError.ts'
export { withQuery } from './paths.ts'
export {
  createApiClient,
  REMOTE_OFFLINE,
  REMOTE_REFUSED,
  REMOTE_UNREACHABLE,
  WORKSPACE_CHANGED,
  type ApiClient,
  type HttpMethod
} from './apiClient.ts'

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
      body: body ?? null
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

function createDefaultClient(): ApiClient {
  const bridge = window.quire
  if (bridge) return createApiClient({ send: (req) => bridge.request(req), transport: 'ipc', hasCredentials: true })
  const token = takeTokenFromLocation()
  return createApiClient({ send: httpTransport(token), transport: 'http', hasCredentials: token !== null })
}

export const api: ApiClient = createDefaultClient()
