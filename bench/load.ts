// Putting load on one scenario with autocannon, and the few HTTP calls made around it.
import autocannon, { type Request, type Result } from 'autocannon'

export interface Scenario {
  name: string
  target: 'baseline' | 'quire'
  /** The baseline scenario a Quire scenario is compared with (same work minus Quire's layers). */
  comparedWith?: string
  description: string
  requests: Request[]
}

export interface Measurement {
  scenario: string
  target: 'baseline' | 'quire'
  description: string
  connections: number
  requestsPerSecond: number
  latencyP50Ms: number
  latencyP99Ms: number
  latencyAvgMs: number
  requests2xx: number
  /** Server process CPU time (user + system) per answered request. */
  serverCpuMicrosPerRequest: number
  comparedWith?: string
  /** Quire's req/s over its baseline's, measured just before it (median over the rounds). */
  ratioToBaseline?: number
  /** req/s of every round (the figures above are the median round's). */
  roundsRequestsPerSecond?: number[]
  /** The baseline's CPU per request over Quire's: the req/s ratio two servers each owning a core would reach. */
  cpuRatioToBaseline?: number
  profile?: string
}

export class BenchFailure extends Error {}

export const round2 = (x: number) => Math.round(x * 100) / 100

export async function getJson(url: string, token?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  const text = await res.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // keep the text
  }
  return { status: res.status, body }
}

/**
 * The cursor of page `targetPage` (1-based) of the list at `limit` 100, reached by walking: first with
 * limit=1000 (fewer round trips), then with limit=100. The cursor is opaque; nothing here decodes it.
 */
export async function deepCursor(listUrl: string, token: string, targetPage: number): Promise<{ page: string; skipped: number }> {
  const toSkip = (targetPage - 1) * 100
  let skipped = 0
  let page: string | undefined
  for (const limit of [1000, 100]) {
    while (skipped + limit <= toSkip) {
      const url = new URL(listUrl)
      url.searchParams.set('limit', String(limit))
      if (page) url.searchParams.set('page', page)
      const res = await getJson(url.href, token)
      if (res.status !== 200) throw new BenchFailure(`walking ${url.href}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`)
      skipped += res.body.items.length
      page = res.body.next?.page
      if (!page) throw new BenchFailure(`the list ended after ${skipped} items, before page ${targetPage}`)
    }
  }
  if (!page) throw new BenchFailure(`page ${targetPage} is the first page`)
  return { page, skipped }
}

/** Latency percentile (ms) from raw samples: autocannon's own histogram rounds to whole milliseconds. */
function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return 0
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

export async function measure(url: string, scenario: Scenario, connections: number, seconds: number) {
  const samples: number[] = []
  const result = await new Promise<Result>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: seconds, requests: scenario.requests, timeout: 10 }, (error, res) =>
      error ? reject(error) : resolve(res)
    )
    instance.on('response', (_client, _status, _bytes, responseTime) => void samples.push(responseTime))
  })
  if (result.non2xx || result.errors || result.timeouts || !result['2xx']) {
    throw new BenchFailure(
      `${scenario.name} at ${connections} connections: ${result['2xx']} answers 2xx, ${result.non2xx} non-2xx, ` +
        `${result.errors} errors, ${result.timeouts} timeouts; status codes ${JSON.stringify(result.statusCodeStats)}`
    )
  }
  const sorted = Float64Array.from(samples).sort()
  const mean = samples.reduce((a, b) => a + b, 0) / (samples.length || 1)
  return { result, p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean }
}

export function printTable(rows: Measurement[]): void {
  const header = ['scenario', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'vs baseline', 'cpu µs/req', 'cpu vs baseline', 'baseline']
  const lines = rows.map((r) => [
    r.scenario,
    String(r.connections),
    r.requestsPerSecond.toFixed(0),
    r.latencyP50Ms.toFixed(2),
    r.latencyP99Ms.toFixed(2),
    r.ratioToBaseline === undefined ? (r.target === 'baseline' ? '100%' : '—') : `${(r.ratioToBaseline * 100).toFixed(0)}%`,
    r.serverCpuMicrosPerRequest.toFixed(0),
    r.cpuRatioToBaseline === undefined ? (r.target === 'baseline' ? '100%' : '—') : `${(r.cpuRatioToBaseline * 100).toFixed(0)}%`,
    r.comparedWith ?? ''
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')
  console.log(`\n${fmt(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`)
  for (const l of lines) console.log(fmt(l))
}
