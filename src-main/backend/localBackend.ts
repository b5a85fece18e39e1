import { buildApi } from '../api/app'
import { bootstrapWorkspace, openWorkspace, startMaintenance } from '../server/workspace'
import type { Backend } from './backend'

export interface LocalBackend extends Backend {
  /** A valid owner token for in-process calls (the desktop app's own session). */
  ownerToken: string
  close(): Promise<void>
}

/**
 * The embedded /v1 API, answered in process through Fastify's `inject`: no port is opened, so the desktop
 * app's IPC bridge reaches the same code the loopback server runs.
 */
export async function openLocalBackend(opts: { dataDir: string; baseUrl?: string }): Promise<LocalBackend> {
  // `baseUrl` starts the URLs the API gives out (downloads, previews); the desktop app serves them itself.
  const workspace = openWorkspace({ dataDir: opts.dataDir, baseUrl: opts.baseUrl ?? 'http://quire.localhost' })
  const ownerToken = `qr_session_${crypto.randomUUID()}`
  bootstrapWorkspace(workspace.services, ownerToken)
  const stopMaintenance = startMaintenance(workspace.services)
  const api = await buildApi(workspace.services)
  return {
    ownerToken,
    async fetch(request: Request): Promise<Response> {
      const url = new URL(request.url)
      const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined
      const res = await api.inject({
        method: request.method as 'GET',
        url: url.pathname + url.search,
        headers: Object.fromEntries(request.headers),
        payload: body
      })
      const headers = new Headers()
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, String(v))
      const noBody = res.statusCode === 204 || res.statusCode === 205 || res.statusCode === 304
      return new Response(noBody ? null : res.rawPayload, { status: res.statusCode, headers })
    },
    async close() {
      stopMaintenance()
      await api.close()
      workspace.close()
    }
  }
}
