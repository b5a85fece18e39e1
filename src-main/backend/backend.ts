/**
 * The one interface every consumer of the /v1 API talks to (the renderer bridge, sync, scripts): a local
 * backend (the embedded API) and a remote backend (a /v1 server at a base URL) both answer it.
 */
export interface Backend {
  fetch(request: Request): Promise<Response>
}

/** A /v1 server elsewhere, reached with a bearer token. */
export function remoteBackend(baseUrl: string, token: string): Backend {
  const base = new URL(baseUrl)
  return {
    fetch(request) {
      const url = new URL(request.url)
      const target = new URL(url.pathname + url.search, base)
      const headers = new Headers(request.headers)
      headers.set('authorization', `Bearer ${token}`)
      return fetch(new Request(target, { method: request.method, headers, body: request.body, duplex: 'half' } as RequestInit))
    }
  }
}
