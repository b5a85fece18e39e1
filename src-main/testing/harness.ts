// Test-only: a real server on a fresh in-memory workspace, a small HTTP client, and factories.
import { manualClock } from '../base/clock'
import { checkAnswer, recordExercised } from './contract'
import { startServer, type RunningServer } from '../server/server'
import { newToken } from '../storage/ids'
import { repository } from '../storage/repositories/memo'
import { organizationRepository } from '../storage/repositories/organizationRepository'
import { userRepository, type UserRow } from '../storage/repositories/userRepository'
import type { Role } from '../../src-shared/schemas/common'

export interface Reply<T = any> {
  status: number
  body: T
  headers: Headers
}

export interface Client {
  token: string | undefined
  request<T = any>(method: string, path: string, body?: unknown, query?: Record<string, unknown>): Promise<Reply<T>>
  get<T = any>(path: string, query?: Record<string, unknown>): Promise<Reply<T>>
  post<T = any>(path: string, body?: unknown): Promise<Reply<T>>
  put<T = any>(path: string, body?: unknown): Promise<Reply<T>>
  patch<T = any>(path: string, body?: unknown): Promise<Reply<T>>
  delete<T = any>(path: string, body?: unknown): Promise<Reply<T>>
}

export interface TestUser {
  user: UserRow
  token: string
  api: Client
}

export interface TestServer {
  server: RunningServer
  url: string
  clock: ReturnType<typeof manualClock>
  /** The bootstrap owner (organization admin). */
  owner: TestUser
  /** The bootstrap organization. */
  orgId: string
  /** A client with no token (401 checks). */
  anonymous: Client
  client(token?: string): Client
  /** A new user, member of `orgId` (default: the bootstrap organization) with `role` (null: guest; 'none': not a member). */
  user(options?: { role?: Role | null | 'none'; orgId?: string; email?: string; name?: string }): Promise<TestUser>
  /** A new space with no page in the bootstrap organization, made by the owner; its id. */
  emptySpace(title?: string): Promise<string>
  close(): Promise<void>
}

/** A small JSON client of a server at `baseUrl`, with `token` as its bearer token. */
export function httpClient(baseUrl: string, token?: string): Client {
  const request = async (method: string, path: string, body?: unknown, query?: Record<string, unknown>) => {
    const url = new URL(path, baseUrl)
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v === undefined) continue
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item))
      else url.searchParams.set(k, String(v))
    }
    const headers: Record<string, string> = {}
    if (token) headers.authorization = `Bearer ${token}`
    let payload: string | undefined
    if (body !== undefined) {
      headers['content-type'] = 'application/json'
      payload = typeof body === 'string' ? body : JSON.stringify(body)
    }
    const res = await fetch(url, { method, headers, body: payload })
    const text = await res.text()
    let parsed: unknown = undefined
    if (text) {
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = text
      }
    }
    // Every answer is held to the published API's schema for its operation (contract.ts).
    if (res.status < 300) recordExercised(method, url.pathname)
    if (res.headers.get('content-type')?.startsWith('application/json')) checkAnswer(method, url.pathname, res.status, parsed)
    return { status: res.status, body: parsed as any, headers: res.headers }
  }
  return {
    token,
    request,
    get: (path, query) => request('GET', path, undefined, query),
    post: (path, body) => request('POST', path, body ?? {}),
    put: (path, body) => request('PUT', path, body ?? {}),
    patch: (path, body) => request('PATCH', path, body ?? {}),
    delete: (path, body) => request('DELETE', path, body)
  }
}

let counter = 0

/**
 * `dataDir`: a workspace folder instead of memory (what needs a file: the search threads); `searchThreads` as for
 * startServer. `hostProcess` (or QUIRE_TEST_HOST_PROCESS=1 for every file run): the workspace in a host process
 * (startServer's `hostProcess`); users and the clock then reach it through the host's test-only control messages.
 */
export async function startTestServer(
  options: { dataDir?: string; searchThreads?: number; hostProcess?: boolean } = {}
): Promise<TestServer> {
  if (options.hostProcess ?? process.env.QUIRE_TEST_HOST_PROCESS === '1') return startHostProcessTestServer(options)
  const clock = manualClock(new Date(CLOCK_START))
  const ownerToken = newToken()
  const server = await startServer({
    dataDir: options.dataDir ?? ':memory:',
    port: 0,
    token: ownerToken,
    clock,
    searchThreads: options.searchThreads
  })
  const { db } = server.api.services
  const users = repository(db, userRepository)
  const orgs = repository(db, organizationRepository)
  const ownerRow = users.getByToken(ownerToken)!
  const orgId = db.prepare<[], string>('SELECT id FROM organizations ORDER BY seq LIMIT 1').pluck().get()!

  return testServer(server, clock, ownerToken, ownerRow, orgId, async (options) => {
    const n = ++counter
    const now = clock.now().toISOString()
    const token = newToken()
    const user = db.transaction(() => {
      const row = users.create({ email: options.email ?? `user${n}@example.com`, displayName: options.name ?? `User ${n}` }, now)
      users.addToken(row.id, token, 'test', now)
      const role = options.role === undefined ? 'read' : options.role
      if (role !== 'none') orgs.addMember(options.orgId ?? orgId, row.id, role, now)
      return row
    })()
    server.api.services.writes++
    return { user, token }
  })
}

const CLOCK_START = '2026-03-01T10:00:00.000Z'

type NewUser = (options: NonNullable<Parameters<TestServer['user']>[0]>) => Promise<{ user: UserRow; token: string }>

function testServer(
  server: RunningServer,
  clock: TestServer['clock'],
  ownerToken: string,
  ownerRow: UserRow,
  orgId: string,
  newUser: NewUser
): TestServer {
  const client = (token?: string) => httpClient(server.url, token)
  return {
    server,
    url: server.url,
    clock,
    owner: { user: ownerRow, token: ownerToken, api: client(ownerToken) },
    orgId,
    anonymous: client(),
    client,
    async user(options = {}) {
      const { user, token } = await newUser(options)
      return { user, token, api: client(token) }
    },
    async emptySpace(title = 'Docs') {
      const res = await client(ownerToken).post(`/v1/orgs/${orgId}/spaces`, { title, empty: true })
      if (res.status !== 201) throw new Error(`Creating space ${title} answered ${res.status}: ${JSON.stringify(res.body)}`)
      return res.body.id as string
    },
    close: () => server.close()
  }
}

/** The same server with its workspace in a host process: the clock's changes and new users are sent to the host. */
async function startHostProcessTestServer(options: { dataDir?: string; searchThreads?: number }): Promise<TestServer> {
  const ownerToken = newToken()
  const server = await startServer({
    dataDir: options.dataDir ?? ':memory:',
    port: 0,
    token: ownerToken,
    searchThreads: options.searchThreads,
    hostProcess: true,
    hostTesting: { clock: CLOCK_START }
  })
  const host = server.host!
  const local = manualClock(new Date(CLOCK_START))
  // Sent in order on the host's channel, so the host's clock has moved before any request sent afterwards.
  const sync = () => void host.control({ op: 'clock', now: local.now().toISOString() }).catch(() => {})
  const clock: TestServer['clock'] = {
    now: local.now,
    set: (date) => (local.set(date), sync()),
    advance: (ms) => (local.advance(ms), sync())
  }
  const info = await host.control<{ orgId: string; owner: UserRow }>({ op: 'info' })
  return testServer(server, clock, ownerToken, info.owner, info.orgId, (options) => {
    const n = ++counter
    const role = options.role === undefined ? 'read' : options.role
    return host.control({
      op: 'user',
      email: options.email ?? `user${n}@example.com`,
      name: options.name ?? `User ${n}`,
      role,
      orgId: options.orgId
    })
  })
}

/** Walks a paginated list to the end; returns every item and the pages seen. */
export async function walk<T = any>(api: Client, path: string, query: Record<string, unknown> = {}) {
  const items: T[] = []
  const pages: any[] = []
  let page: string | undefined
  for (let i = 0; i < 10_000; i++) {
    const res = await api.get(path, { ...query, page })
    if (res.status !== 200) throw new Error(`walk ${path}: ${res.status} ${JSON.stringify(res.body)}`)
    pages.push(res.body)
    items.push(...res.body.items)
    page = res.body.next?.page
    if (!page) break
  }
  return { items, pages }
}
