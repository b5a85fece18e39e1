// The cold-start benchmark (`npm run bench -- --only cold-start`): how long the headless server takes from process
// start to its first /v1 answer. Each start spawns the built CLI (`node out/main/cli.js serve --port 0 --data DIR
// --token T`; built first when out/ is older than the sources), waits for its ready line, asks `GET /v1/user` and
// stops the clock at the answer (200), then stops the server. A fresh start gets an empty folder (the workspace is
// created: schema, owner, organization); an existing start is the second start of that folder. One unmeasured
// start first warms the OS's file cache. Figures (median and p90 of each) go to bench/results/cold-start.json.
// Target: the median under 500 ms.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { newToken } from '../src-main/storage/ids'
import { getStatus, LAZY_PACKAGES, packagesInLog } from '../src-main/testing/lazyPackages'
import { BenchFailure, round2 } from './load'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const CLI = join(root, 'out', 'main', 'cli.js')
export const COLD_START_TARGET_MS = 500

export interface ColdStartOptions {
  /** Measured starts of each kind (fresh folder, existing folder). */
  starts?: number
}

interface Start {
  /** Spawn to the first /v1 answer. */
  ms: number
  /** Spawn to the ready line. */
  readyMs: number
  /** CPU the server process used up to its first answer (Linux: user + system, 10 ms ticks), else undefined. */
  cpuMs?: number
}

/** The newest modification time under `dir` (files only), 0 when it does not exist. */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs)
  }
  return latest
}

/** Builds out/ (electron-vite) unless out/main/cli.js is newer than every source it is built from. */
function ensureBuild(): void {
  const built = existsSync(CLI) ? statSync(CLI).mtimeMs : 0
  const sources = Math.max(
    newest(join(root, 'src-main')),
    newest(join(root, 'src-shared')),
    statSync(join(root, 'electron.vite.config.ts')).mtimeMs,
    statSync(join(root, 'package-lock.json')).mtimeMs
  )
  if (built > sources) return
  console.log('Building (out/main is older than the sources): npx electron-vite build ...')
  const result = spawnSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  if (result.status !== 0) throw new BenchFailure(`electron-vite build failed (exit ${result.status})`)
}

/** CPU time a process has used so far (Linux /proc; 10 ms ticks), or undefined elsewhere. */
function cpuMillis(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return undefined
  }
}

/**
 * One start of the server on `dir`: spawn, ready line, first answer; then it is stopped (SIGTERM) and awaited. With
 * `moduleLog`, the process writes every module it loads there (src-main/testing/moduleLog.mjs).
 */
async function start(dir: string, token: string, moduleLog?: string): Promise<Start> {
  const began = performance.now()
  const logging = moduleLog ? ['--import', join(root, 'src-main', 'testing', 'moduleLog.mjs')] : []
  const child = spawn(process.execPath, [...logging, CLI, 'serve', '--port', '0', '--data', dir, '--token', token], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: moduleLog ? { ...process.env, QUIRE_MODULE_LOG: moduleLog } : process.env
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    let out = ''
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        out += chunk.toString()
        const match = /Quire API listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out)
        if (match) resolve(match[1]!)
      }
      child.stdout.on('data', onData)
      child.stderr.on('data', onData)
      child.once('exit', (code) => reject(new BenchFailure(`quire serve exited with ${code}:\n${out}`)))
    })
    const readyMs = performance.now() - began
    const status = await getStatus(`${url}/user`, token)
    const ms = performance.now() - began
    if (status !== 200) throw new BenchFailure(`GET /v1/user answered ${status} on the first start of ${dir}`)
    return { ms, readyMs, cpuMs: cpuMillis(child.pid!) }
  } finally {
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0
}

function figures(starts: Start[]) {
  const ms = starts.map((s) => s.ms)
  const cpu = starts.flatMap((s) => (s.cpuMs === undefined ? [] : [s.cpuMs]))
  return {
    samples: ms.map(round2),
    medianMs: round2(percentile(ms, 50)),
    p90Ms: round2(percentile(ms, 90)),
    readyMedianMs: round2(
      percentile(
        starts.map((s) => s.readyMs),
        50
      )
    ),
    ...(cpu.length && { cpuMedianMs: percentile(cpu, 50) }),
    targetMs: COLD_START_TARGET_MS
  }
}

export async function runColdStartBench(options: ColdStartOptions = {}): Promise<void> {
  const { starts = 10 } = options
  ensureBuild()
  console.log(`\nCold-start benchmark: ${starts} starts on a fresh folder, each followed by a start of the same folder...`)
  const token = newToken()
  const fresh: Start[] = []
  const existing: Start[] = []
  for (let i = 0; i <= starts; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'quire-bench-cold-'))
    try {
      const first = await start(dir, token)
      const second = await start(dir, token)
      // The first pair only warms the OS's file cache (the build, node_modules).
      if (i === 0) continue
      fresh.push(first)
      existing.push(second)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  // The build loads none of the engines that load on first use (a bundle chunk shared with the start would).
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-cold-'))
  let lazyLoaded: string[]
  try {
    const log = join(dir, 'modules.log')
    await start(join(dir, 'data'), token, log)
    const loaded = packagesInLog(readFileSync(log, 'utf8'))
    lazyLoaded = LAZY_PACKAGES.filter((name) => loaded.has(name))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  if (lazyLoaded.length) throw new BenchFailure(`the start loaded what should load on first use: ${lazyLoaded.join(', ')}`)
  const results = { freshFolder: figures(fresh), existingFolder: figures(existing), lazyPackagesNotLoaded: LAZY_PACKAGES }
  const met = (ms: number) => (ms < COLD_START_TARGET_MS ? 'met' : 'MISSED')
  for (const [name, f] of [
    ['fresh folder', results.freshFolder],
    ['existing folder', results.existingFolder]
  ] as const) {
    console.log(
      `cold start, ${name} (spawn to first /v1 answer): median ${f.medianMs} ms, p90 ${f.p90Ms} ms ` +
        `(ready line ${f.readyMedianMs} ms${f.cpuMedianMs === undefined ? '' : `, server cpu ${f.cpuMedianMs} ms`}; ` +
        `target median < ${COLD_START_TARGET_MS}: ${met(f.medianMs)})`
    )
  }
  console.log(`  not loaded before the first answer: ${LAZY_PACKAGES.join(', ')}`)
  const load = loadavg()
  console.log(`  machine: ${cpus().length} cores, load average ${load.map((l) => l.toFixed(2)).join(' ')} (quiet: under 0.5)`)
  const file = join(here, 'results', 'cold-start.json')
  mkdirSync(dirname(file), { recursive: true })
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version, loadavg: load },
    options: { starts },
    results
  }
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
  console.log(`Wrote ${relative(process.cwd(), file)}`)
}
