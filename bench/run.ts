// `npm run bench`: Quire's /v1 server against a bare Fastify + better-sqlite3 baseline, on loopback, in one run.
// Each server runs in its own child process (bench/servers.ts); this process only generates load (autocannon),
// so on a 2-core machine the server under test has one core and the load generator the other. The load generator
// runs with a 64 MB young generation (`npm run bench` passes the V8 flags): with the default one it collected
// garbage every ~20 search answers of 80 KB, 5–20 ms each on this VM, and those pauses landed in the latencies
// it times. The servers keep Node's defaults.
//
//   npm run bench -- [--duration 5] [--warmup 1] [--connections 2,50] [--spaces 100000] [--only NAME,...] [--rounds N]
//                    [--profile] [--pages 10000]
// `--only content` runs only the content benchmark (bench/content.ts); `--only sync` only the sync benchmark
// (bench/sync.ts); `--only renderer` only the renderer benchmark (bench/renderer.ts: needs `npm run build`);
// `--only api` only the API scenarios; `--only cold-start` only the cold-start benchmark (bench/coldStart.ts: process
// start to the first /v1 answer, building out/ first when it is stale).
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { newToken } from '../src-main/storage/ids'
import { startChild, stopChild, type Child } from './children'
import { BenchFailure, deepCursor, getJson, measure, printTable, round2, type Measurement, type Scenario } from './load'
import { printSummary, summarizeProfile } from './profile'
import { spaceTitle } from './rows'
import type { ChildReady } from './servers'
import { runContentBench } from './content'
import { runRendererBench } from './renderer'
import { runSyncBench } from './sync'
import { runColdStartBench } from './coldStart'

const here = dirname(fileURLToPath(import.meta.url))
const resultsDir = join(here, 'results')

const HELP = `npm run bench -- [options]
  --duration S      seconds per measurement (default 5)
  --warmup S        seconds of unmeasured load before each measurement (default 1; 0 for none)
  --connections L   comma-separated connection counts (default 2,50)
  --spaces N        spaces in the generated organization (default 100000)
  --only L          comma-separated scenario names, or \`api\` (every API scenario), \`content\` (the content
                    benchmark), \`sync\` (a connected workspace sending 1,000 queued edits), \`renderer\` (the built app in
                    Chromium: first screen, a 10,000-page tree scrolled), \`cold-start\` (process start to the
                    first /v1 answer, median of 10), \`all\` (default: all)
  --rounds N        run every measurement N times and keep the median (default 1; 3 or more when other
                    processes share the machine)
  --profile         CPU-profile the server during each measurement (bench/results/profiles/), print where the time goes
  --pages N         pages of the content benchmark's space (default 10000)`

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '2,50' },
    spaces: { type: 'string', default: '100000' },
    only: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    profile: { type: 'boolean', default: false },
    pages: { type: 'string', default: '10000' },
    help: { type: 'boolean', default: false }
  }
})
if (args.help) {
  console.log(HELP)
  process.exit(0)
}
const duration = Number(args.duration)
const warmup = Number(args.warmup)
const spaces = Number(args.spaces)
const connectionCounts = args.connections.split(',').map(Number)
const rounds = Number(args.rounds)
if (
  !Number.isInteger(rounds) ||
  rounds < 1 ||
  !(duration > 0) ||
  !(warmup >= 0) ||
  !(spaces >= 1000) ||
  connectionCounts.some((c) => !Number.isInteger(c) || c < 1)
) {
  console.error(`Invalid options.\n${HELP}`)
  process.exit(2)
}

// --- main -----------------------------------------------------------------------------------------------------

async function main() {
  const token = newToken()
  const env = { BENCH_SPACES: String(spaces), BENCH_SAMPLE: '256', BENCH_TOKEN: token }
  console.log(`Generating ${spaces} spaces (Quire) and ${spaces} rows (baseline), each in its own server process...`)
  const baselineChild = startChild('baseline', env)
  const quireChild = startChild('quire', env)
  children.push(baselineChild, quireChild)
  const [baseline, quire] = await Promise.all([
    baselineChild.next<Extract<ChildReady, { kind: 'baseline' }>>('ready'),
    quireChild.next<Extract<ChildReady, { kind: 'quire' }>>('ready')
  ])
  console.log(`baseline ready at ${baseline.url} (${(baseline.setupMillis / 1000).toFixed(1)} s)`)
  console.log(`Quire ready at ${quire.url} (${(quire.setupMillis / 1000).toFixed(1)} s, generation included)`)

  const owner = { authorization: `Bearer ${token}` }
  const reader = { authorization: `Bearer ${quire.readerToken}` }
  const listBase = `/v1/orgs/${quire.organizationId}/spaces`
  const totalPages = Math.ceil(spaces / 100)
  const deepPage = Math.max(2, Math.ceil(totalPages * 0.9))
  const deep = await deepCursor(`${quire.url}${listBase}`, token, deepPage)

  const scenarios: Scenario[] = [
    {
      name: 'baseline-row',
      target: 'baseline',
      description: `bare Fastify + better-sqlite3: GET /row/:id, rotating over ${baseline.sampleIds.length} ids`,
      requests: baseline.sampleIds.map((id) => ({ method: 'GET', path: `/row/${id}` }))
    },
    {
      name: 'baseline-list',
      target: 'baseline',
      description: 'bare Fastify + better-sqlite3: GET /rows?limit=100 (100 rows after a keyset position, as JSON)',
      requests: [{ method: 'GET', path: '/rows?after=0&limit=100' }]
    },
    {
      name: 'space-get',
      target: 'quire',
      comparedWith: 'baseline-row',
      description: `GET /v1/spaces/{id} as the org admin, rotating over ${quire.sampleIds.length} ids`,
      requests: quire.sampleIds.map((id) => ({ method: 'GET', path: `/v1/spaces/${id}`, headers: owner }))
    },
    {
      name: 'space-get-reader',
      target: 'quire',
      comparedWith: 'baseline-row',
      description: `GET /v1/spaces/{id} as a member with the read role (full role resolution), rotating over ${quire.sampleIds.length} ids`,
      requests: quire.sampleIds.map((id) => ({ method: 'GET', path: `/v1/spaces/${id}`, headers: reader }))
    },
    {
      name: 'list-first',
      target: 'quire',
      comparedWith: 'baseline-list',
      description: `GET ${listBase}?limit=100, page 1 of ${totalPages}`,
      requests: [{ method: 'GET', path: `${listBase}?limit=100`, headers: owner }]
    },
    {
      name: 'list-deep',
      target: 'quire',
      comparedWith: 'baseline-list',
      description: `GET ${listBase}?limit=100&page=<cursor>, page ${deepPage} of ${totalPages} (after ${deep.skipped} spaces)`,
      requests: [{ method: 'GET', path: `${listBase}?limit=100&page=${encodeURIComponent(deep.page)}`, headers: owner }]
    }
  ]
  const named = (args.only ?? '').split(',').filter((n) => n && !SUITES.includes(n))
  const only = named.length ? new Set(named) : undefined
  const urls = { baseline: baseline.url, quire: quire.url }

  // Pre-flight: every scenario answers 200 with the right body before load is put on it.
  const selected: Scenario[] = []
  const skipped: string[] = []
  for (const s of scenarios) {
    if (only && !only.has(s.name)) continue
    const first = s.requests[0]!
    const res = await getJson(`${urls[s.target]}${first.path}`, first.headers?.authorization?.slice('Bearer '.length))
    if (res.status === 404 && /^No operation/.test(res.body?.error?.message ?? '')) {
      skipped.push(`${s.name}: the route is not there yet (${res.body.error.message})`)
      continue
    }
    if (res.status !== 200) throw new BenchFailure(`pre-flight ${s.name}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`)
    if (s.name === 'list-deep' && res.body.items[0]?.title !== spaceTitle(deep.skipped)) {
      throw new BenchFailure(`pre-flight list-deep: page starts at "${res.body.items[0]?.title}", expected "${spaceTitle(deep.skipped)}"`)
    }
    if (s.name === 'list-first' && (res.body.items.length !== 100 || res.body.count !== spaces)) {
      throw new BenchFailure(`pre-flight list-first: ${res.body.items.length} items, count ${res.body.count}; expected 100 of ${spaces}`)
    }
    selected.push(s)
  }
  for (const note of skipped) console.log(`SKIPPED ${note}`)

  const runs = new Map<string, Measurement[]>()
  if (args.profile) mkdirSync(join(resultsDir, 'profiles'), { recursive: true })
  let profiles = 0
  const measureOne = async (scenario: Scenario, connections: number, round: number): Promise<Measurement> => {
    const child = scenario.target === 'quire' ? quireChild : baselineChild
    const profileFile = join(resultsDir, 'profiles', `${String(++profiles).padStart(2, '0')}-${scenario.name}-c${connections}.cpuprofile`)
    if (args.profile) {
      child.send({ type: 'profile-start' })
      await child.next('profiling')
    }
    child.send({ type: 'cpu-start' })
    await child.next('cpu-started')
    const { result: r, p50, p99, mean } = await measure(urls[scenario.target], scenario, connections, duration)
    child.send({ type: 'cpu-stop' })
    const { micros } = await child.next<{ micros: number }>('cpu')
    if (args.profile) {
      child.send({ type: 'profile-stop', file: profileFile })
      await child.next('profiled')
    }
    const m: Measurement = {
      scenario: scenario.name,
      target: scenario.target,
      description: scenario.description,
      connections,
      comparedWith: scenario.comparedWith,
      requestsPerSecond: r.requests.average,
      latencyP50Ms: round2(p50),
      latencyP99Ms: round2(p99),
      latencyAvgMs: round2(mean),
      requests2xx: r['2xx'],
      serverCpuMicrosPerRequest: round2(micros / r['2xx'])
    }
    console.log(
      `${rounds > 1 ? `[${round}/${rounds}] ` : ''}${scenario.name.padEnd(18)} c=${String(connections).padEnd(3)} ` +
        `${m.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${m.latencyP50Ms.toFixed(2)} ms  p99 ${m.latencyP99Ms.toFixed(2)} ms  ` +
        `server cpu ${m.serverCpuMicrosPerRequest.toFixed(0)} µs/req`
    )
    if (args.profile) {
      m.profile = relative(process.cwd(), profileFile)
      printSummary(`${scenario.name} c=${connections}`, summarizeProfile(profileFile, 15), r['2xx'])
    }
    return m
  }
  // Each Quire measurement runs right after its baseline's, and its ratio is taken within that pair: on a shared
  // machine the load of other processes drifts over a minute, much less over ten seconds.
  const warmed = new Set<string>()
  const run = async (scenario: Scenario, connections: number, round: number) => {
    const key = `${scenario.name} ${connections}`
    if (warmup > 0 && !warmed.has(key)) await measure(urls[scenario.target], scenario, connections, warmup)
    warmed.add(key)
    const m = await measureOne(scenario, connections, round)
    runs.set(key, [...(runs.get(key) ?? []), m])
    return m
  }
  const ratios = new Map<string, { rps: number[]; cpu: number[] }>()
  const paired = new Set(selected.flatMap((s) => (s.comparedWith ? [s.comparedWith] : [])))
  for (let round = 1; round <= rounds; round++) {
    for (const scenario of selected) {
      if (scenario.target === 'baseline' && paired.has(scenario.name)) continue
      const base = selected.find((b) => b.name === scenario.comparedWith)
      for (const connections of connectionCounts) {
        const b = base && (await run(base, connections, round))
        const m = await run(scenario, connections, round)
        if (!b) continue
        const key = `${scenario.name} ${connections}`
        const r = ratios.get(key) ?? { rps: [], cpu: [] }
        r.rps.push(m.requestsPerSecond / b.requestsPerSecond)
        r.cpu.push(b.serverCpuMicrosPerRequest / m.serverCpuMicrosPerRequest)
        ratios.set(key, r)
      }
    }
  }
  // The median of the rounds: one slow round (another process woke up) does not move the figures.
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!
  const measurements = [...runs.values()].map((list): Measurement => {
    const mid = [...list].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor((list.length - 1) / 2)]!
    const m: Measurement =
      list.length > 1 ? { ...mid, roundsRequestsPerSecond: list.map((x) => Math.round(x.requestsPerSecond)) } : { ...mid }
    const r = ratios.get(`${m.scenario} ${m.connections}`)
    if (r) {
      m.ratioToBaseline = median(r.rps)
      m.cpuRatioToBaseline = median(r.cpu)
    }
    return m
  })
  const order = (m: Measurement) => selected.findIndex((s) => s.name === m.scenario) * 1000 + m.connections
  measurements.sort((a, b) => order(a) - order(b))
  printTable(measurements)
  for (const s of selected) console.log(`  ${s.name}: ${s.description}`)
  console.log(
    "  vs baseline: req/s over the baseline's, measured just before at the same connections (median of the rounds).\n" +
      "  cpu vs baseline: the baseline's server CPU per request over Quire's: the req/s ratio if each server had a core\n" +
      '  to itself and the load generator another.'
  )
  if (args.profile) console.log("\n(--profile: the figures include the profiler's overhead.)")

  mkdirSync(resultsDir, { recursive: true })
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version, loadavg: loadavg() },
    options: { duration, warmup, connections: connectionCounts, spaces, rounds, profile: args.profile },
    setupSeconds: { baseline: baseline.setupMillis / 1000, quire: quire.setupMillis / 1000 },
    skipped,
    results: measurements
  }
  writeFileSync(join(resultsDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`)
  console.log(`\nWrote ${relative(process.cwd(), join(resultsDir, 'latest.json'))}`)
}

const children: Child[] = []
async function shutdown() {
  await Promise.all(children.map(stopChild))
}
process.on('SIGINT', () => void shutdown().finally(() => process.exit(130)))

// Suites: the API scenarios (main) and the content benchmark. `--only` names scenarios or suites.
const SUITES = ['api', 'content', 'sync', 'renderer', 'cold-start', 'all']
const onlyList = args.only?.split(',') ?? []
const runContent = !args.only || onlyList.includes('content') || onlyList.includes('all')
const runSync = !args.only || onlyList.includes('sync') || onlyList.includes('all')
const runRenderer = !args.only || onlyList.includes('renderer') || onlyList.includes('all')
const runColdStart = !args.only || onlyList.includes('cold-start') || onlyList.includes('all')
const runApi = !args.only || onlyList.some((n) => n !== 'content' && n !== 'sync' && n !== 'renderer' && n !== 'cold-start')

async function runSuites() {
  if (runApi) {
    await main()
    await shutdown()
  }
  if (runContent) await runContentBench({ pages: Number(args.pages) })
  if (runSync) await runSyncBench()
  if (runRenderer) await runRendererBench()
  if (runColdStart) await runColdStartBench()
}

runSuites()
  .then(shutdown)
  .catch(async (error) => {
    await shutdown()
    console.error(`\nBENCH FAILED: ${error instanceof Error ? error.message : String(error)}`)
    if (!(error instanceof BenchFailure)) console.error(error)
    process.exit(1)
  })
