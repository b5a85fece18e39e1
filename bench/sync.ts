// The sync benchmark: how fast a connected workspace sends its outbox to a loopback remote. A remote Quire runs in a
// child process (src-main/testing/remoteQuire.ts); this process holds the connected workspace (its copy and
// outbox) and sends. N independent single-page edits are made offline in one change request (each its own outbox
// entry, each on a different page in turn), then the server comes back and `sync()` sends them all: the figure is
// entries per second, from the first request to an empty outbox. Every edit is then checked on the server.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openLocalBackend } from '../src-main/backend/localBackend'
import { RemoteBackend } from '../src-main/backend/remoteBackend'
import { ConnectedBackend } from '../src-main/sync/connectedBackend'
import { outbox } from '../src-main/sync/outbox'
import { startRemoteQuire } from '../src-main/testing/remoteQuire'
import { BenchFailure, round2 } from './load'

export interface SyncBenchOptions {
  /** Queued edits (default 1,000). */
  edits?: number
  /** Pages of the space the edits go round (default 100). */
  pages?: number
}

export async function runSyncBench(options: SyncBenchOptions = {}): Promise<{ opsPerSecond: number; oneByOnePerSecond: number }> {
  // Saves of documents one after another go as one batch (replay.ts); edits that also set a title go one by one.
  const opsPerSecond = await runSyncCase(options, 'document saves', false)
  const oneByOnePerSecond = await runSyncCase(
    { ...options, edits: Math.min(options.edits ?? 1000, 500) },
    'edits that also set the title (each sent alone)',
    true
  )
  return { opsPerSecond, oneByOnePerSecond }
}

async function runSyncCase({ edits = 1000, pages = 100 }: SyncBenchOptions, label: string, titled: boolean): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-sync-'))
  const remote = await startRemoteQuire(join(dir, 'remote'))
  const net = { down: false }
  const fetchThrough: typeof fetch = (input, init) =>
    net.down
      ? Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }))
      : fetch(input, init)
  let backend: ConnectedBackend | undefined
  try {
    console.log(
      `\nSync benchmark: ${edits} queued single-page edits of a ${pages}-page space (${label}), sent to a Quire in another process...`
    )
    const me = (await remote.owner.get('/v1/user')).body as { id: string; displayName: string; email: string }
    const spaceId = await remote.emptySpace('Sync bench')
    const seed = (await remote.owner.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Seed' })).body as { id: string }
    const changes = Array.from({ length: pages }, (_, i) => ({
      operation: 'insert_page',
      title: `Page ${i + 1}`,
      document: { markdown: `Page ${i + 1}.\n` }
    }))
    // A batch holds at most 50 changes.
    for (let i = 0; i < changes.length; i += 50) {
      const seeded = await remote.owner.post(`/v1/spaces/${spaceId}/change-requests/${seed.id}/content`, {
        changes: changes.slice(i, i + 50)
      })
      if (seeded.status !== 200)
        throw new BenchFailure(`sync bench: seeding failed: ${seeded.status} ${JSON.stringify(seeded.body).slice(0, 200)}`)
    }
    if ((await remote.owner.post(`/v1/spaces/${spaceId}/change-requests/${seed.id}/merge`)).body.result !== 'merge')
      throw new BenchFailure('sync bench: seed merge failed')

    const copy = await openLocalBackend({
      dataDir: join(dir, 'copy'),
      account: { id: me.id, displayName: me.displayName, email: me.email }
    })
    backend = new ConnectedBackend({
      remote: new RemoteBackend({ url: remote.url, token: remote.token, via: 'bench', fetch: fetchThrough }),
      copy,
      retryMs: 600_000
    })
    backend.start()
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await backend!.request(
        new Request(`http://quire.localhost${path}`, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body)
        })
      )
      const text = await res.text()
      return { status: res.status, body: text ? JSON.parse(text) : undefined }
    }
    const tree = (await call('GET', `/v1/spaces/${spaceId}/content/pages`)).body.pages as { id: string; title: string }[]
    const cr = (await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Queued edits' })).body as { id: string }
    await call('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/pages`)
    await backend.idle()

    net.down = true
    await backend.check()
    const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`
    const queuedAt = performance.now()
    for (let i = 0; i < edits; i++) {
      const { id: page, title } = tree[i % tree.length]!
      const change = {
        operation: 'update_page',
        page,
        document: { markdown: `Edit ${i} of page ${page}.\n` },
        ...(titled ? { title } : {})
      }
      const res = await call('POST', path, { changes: [change] })
      if (res.status !== 200)
        throw new BenchFailure(`sync bench: queuing edit ${i}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`)
    }
    const queueMs = performance.now() - queuedAt
    const box = outbox(copy.services.db)
    if (box.count() !== edits) throw new BenchFailure(`sync bench: ${box.count()} entries queued, expected ${edits}`)

    net.down = false
    const started = performance.now()
    let result = await backend.sync()
    while (box.count() && !result.stopped && result.sent) result = await backend.sync()
    const ms = performance.now() - started
    if (box.count()) throw new BenchFailure(`sync bench: ${box.count()} entries left (${result.stopped ?? ''} ${result.message ?? ''})`)

    // Each page holds its last edit on the server: nothing lost, nothing sent twice over a later one.
    for (const [i, p] of tree.entries()) {
      const last = edits - 1 - ((edits - 1 - i) % tree.length)
      if (last < 0 || last >= edits) continue
      const page = (await remote.owner.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${p.id}`, { format: 'markdown' }))
        .body as { markdown: string }
      if (page.markdown !== `Edit ${last} of page ${p.id}.\n`)
        throw new BenchFailure(`sync bench: page ${i + 1} reads ${JSON.stringify(page.markdown)}`)
    }
    const opsPerSecond = (edits / ms) * 1000
    console.log(`  queued ${edits} edits offline in ${(queueMs / 1000).toFixed(1)} s (${round2((edits / queueMs) * 1000)} per second)`)
    console.log(
      `  sent them in ${(ms / 1000).toFixed(2)} s: ${round2(opsPerSecond)} edits per second${titled ? '' : ` (target ≥ 500: ${opsPerSecond >= 500 ? 'met' : 'MISSED'})`}`
    )
    return opsPerSecond
  } finally {
    await backend?.close()
    await remote.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
