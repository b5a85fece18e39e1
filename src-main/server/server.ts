import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import fastifyStatic from '@fastify/static'
import { buildApi, type Api } from '../api/app'
import { bootstrapWorkspace, openWorkspace, startMaintenance } from './workspace'
import type { Clock } from '../api/clock'

export interface ServerOptions {
  dataDir: string
  port?: number
  host?: string
  /** Made a valid owner token (the bootstrap token is created only when none is given). */
  token?: string
  /** Built renderer to serve at `/` (out/renderer). Skipped when missing. */
  staticDir?: string
  /** Log requests with pino. */
  logger?: boolean
  clock?: Clock
}

export interface RunningServer {
  url: string
  port: number
  /** The token the caller can use: the one given, or the bootstrap token created on first start. */
  token?: string
  /** True when this start bootstrapped an empty workspace. */
  bootstrapped: boolean
  api: Api
  close(): Promise<void>
}

const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: http://127.0.0.1:*",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'"
].join('; ')

/** Serves /v1 and the built renderer on loopback. Never imports electron. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const workspace = openWorkspace({ dataDir: options.dataDir, clock: options.clock })
  const boot = bootstrapWorkspace(workspace.services, options.token)
  const stopMaintenance = startMaintenance(workspace.services)
  const staticDir = options.staticDir && resolve(options.staticDir)
  const api = await buildApi(workspace.services, {
    logger: options.logger,
    extend: async (app) => {
      if (!staticDir || !existsSync(resolve(staticDir, 'index.html'))) return
      await app.register(fastifyStatic, {
        root: staticDir,
        index: 'index.html',
        setHeaders: (res) => {
          res.header('Content-Security-Policy', RENDERER_CSP)
          res.header('X-Content-Type-Options', 'nosniff')
        }
      })
    }
  })

  await api.listen({ port: options.port ?? 0, host })
  const address = api.server.address()
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0)
  const urlHost = host.includes(':') ? `[${host}]` : host
  const url = `http://${urlHost}:${port}`
  workspace.services.baseUrl = url

  let closed = false
  return {
    url,
    port,
    token: options.token ?? boot.createdToken,
    bootstrapped: !!boot.organizationId,
    api,
    async close() {
      if (closed) return
      closed = true
      stopMaintenance()
      await api.close()
      workspace.close()
    }
  }
}
