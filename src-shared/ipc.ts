// The desktop bridge: IPC channel names and the one object the preload exposes as `window.quire`.
// Pure TypeScript (no node:*, no DOM) so main, preload and renderer all import it.

/** Channels are `<from>:<verb-noun>`: who sends, and what. */
export const IpcChannel = {
  /** renderer → main (invoke): one /v1 API request, answered by the local backend. */
  apiRequest: 'api:request',
  /** main → renderer (send): resources changed; the renderer invalidates those query-key prefixes. */
  dataChanged: 'main:data-changed'
} as const
export type IpcChannel = (typeof IpcChannel)[keyof typeof IpcChannel]

/** Bodies cross IPC by structured clone: text for JSON and text content, bytes for everything else. */
export type BridgeBody = string | Uint8Array<ArrayBuffer>

export interface BridgeRequest {
  method: string
  /** Absolute API path with its query string, e.g. `/v1/orgs?limit=20`. */
  path: string
  headers?: Record<string, string>
  body?: BridgeBody
}

export interface BridgeResponse {
  status: number
  headers: Record<string, string>
  /** Text when the content type is JSON or text/*, bytes otherwise, `null` when empty (204). */
  body: BridgeBody | null
}

/**
 * Query-key prefixes that changed. Renderer query keys mirror API paths after `/v1`
 * (`/v1/orgs/abc/spaces` → `['orgs', 'abc', 'spaces']`), so a prefix invalidates a subtree.
 */
export interface DataChangedEvent {
  prefixes: string[][]
}

/** What `window.quire` offers the renderer (desktop only; absent in a browser). */
export interface QuireBridge {
  request(req: BridgeRequest): Promise<BridgeResponse>
  /** Returns an unsubscribe function. */
  onDataChanged(callback: (event: DataChangedEvent) => void): () => void
}

/** `/v1/orgs/abc/spaces?x=1` → `['orgs', 'abc', 'spaces']`: the query-key prefix for an API path. */
export function queryKeyForPath(path: string): string[] {
  const pathname = path.split(/[?#]/, 1)[0] ?? ''
  const segments = pathname
    .split('/')
    .filter(Boolean)
    .map((s) => decodeURIComponent(s))
  return segments[0] === 'v1' ? segments.slice(1) : segments
}

/** True for text bodies that should cross IPC as strings. */
export function isTextContentType(contentType: string | null | undefined): boolean {
  if (!contentType) return false
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase()
  return (
    type.startsWith('text/') ||
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === 'application/xml' ||
    type.endsWith('+xml') ||
    type === 'application/yaml'
  )
}
