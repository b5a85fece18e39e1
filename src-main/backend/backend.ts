import type { IncomingMessage, ServerResponse } from 'node:http'
import type { OutboxList, OutboxResolution, OutboxSummary, OutboxSyncResult, RemoteConnection } from '../../src-shared/workspaces'
import type { Api } from '../api/app'
import type { RemoteBackend } from './remoteBackend'

/**
 * A workspace as every host reaches it (the loopback server, the desktop app's IPC bridge and `quire://local`, the
 * workspace host, tests): a local workspace (the embedded API on its database, `openLocalBackend`) and a connected
 * one (its server, and a copy here while the server is out of reach: `ConnectedBackend`) both answer it. Only the
 * code that opens a workspace (workspaces/openBackend.ts) knows which it made; hosts use the optional members,
 * present when the workspace can do what they offer.
 */
export interface WorkspaceBackend {
  /** Answers a request as sent: the caller's own token, checked by the API that answers. */
  fetch(request: Request): Promise<Response>
  /**
   * Answers a /v1 request as the workspace's own user: its owner (local) or the account its token names on its
   * server (connected). An Authorization header sent along is replaced.
   */
  request(request: Request): Promise<Response>
  close(): Promise<void>
  /** The origin the API gives out in URLs (`urls`, downloads, previews): a loopback server knows it once it listens. */
  setBaseUrl?(url: string): void
  /**
   * The embedded API (Fastify), when the workspace's API runs in this process. The loopback server hands it raw
   * Node requests (`serveNode`); tests reach its `services` through it.
   */
  readonly api?: Api
  /** Answers a raw Node request in process (the loopback server's path: no copy of the request into a `Request`). */
  serveNode?(req: IncomingMessage, res: ServerResponse): void
  /** True when this open bootstrapped an empty workspace (owner, organization). */
  readonly bootstrapped?: boolean
  /** A connected workspace's link with its server and the edits it keeps to send; absent on a local workspace. */
  readonly connected?: ServerSync
}

/** How a connected workspace stands with its server, and its outbox (docs/sync.md). */
export interface ServerSync {
  /** The server's address. */
  readonly url: string
  /** How the server answered last. */
  readonly connection: RemoteConnection
  /** Asks the server now (who the token is); back online, the outbox is sent. */
  check(): Promise<RemoteConnection>
  /** Reaches the server through another connection from now on (a new token or address of the same account). */
  reconnect(remote: RemoteBackend): Promise<void>
  outboxSummary(): OutboxSummary
  outboxList(): OutboxList
  /** Sends the outbox now. */
  sync(): Promise<OutboxSyncResult>
  retry(seq: number): Promise<OutboxSyncResult>
  discard(seq: number): Promise<OutboxList>
  resolve(seq: number, resolution: OutboxResolution): Promise<OutboxSyncResult>
  /** Resolves once no pull into the copy or send of the outbox is under way (tests). */
  idle(): Promise<void>
}
