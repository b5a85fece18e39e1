// Test-only: OpenAPI documents served over loopback HTTP, and polling until a spec's processing ends.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'vitest'
import { loadSpec } from '../../../openapi/document'
import type { Client } from '../../../testing/harness'

export type Served =
  /** `auth`: the `user:password` a Basic Authorization header must carry (401 otherwise). */
  | { body: string; status?: number; type?: string; auth?: string }
  /** Never answers (until the server closes). */
  | { hang: true }
  /** Answers `body` once `release()` is called. */
  | { gate: Promise<void>; body: string }

export interface DocServer {
  url(path: string): string
  /** Requests seen, by path. */
  hits: Map<string, number>
  close(): Promise<void>
}

export async function serveDocuments(files: Record<string, Served>): Promise<DocServer> {
  const hits = new Map<string, number>()
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    hits.set(path, (hits.get(path) ?? 0) + 1)
    const file = files[path]
    if (!file) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    if ('hang' in file) return
    if ('auth' in file && file.auth && req.headers.authorization !== `Basic ${Buffer.from(file.auth).toString('base64')}`) {
      return res.writeHead(401, { 'content-type': 'text/plain' }).end('unauthorized')
    }
    const send = () =>
      res
        .writeHead(('status' in file && file.status) || 200, { 'content-type': ('type' in file && file.type) || 'application/yaml' })
        .end(file.body)
    if ('gate' in file) void file.gate.then(send)
    else send()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

export function gate(): { promise: Promise<void>; release: () => void } {
  let release!: () => void
  const promise = new Promise<void>((resolve) => (release = resolve))
  return { promise, release }
}

/** Polls GET `path` until `done(body)` holds (a bounded loop with short waits, never a fixed sleep). */
export async function pollUntil(api: Client, path: string, done: (body: any) => boolean, timeoutMs = 15_000): Promise<any> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const res = await api.get(path)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    if (done(res.body)) return res.body
    if (Date.now() > deadline) throw new Error(`${path} did not reach the expected state: ${JSON.stringify(res.body)}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

export const untilComplete = (api: Client, path: string, timeoutMs?: number) =>
  pollUntil(api, path, (spec) => spec.processingState === 'complete', timeoutMs)

export const PETSTORE = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
paths:
  /pets:
    get:
      summary: List pets
      responses:
        '200':
          description: The pets
          content:
            application/json:
              schema:
                type: array
                items:
                  $ref: '#/components/schemas/Pet'
  /pets/{petId}:
    get:
      parameters:
        - name: petId
          in: path
          required: true
          schema: { type: string }
      responses:
        '200':
          description: One pet
components:
  schemas:
    Pet:
      type: object
      properties:
        id: { type: string }
        name: { type: string }
`

export const SWAGGER_2 = JSON.stringify({
  swagger: '2.0',
  info: { title: 'Old', version: '1' },
  paths: { '/things': { get: { responses: { 200: { description: 'ok' } } } } }
})

/**
 * Compiles the validator's OpenAPI 3.0 and Swagger 2.0 meta-schemas once per test file (in a beforeAll with its
 * own timeout), so the first test's polling does not pay for it on a loaded machine.
 */
export async function warmUpValidator() {
  const noFiles = async (url: string) => Promise.reject(new Error(`unexpected fetch of ${url}`))
  await loadSpec({ url: undefined, text: PETSTORE }, noFiles)
  await loadSpec({ url: undefined, text: SWAGGER_2 }, noFiles)
}
