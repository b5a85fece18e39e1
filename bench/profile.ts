// Reads a V8 CPU profile (.cpuprofile) and tells where the time went: self time per function, inclusive time per
// function (a sample counts once per function on its stack), and self time per area (Quire's folders, fastify,
// better-sqlite3, node's http, GC...).
import { readFileSync } from 'node:fs'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
  endTime: number
}

export interface ProfileSummary {
  totalMs: number
  idleMs: number
  /** Inclusive time of the request's stages (a sample counts once per stage on its stack). */
  stages: { stage: string; ms: number; pct: number }[]
  self: { name: string; ms: number; pct: number }[]
  inclusive: { name: string; ms: number; pct: number }[]
  areas: { area: string; ms: number; pct: number }[]
}

/** `node_modules/<pkg>/...` or the path inside the repository (`src-main/...`, `bench/...`), wherever it lives. */
function shortUrl(url: string): string {
  const u = url.replace(/^file:\/\//, '').replace(/\\/g, '/')
  const nm = u.lastIndexOf('node_modules/')
  if (nm >= 0) return u.slice(nm + 'node_modules/'.length)
  const repo = /\/(src-main|src-shared|bench)\//.exec(u)
  return repo ? u.slice(repo.index + 1) : u
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame
  const name = functionName || '(anonymous)'
  return url ? `${name} ${shortUrl(url)}:${lineNumber + 1}` : name
}

/** Coarse buckets: Quire's layers, its dependencies, node's own work. */
function areaOf(node: ProfileNode): string {
  const { functionName, url } = node.callFrame
  if (functionName === '(garbage collector)') return 'GC'
  if (functionName === '(idle)') return 'idle'
  if (functionName === '(program)') return 'V8/native (program)'
  if (!url) return functionName ? `native: ${functionName}` : 'other'
  const u = shortUrl(url)
  const quire: [string, string][] = [
    ['src-main/api/policies/', 'quire: policies (roles, membership)'],
    ['src-main/api/presenters/', 'quire: presenters'],
    ['src-main/api/routes/', 'quire: route handlers'],
    ['src-main/workspace/context', 'quire: context (transaction)'],
    ['src-main/api/app', 'quire: app hooks (auth)'],
    ['src-main/api/pagination', 'quire: pagination'],
    ['src-main/storage/', 'quire: storage (repositories, ids/hash)'],
    ['src-main/', 'quire: other'],
    ['bench/', 'bench (baseline server)']
  ]
  for (const [prefix, area] of quire) if (u.startsWith(prefix)) return area
  if (u.startsWith('better-sqlite3/')) return 'better-sqlite3 (JS side)'
  if (u.startsWith('fast-json-stringify/')) return 'fastify: serialization'
  if (u.startsWith('find-my-way/')) return 'fastify: router'
  if (/^(fastify|avvio|light-my-request)\//.test(u)) return 'fastify: core'
  if (/^(ajv|ajv-formats|fast-uri)\//.test(u)) return 'ajv (validation)'
  if (url.includes('node_modules/')) return `deps: ${u.split('/')[0]}`
  if (/^node:(internal\/http|_http|http)/.test(u)) return 'node: http'
  if (/^node:(internal\/streams?|net|internal\/stream_base)/.test(u)) return 'node: net/streams'
  if (/^node:(internal\/crypto|crypto)/.test(u)) return 'node: crypto'
  if (u.startsWith('node:')) return 'node: other'
  return 'other'
}

/** Stages of one request, matched on function name and file (inclusive time). */
const STAGES: [string, RegExp][] = [
  ['auth hook (token hash + user lookup)', /^(\(anonymous\)|onRequest\S*) src-main\/api\/app\.ts/],
  ['  hashToken (sha256)', /^hashToken /],
  ['  userRepository.getByToken (SQL)', /^getByToken |^\(anonymous\) src-main\/storage\/repositories\/userRepository/],
  ['read(): context + transaction + handler', /^read src-main\/api\/context/],
  ['  makeCtx', /^makeCtx /],
  ['  better-sqlite3 transaction wrapper creation', /^transaction better-sqlite3\/lib\/methods\/transaction\.js/],
  ['  loadSpace (row + role)', /^loadSpace /],
  ['    spaceRepository.get / list (SQL)', /^\(anonymous\) src-main\/storage\/repositories\/spaceRepository/],
  ['    spaceRole / spaceRoles (policies)', /^spaceRoles? src-main\/api\/policies/],
  ['    membership (SQL)', /^membership src-main\/api\/policies/],
  ['  presentSpace(s)', /^presentSpaces? /],
  ['  cachedCount', /^cachedCount /],
  ['response serialization (JSON)', /^serialize fastify\/lib\/reply\.js/],
  ['socket write (writev)', /^writePayload fastify/],
  ['request validation (ajv)', /^validate\d* /],
  ['route lookup (find-my-way)', /^find find-my-way/],
  ['GC', /^\(garbage collector\)/]
]

export function summarizeProfile(file: string, top = 20): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)

  // Native callees of better-sqlite3 (statement.get/all/run) have no url: fold them into their JS caller's area
  // only when the caller is a storage module, so "SQLite time" shows up where the query is issued.
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  const areas = new Map<string, number>()
  let total = 0
  let idle = 0
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000
    const leaf = byId.get(profile.samples[i]!)
    if (!leaf) continue
    if (leaf.callFrame.functionName === '(idle)') {
      idle += dt
      continue
    }
    total += dt
    self.set(frameName(leaf), (self.get(frameName(leaf)) ?? 0) + dt)
    let area = areaOf(leaf)
    if (area.startsWith('native: ')) {
      // Attribute a native leaf (SQLite step, JSON.stringify, hashing...) to its nearest JS caller's area.
      for (let p = parent.get(leaf.id); p !== undefined; p = parent.get(p)) {
        const a = areaOf(byId.get(p)!)
        if (!a.startsWith('native: ') && a !== 'other') {
          area = `${a} › native ${leaf.callFrame.functionName}`
          break
        }
      }
    }
    areas.set(area, (areas.get(area) ?? 0) + dt)
    const seen = new Set<string>()
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const name = frameName(byId.get(id)!)
      if (seen.has(name)) continue
      seen.add(name)
      inclusive.set(name, (inclusive.get(name) ?? 0) + dt)
    }
  }
  const stages = STAGES.map(([stage, pattern]) => {
    let ms = 0
    for (const [name, t] of inclusive) if (pattern.test(name)) ms = Math.max(ms, t)
    return { stage, ms: round(ms), pct: round((100 * ms) / total) }
  })
  const rank = <K extends string>(map: Map<string, number>, key: K, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, ms]) => ({ [key]: k, ms: round(ms), pct: round((100 * ms) / total) }) as { [P in K]: string } & { ms: number; pct: number })
  return {
    totalMs: round(total),
    idleMs: round(idle),
    stages,
    self: rank(self, 'name', top),
    inclusive: rank(inclusive, 'name', top * 2),
    areas: rank(areas, 'area', 40)
  }
}

const round = (x: number) => Math.round(x * 10) / 10

/** Prints the summary; with `requests` (answered during the profile), also CPU microseconds per request. */
export function printSummary(title: string, s: ProfileSummary, requests?: number): void {
  const per = (ms: number) => (requests ? `${((ms * 1000) / requests).toFixed(1).padStart(7)} µs/req` : '')
  const line = (pct: number, ms: number, label: string) => console.log(`    ${pct.toFixed(1).padStart(5)}% ${per(ms)}  ${label}`)
  console.log(
    `\n── CPU profile: ${title} — busy ${s.totalMs} ms, idle ${s.idleMs} ms${requests ? `, ${requests} requests, ${per(s.totalMs).trim()} busy` : ''}`
  )
  console.log('  request stages (inclusive):')
  for (const x of s.stages) if (x.ms > 0) line(x.pct, x.ms, x.stage)
  console.log('  by area (self time):')
  for (const a of s.areas) if (a.pct >= 0.3) line(a.pct, a.ms, a.area)
  console.log('  top functions (self time):')
  for (const f of s.self) line(f.pct, f.ms, f.name)
}

// `tsx bench/profile.ts FILE.cpuprofile` prints the summary of a saved profile.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  for (const file of process.argv.slice(2)) printSummary(file, summarizeProfile(file))
}
