// The messages between a process that owns windows or sockets (the parent: Electron's main process, the loopback
// server) and the workspace host running in a process of its own (SQLite, the /v1 engine, sync). Requests and
// answers are shaped like the desktop bridge's (`BridgeRequest`/`BridgeResponse`: method, path, headers, text or
// bytes), correlated by id. Plain data only, so any port-like transport carries them: a child process's IPC channel
// (`serialization: 'advanced'`), Electron's MessagePortMain, a worker's MessagePort.
import { isTextContentType } from '../../src-shared/ipc'

/** Bytes cross as an ArrayBuffer, listed as transferable where the transport can move it instead of copying. */
export type HostBody = string | ArrayBuffer

/**
 * Who answers a request in the host:
 * - `host`: the workspace host as sent (`/app/workspaces`, and the active workspace's files and previews);
 * - `owner`: /v1 as the active workspace's own user (the desktop bridge: the host adds the credentials);
 * - `http`: what the loopback server's port answers (the caller's token checked in the host, as in process).
 */
export type HostTarget = 'host' | 'owner' | 'http'

export interface HostRequestMessage {
  type: 'request'
  id: number
  to: HostTarget
  method: string
  /** Path and query, e.g. `/v1/orgs?limit=20`. */
  path: string
  headers: Record<string, string>
  body?: HostBody
}

export interface HostResponseMessage {
  type: 'response'
  id: number
  status: number
  headers: Record<string, string>
  /** Text for JSON and text types, bytes otherwise, null when empty. */
  body: HostBody | null
}

/** Where the host's workspaces are and how it serves them (sent once, first). */
export interface HostStartOptions {
  /** Several workspaces (`workspaces.json`), as the desktop app and `quire serve --home` keep them. */
  home?: string
  /** One workspace folder (`quire serve --data`; ':memory:' for a throwaway one). */
  dataDir?: string
  /** The origin the API gives out in URLs (the desktop app's `quire://local`; a server sends its own once it listens). */
  baseUrl?: string
  /** Answers HTTP as the loopback server does (`to: 'http'`), with these of `ServerOptions`. */
  http?: { token?: string; staticDir?: string; logger?: boolean; searchThreads?: number }
  /**
   * The desktop app's keychain key (base64, 32 bytes): main keeps it sealed by the system keychain and hands it over
   * opened, so the host seals connected workspaces' tokens and stored credentials with it (kind `os`).
   */
  keychainKey?: string
  /** Test harness only: a manual clock starting there, and the `control` messages. */
  testing?: { clock: string }
}

export interface HostReady {
  /** The HTTP token (given, the bootstrap token created on first start, or with `home` the generated one). */
  token?: string
  bootstrapped: boolean
}

/** Test-only operations of a host started with `testing` (users, tokens and the clock without a database here). */
export type HostControl =
  | { op: 'info' }
  | { op: 'user'; email: string; name: string; role: string | null; orgId?: string }
  | { op: 'clock'; now: string }
  | { op: 'crash' }

export type ToHost =
  | ({ type: 'start' } & HostStartOptions)
  | HostRequestMessage
  | { type: 'base-url'; url: string }
  | { type: 'control'; id: number; control: HostControl }
  | { type: 'close' }

export type FromHost =
  | { type: 'ready'; ready: HostReady }
  | { type: 'failed'; message: string }
  | HostResponseMessage
  /** A connected workspace's connection changed (the desktop app tells its windows to read the list again). */
  | { type: 'remote-change'; workspace: string }
  | { type: 'control'; id: number; result?: unknown; error?: string }
  /** The host closed its workspaces (the last write checkpointed) and exits. */
  | { type: 'closed' }

/**
 * What the protocol needs of a transport: `{ postMessage, on('message') }`. `transfer` lists ArrayBuffers the
 * transport may move rather than copy (a worker's port does; a child process's channel and Electron's
 * MessagePortMain copy them).
 */
export interface HostPort {
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void
  on(event: 'message', listener: (message: unknown) => void): void
}

/** A body as it crosses: text for text types, bytes otherwise, nothing when empty. */
async function bodyOf(source: Request | Response, contentType: string | null): Promise<HostBody | null> {
  if (!source.body) return null
  const bytes = await source.arrayBuffer()
  if (bytes.byteLength === 0) return null
  return isTextContentType(contentType) ? new TextDecoder().decode(bytes) : bytes
}

function headersOf(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {}
  headers.forEach((value, key) => void (record[key] = value))
  return record
}

const transferOf = (body: HostBody | null | undefined): ArrayBuffer[] => (body instanceof ArrayBuffer ? [body] : [])

/** A request as a message (its body read whole), and what to transfer. */
export async function requestMessage(
  id: number,
  to: HostTarget,
  request: Request
): Promise<{ message: HostRequestMessage; transfer: ArrayBuffer[] }> {
  const url = new URL(request.url)
  const headers = headersOf(request.headers)
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : await bodyOf(request, request.headers.get('content-type'))
  const message: HostRequestMessage = { type: 'request', id, to, method: request.method, path: url.pathname + url.search, headers }
  if (body !== null) message.body = body
  return { message, transfer: transferOf(body) }
}

/** The origin requests are rebuilt under in the host (only path and query reach it). */
export const HOST_ORIGIN = 'http://quire.localhost'

/** The `Request` a message stands for, in the host. */
export function requestOf(message: HostRequestMessage): Request {
  return new Request(new URL(message.path, HOST_ORIGIN), { method: message.method, headers: message.headers, body: message.body })
}

/** An answer as a message (its body read whole, a download included), and what to transfer. */
export async function responseMessage(id: number, response: Response): Promise<{ message: HostResponseMessage; transfer: ArrayBuffer[] }> {
  const body = await bodyOf(response, response.headers.get('content-type'))
  return {
    message: { type: 'response', id, status: response.status, headers: headersOf(response.headers), body },
    transfer: transferOf(body)
  }
}

/** The `Response` a message stands for, in the parent. */
export function responseOf(message: HostResponseMessage): Response {
  const empty = message.status === 204 || message.status === 205 || message.status === 304
  return new Response(empty ? null : message.body, { status: message.status, headers: message.headers })
}
