// Child process entry: runs ONE server (`baseline` or `quire`) so the load generator (the parent) does not
// share its event loop. Speaks to the parent over IPC: `ready` once listening; `profile-start` /
// `profile-stop` (CPU profile of this process through the inspector); `cpu-start` / `cpu-stop` (CPU time used
// in between: unlike req/s, barely moved by other processes competing for the cores); `stop`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../src-main/server/server'
import { bootstrapWorkspace, openWorkspace } from '../src-main/workspace/workspace'
import { startBaseline } from './baseline'
import { generateOrganization } from './generate'

export type ChildReady =
  | { type: 'ready'; kind: 'baseline'; url: string; sampleIds: string[]; setupMillis: number }
  | { type: 'ready'; kind: 'quire'; url: string; organizationId: string; readerToken: string; sampleIds: string[]; setupMillis: number }

export type ParentMessage =
  { type: 'cpu-start' } | { type: 'cpu-stop' } | { type: 'profile-start' } | { type: 'profile-stop'; file: string } | { type: 'stop' }

const send = (message: unknown) => process.send!(message)

async function main() {
  const kind = process.argv[2]
  const rows = Number(process.env.BENCH_SPACES ?? 100_000)
  const sampleSize = Number(process.env.BENCH_SAMPLE ?? 256)
  const dir = mkdtempSync(join(tmpdir(), `quire-bench-${kind}-`))
  const started = performance.now()
  let close: () => Promise<void>

  if (kind === 'baseline') {
    const baseline = await startBaseline(dir, rows, sampleSize)
    close = baseline.close
    send({
      type: 'ready',
      kind,
      url: baseline.url,
      sampleIds: baseline.sampleIds,
      setupMillis: performance.now() - started
    } satisfies ChildReady)
  } else if (kind === 'quire') {
    const token = process.env.BENCH_TOKEN!
    // Generate into the workspace first, then serve it exactly as `quire serve --data DIR --token T` would.
    const workspace = openWorkspace({ dataDir: dir, searchThreads: 0 })
    const boot = bootstrapWorkspace(workspace.services, token)
    const generated = generateOrganization(workspace.services, {
      organizationId: boot.organizationId!,
      owner: boot.owner,
      spaces: rows,
      sampleSize
    })
    void workspace.close()
    const server = await startServer({ dataDir: dir, port: 0, token })
    close = server.close
    send({
      type: 'ready',
      kind,
      url: server.url,
      organizationId: boot.organizationId!,
      readerToken: generated.readerToken,
      sampleIds: generated.sampleIds,
      setupMillis: performance.now() - started
    } satisfies ChildReady)
  } else {
    throw new Error(`unknown server kind ${kind}`)
  }

  let session: Session | undefined
  let cpuStart: NodeJS.CpuUsage | undefined
  process.on('message', async (message: ParentMessage) => {
    if (message.type === 'cpu-start') {
      cpuStart = process.cpuUsage()
      send({ type: 'cpu-started' })
    } else if (message.type === 'cpu-stop') {
      const used = process.cpuUsage(cpuStart)
      send({ type: 'cpu', micros: used.user + used.system })
    } else if (message.type === 'profile-start') {
      session = new Session()
      session.connect()
      await session.post('Profiler.enable')
      await session.post('Profiler.setSamplingInterval', { interval: 200 })
      await session.post('Profiler.start')
      send({ type: 'profiling' })
    } else if (message.type === 'profile-stop') {
      const { profile } = await session!.post('Profiler.stop')
      session!.disconnect()
      session = undefined
      writeFileSync(message.file, JSON.stringify(profile))
      send({ type: 'profiled', file: message.file })
    } else if (message.type === 'stop') {
      await close()
      rmSync(dir, { recursive: true, force: true })
      process.exit(0)
    }
  })
  // The parent died: do not linger.
  process.on('disconnect', () => {
    void close().finally(() => {
      rmSync(dir, { recursive: true, force: true })
      process.exit(0)
    })
  })
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
