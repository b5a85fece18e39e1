// What the loopback server checks before a request reaches a workspace: that it was sent to this server by name
// (DNS rebinding), that a browser write comes from the app's own origin (cross-site requests), and that a client
// failing to authenticate cannot keep guessing tokens at full speed. Plain Node, tested under vitest.
import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { hostname, networkInterfaces } from 'node:os'

/** The least length of a token given with `--token` or `QUIRE_TOKEN` (a generated token has 35 characters). */
export const MIN_TOKEN_LENGTH = 32

/** A start-up error for a token too short to resist guessing, or undefined when it is fine. */
export function weakTokenReason(token: string, label = '--token'): string | undefined {
  if (token.length >= MIN_TOKEN_LENGTH) return undefined
  return `${label}: must be at least ${MIN_TOKEN_LENGTH} characters (it has ${token.length}); leave it out to have one generated, or make one with \`openssl rand -base64 32\``
}

/** A host name as a Host header would carry it, lower case, IPv6 in brackets. */
function hostForm(name: string): string {
  const lower = name.trim().toLowerCase().replace(/\.$/, '')
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]']
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]'])

export interface HostPolicyOptions {
  /** The address the server listens on (`--host`). */
  host: string
  /** Names given with `--allow-host` (a reverse proxy's name, a LAN name): any port, or none. */
  allowHosts?: readonly string[]
}

/**
 * Which `Host` headers name this server: the address it listens on and the loopback names, with its port; a
 * server bound to every interface also answers to the machine's own addresses and name. Names given with
 * `--allow-host` are accepted with any port (a reverse proxy in front may use 443).
 */
export class HostPolicy {
  private readonly local = new Set<string>()
  private readonly anyPort = new Set<string>()
  private port = 0

  constructor(options: HostPolicyOptions) {
    const names = [hostForm(options.host), ...LOOPBACK_NAMES]
    if (WILDCARDS.has(options.host)) {
      names.push(hostForm(hostname()))
      for (const list of Object.values(networkInterfaces())) for (const net of list ?? []) names.push(hostForm(net.address))
    }
    for (const name of names) this.local.add(name)
    for (const name of options.allowHosts ?? []) this.anyPort.add(hostForm(name))
  }

  /** Set once the server listens (a port of 0 is the OS's choice). */
  listening(port: number): void {
    this.port = port
  }

  /** Whether a `Host` header (`name` or `name:port`) names this server. */
  allowsHost(header: string | undefined): boolean {
    if (!header) return false
    const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(header.trim())
    if (!match) return false
    const name = hostForm(match[1]!)
    if (this.anyPort.has(name)) return true
    // No port in the header is the scheme's default (80: a browser leaves it out).
    return this.local.has(name) && Number(match[2] ?? 80) === this.port
  }

  /** Whether an `Origin` header is this server's own: a host it answers to, over http (or https for `--allow-host` names). */
  allowsOrigin(origin: string): boolean {
    let url: URL
    try {
      url = new URL(origin)
    } catch {
      return false // "null" (a sandboxed frame, a file:// page) and anything unparsable
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
    if (this.anyPort.has(hostForm(url.hostname))) return true
    return url.protocol === 'http:' && this.allowsHost(url.host)
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export type Refusal = { status: 421 | 403; message: string }

/** Refuses a request sent to another name (421) or a browser write from another origin (403); undefined to go on. */
export function refuseForeign(policy: HostPolicy, req: IncomingMessage): Refusal | undefined {
  const host = req.headers.host
  if (!policy.allowsHost(host)) {
    return {
      status: 421,
      message: `Host: ${host ? `“${host.slice(0, 100)}” does not name this server` : 'required'}; start it with --allow-host NAME to answer another name`
    }
  }
  const origin = req.headers.origin
  if (origin !== undefined && !SAFE_METHODS.has((req.method ?? 'GET').toUpperCase()) && !policy.allowsOrigin(origin)) {
    return { status: 403, message: `Origin: “${origin.slice(0, 100)}” may not write here; only the app this server serves may` }
  }
  return undefined
}

export interface ThrottleOptions {
  /** Failed authentications a client may make at once before it is slowed down. */
  burst?: number
  /** Milliseconds before one more failure is allowed again. */
  refillMs?: number
  now?: () => number
}

interface Bucket {
  /** Failures still allowed at `at`. */
  tokens: number
  at: number
}

/**
 * Failed authentications slow down per client address: a burst of failures is answered as usual, then a
 * request that shows a token this server has not accepted before waits its turn (429 with `Retry-After`), one
 * more failure allowed per `refillMs`. Tokens that authenticated before keep going at full speed, so a valid
 * caller on the same address (every loopback client shares 127.0.0.1) is never slowed down by someone guessing.
 */
export class AuthThrottle {
  private readonly burst: number
  private readonly refillMs: number
  private readonly now: () => number
  private readonly buckets = new Map<string, Bucket>()
  /** Digests of tokens that authenticated (bounded; the oldest go first). */
  private readonly known = new Set<string>()

  constructor(options: ThrottleOptions = {}) {
    this.burst = options.burst ?? 20
    this.refillMs = options.refillMs ?? 1000
    this.now = options.now ?? Date.now
  }

  /** Seconds `address` must wait before showing `token` (one not accepted before), or 0 to go on. */
  waitFor(address: string, token: string): number {
    if (this.known.has(digest(token))) return 0
    const bucket = this.refill(address)
    if (!bucket || bucket.tokens >= 1) return 0
    return Math.max(1, Math.ceil(((1 - bucket.tokens) * this.refillMs) / 1000))
  }

  /** A request from `address` showing `token` was answered: 401 counts as a failure, anything else as known. */
  answered(address: string, token: string, authenticated: boolean): void {
    if (authenticated) {
      const key = digest(token)
      this.known.delete(key)
      this.known.add(key)
      if (this.known.size > 1000) this.known.delete(this.known.values().next().value!)
      return
    }
    const bucket = this.refill(address) ?? { tokens: this.burst, at: this.now() }
    bucket.tokens = Math.max(0, bucket.tokens - 1)
    this.buckets.set(address, bucket)
    if (this.buckets.size > 10_000) this.prune()
  }

  private refill(address: string): Bucket | undefined {
    const bucket = this.buckets.get(address)
    if (!bucket) return undefined
    const now = this.now()
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) / this.refillMs)
    bucket.at = now
    return bucket
  }

  /** Drops addresses that are back to a full burst. */
  private prune(): void {
    for (const [address] of this.buckets) if ((this.refill(address)?.tokens ?? this.burst) >= this.burst) this.buckets.delete(address)
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64url')
}

/** The bearer token of a request, if it shows one. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
  return match?.[1]
}
