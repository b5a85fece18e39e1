/**
 * The one interface every consumer of the /v1 API talks to (the renderer bridge, the loopback server, scripts):
 * a local backend (the embedded API on a workspace database) and a remote backend (a /v1 server at a base URL,
 * reached with a token) both answer it.
 */
export interface Backend {
  fetch(request: Request): Promise<Response>
}

/** A workspace's backend, as the workspace host keeps one open. */
export interface WorkspaceBackend extends Backend {
  /** `local`: the embedded API on the workspace's database; `remote`: a connected workspace's server. */
  readonly kind: 'local' | 'remote'
  /**
   * Answers a /v1 request as the workspace's own user: its owner (local) or the account its token names
   * (remote). An Authorization header sent along is replaced. (`fetch` answers the request as sent: the local
   * API checks the caller's token.)
   */
  request(request: Request): Promise<Response>
  close(): Promise<void>
}
