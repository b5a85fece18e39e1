// `api:request`: the renderer's API calls (/v1 and the workspace operations under /app/workspaces), answered
// by the workspace host (its own process: hostClient.ts). Only the app's own top-level frame may call; the renderer never sees or
// sends a token.
import { BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron'
import { IpcChannel, isTextContentType, queryKeyForPath, type BridgeRequest, type BridgeResponse } from '../../src-shared/ipc.ts'
import { WORKSPACES_QUERY_KEY } from '../../src-shared/workspaces.ts'
import { HostStoppedError, type HostClient } from '../workspaces/hostClient.ts'
import { errorResponse, isWorkspacesPath } from '../workspaces/operations.ts'
import { isAppUrl } from './appContent.ts'
import { BACKEND_ORIGIN as origin } from './localScheme.ts'
const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'])
const droppedHeaders = new Set(['authorization', 'cookie', 'host'])

function parseRequest(raw: unknown): BridgeRequest & { url: URL } {
  const req = raw as Partial<BridgeRequest> | null
  if (!req || typeof req.method !== 'string' || !methods.has(req.method) || typeof req.path !== 'string') {
    throw new Error('api:request: malformed request')
  }
  const url = new URL(req.path, origin)
  if (url.origin !== origin || !(url.pathname === '/v1' || url.pathname.startsWith('/v1/') || isWorkspacesPath(url.pathname))) {
    throw new Error('api:request: only /v1 and /app/workspaces paths are allowed')
  }
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(req.headers ?? {})) {
    if (typeof v === 'string' && !droppedHeaders.has(k.toLowerCase())) headers[k.toLowerCase()] = v
  }
  const body = typeof req.body === 'string' || req.body instanceof Uint8Array ? req.body : undefined
  return { method: req.method, path: req.path, headers, body, url }
}

export function registerApiBridge(workspaces: Promise<HostClient>): void {
  ipcMain.handle(IpcChannel.apiRequest, async (event: IpcMainInvokeEvent, raw: unknown): Promise<BridgeResponse> => {
    const frame = event.senderFrame
    if (!frame || frame.parent !== null || !isAppUrl(frame.url)) throw new Error('api:request: sender is not the app')

    const req = parseRequest(raw)
    const host = await workspaces
    const requestBody = req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body
    const isWorkspaceOperation = isWorkspacesPath(req.url.pathname)
    // /v1 goes to the active workspace as its own user (the owner of a local one, the account of a connected
    // one): the backend that answers adds the credentials, and a switch may replace it between two requests.
    const request = new Request(req.url, { method: req.method, headers: req.headers, body: requestBody })
    const res = await (isWorkspaceOperation ? host.fetch(request) : host.request(request)).catch((error: unknown) => {
      if (!(error instanceof HostStoppedError)) throw error
      return errorResponse(503, 'The workspace host stopped before it answered: try again')
    })

    const headers: Record<string, string> = {}
    res.headers.forEach((value, key) => {
      headers[key] = value
    })
    const contentType = res.headers.get('content-type')
    const bytes = new Uint8Array(await res.arrayBuffer())
    const body = bytes.length === 0 ? null : isTextContentType(contentType) ? new TextDecoder().decode(bytes) : bytes

    if (req.method !== 'GET' && req.method !== 'HEAD' && res.ok) {
      notifyDataChanged([isWorkspaceOperation ? WORKSPACES_QUERY_KEY : queryKeyForPath(req.url.pathname)])
    }
    return { status: res.status, headers, body }
  })
}

/** Tells every window which query-key prefixes changed. */
export function notifyDataChanged(prefixes: string[][]): void {
  for (const win of BrowserWindow.getAllWindows()) win.webContents.send(IpcChannel.dataChanged, { prefixes })
}
