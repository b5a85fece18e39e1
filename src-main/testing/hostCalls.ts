// Test-only: calls a workspace host as the desktop bridge does.
import type { WorkspaceHost } from '../workspaces/host'

/** Workspace operations as they are, /v1 as the active workspace's own user; the answer's status and JSON body. */
export async function callHost<T = any>(
  host: WorkspaceHost,
  method: string,
  path: string,
  body?: unknown
): Promise<{ status: number; body: T }> {
  const init: RequestInit = {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body)
  }
  const request = new Request(`http://quire.localhost${path}`, init)
  const res = path.startsWith('/v1') ? await host.use((b) => b.request(request)) : await host.fetch(request)
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined }
}
