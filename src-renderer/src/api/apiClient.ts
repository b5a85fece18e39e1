// The renderer's API client over any transport (the desktop bridge or HTTP): JSON in and out, the addendum's
// error envelope as ApiError, and the workspace a window shows. Pure (no window): tested under Node.
import { type BridgeBody, type BridgeRequest, type BridgeResponse } from '../../../src-shared/ipc.ts'
import { WORKSPACE_HEADER } from '../../../src-shared/workspaces.ts'
import { ApiError, toApiError } from './apiError.ts'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface ApiClient {
  /** Which transport answers: the desktop bridge or HTTP to this origin. */
  readonly transport: 'ipc' | 'http'
  /** False in a browser opened without a token: every request would answer 401. */
  readonly hasCredentials: boolean
  request<T = unknown>(method: HttpMethod, path: string, body?: unknown, options?: RequestOptions): Promise<T>
  /**
   * Called when the server answers from another workspace than the one this window showed (another window of
   * a `--home` server switched): the request was refused, nothing was read or written. Returns the unsubscribe.
   */
  onWorkspaceChanged(listener: (workspaceId: string) => void): () => void
  /** This window switched itself: requests from now on are meant for `workspaceId`. */
  expectWorkspace(workspaceId: string): void
}

/** Headers of one request, and the answer's headers for the few callers that read them (ETag). */
export interface RequestOptions {
  headers?: Record<string, string>
  /** Called with the answer's headers (lower-case names) before its body is returned or its error thrown. */
  onHeaders?(headers: Record<string, string>): void
}

export type Send = (req: BridgeRequest) => Promise<BridgeResponse>

/** The code of the error a request gets when another window switched the server's workspace meanwhile. */
export const WORKSPACE_CHANGED = 'workspace_changed'

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
  // The workspace this window shows, as the server names it (only a `--home` server does).
  let shown: string | null = null
  const listeners = new Set<(workspaceId: string) => void>()
  return {
    transport,
    hasCredentials,
    onWorkspaceChanged(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    expectWorkspace(workspaceId) {
      shown = workspaceId
    },
    async request<T>(method: HttpMethod, path: string, body?: unknown, options?: RequestOptions): Promise<T> {
      const req: BridgeRequest = {
        method,
        path,
        headers: { accept: 'application/json', ...options?.headers, ...(shown ? { [WORKSPACE_HEADER]: shown } : {}) },
      }
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
      options?.onHeaders?.(res.headers)
      const answered = res.headers[WORKSPACE_HEADER]
      const sentFor = shown
      if (answered && answered !== shown) {
        shown = answered
        if (sentFor !== null) for (const listener of listeners) listener(answered)
      }
      const payload = parseJson(res.body)
      // Refused because the window showed another workspace: the listeners tell the user, once, not each request.
      if (res.status === 409 && answered && sentFor !== null && answered !== sentFor) {
        throw new ApiError(409, WORKSPACE_CHANGED, toApiError(res.status, payload).message)
      }
      if (res.status >= 400) throw toApiError(res.status, payload)
      return payload as T
    },
  }
}

