// The built headless CLI (`node out/main/cli.js`, built by `npm test`'s first step) and workspace host (host.js):
// each one CommonJS bundle run with V8's code cache. A start writes the cache, the next one runs from it, and from it
// the engines that load on first use (PDF, OpenAPI validation) still load: a script run from the cache has no
// import(), so the bundle must have none.
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PETSTORE } from '../../src-main/api/routes/openapi/fixtures'
import { tempDirs } from '../../src-main/testing/tempDirs'

const root = resolve(import.meta.dirname, '../..')
const cli = join(root, 'out', 'main', 'cli.js')
const token = 'built-cli-test-token-0123456789abcdefghij'
const tempDir = tempDirs('built-cli')
const running = new Set<() => Promise<unknown>>()
afterAll(async () => {
  for (const stop of running) await stop()
})

/** `quire serve` from the build on `data`, with `flags` (the code caches are beside the bundles, out/main/code-cache). */
async function serve(data: string, ...flags: string[]) {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--data', data, '--token', token, ...flags], {
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const exited = new Promise<number | null>((done) => child.once('exit', done))
  let out = ''
  const url = await new Promise<string>((done, fail) => {
    const read = (chunk: Buffer) => {
      out += chunk.toString()
      const match = /listening on (http:\S+)\/v1/.exec(out)
      if (match) done(match[1]!)
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.once('exit', (code) => fail(new Error(`quire serve exited with ${code}: ${out}`)))
  })
  const stop = async () => {
    running.delete(stop)
    child.kill('SIGTERM')
    return exited
  }
  running.add(stop)
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(path.startsWith('http') ? path : `${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) }
  }
  const json = async (method: string, path: string, body?: unknown) => {
    const res = await call(method, path, body)
    return { status: res.status, body: JSON.parse(res.bytes.toString('utf8') || 'null') }
  }
  return { url, call, json, stop, output: () => out }
}

describe('the built CLI (out/main/cli.js)', () => {
  it('is one bundle with no import(), and runs its first start without a cache and the next from the one it wrote', async () => {
    const bundle = readFileSync(join(root, 'out', 'main', 'cli.cjs'), 'latin1')
    expect(bundle).not.toMatch(/[^\w$.]import\(/)
    const data = tempDir()
    const first = await serve(data)
    expect((await first.json('GET', '/v1/user')).status).toBe(200)
    expect(await first.stop()).toBe(0)
    const caches = join(root, 'out', 'main', 'code-cache')
    expect(existsSync(caches) && readdirSync(caches).some((name) => name.startsWith('cli.cjs-'))).toBe(true)

    const again = await serve(data)
    const orgs = (await again.json('GET', '/v1/orgs')).body
    const orgId = orgs.items[0].id as string

    // PDF: pdfkit, fontkit and the fonts load on first use.
    const space = await again.json('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Handbook' })
    expect(space.status).toBe(201)
    const { url } = (await again.json('GET', `/v1/spaces/${space.body.id}/pdf`)).body
    const pdf = await again.call('GET', url)
    expect(pdf.status).toBe(200)
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')

    // OpenAPI: the validator loads on first use, and the spec is processed with it.
    const spec = await again.json('POST', `/v1/orgs/${orgId}/openapi`, { slug: 'pets', source: { text: PETSTORE } })
    expect(spec.status).toBe(201)
    let state = spec.body.processingState as string
    for (let i = 0; i < 100 && state !== 'complete' && state !== 'failed'; i++) {
      await new Promise((done) => setTimeout(done, 100))
      state = (await again.json('GET', `/v1/orgs/${orgId}/openapi/pets`)).body.processingState
    }
    expect(state).toBe('complete')
    expect(await again.stop()).toBe(0)
    expect(again.output()).not.toMatch(/error/i)
  }, 60_000)

  it('runs the workspace host (--host-process: out/main/host.js) from its own bundle and code cache too', async () => {
    const data = tempDir()
    const first = await serve(data, '--host-process')
    expect((await first.json('GET', '/v1/user')).status).toBe(200)
    expect(await first.stop()).toBe(0)
    const caches = join(root, 'out', 'main', 'code-cache')
    expect(readdirSync(caches).some((name) => name.startsWith('host.cjs-'))).toBe(true)

    const again = await serve(data, '--host-process')
    const orgId = (await again.json('GET', '/v1/orgs')).body.items[0].id as string
    const space = await again.json('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Through the host' })
    expect(space.status).toBe(201)
    const pdf = await again.call('GET', (await again.json('GET', `/v1/spaces/${space.body.id}/pdf`)).body.url)
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(await again.stop()).toBe(0)
  }, 60_000)
})
