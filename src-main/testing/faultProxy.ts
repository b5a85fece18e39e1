// Test-only: a loopback HTTP proxy in front of one server, whose faults the test sets while it runs (an answer
// lost after the server applied the write, a request cut mid-body, a proxy's 502/504, a refused connection, a
// delay). Requests and answers pass unchanged otherwise, streamed, with Host rewritten to the target's (Quire
// refuses a Host that does not name it: server/guard.ts). Every fault fires a given number of times (once by
// default) on the requests it matches, counted in arrival order, so a run is repeatable.
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse
} from 'node:http'
import type { Socket } from 'node:net'

export interface ProxiedRequest {
  /** 1 for the first request the proxy received, counting every one. */
  n: number
  method: string
  /** Path and query, as the client sent them. */
  path: string
}

export type Match = (request: ProxiedRequest) => boolean

export interface LogEntry extends ProxiedRequest {
  /** The fault applied, if any. */
  fault?: 'drop-answer' | 'cut-request' | '502' | '504' | 'delay'
  /** The whole request reached the target. */
  forwarded: boolean
  /** The status the client got (the target's, or the proxy's own 502/504); undefined when it got none. */
  status?: number
  /** The target's status, when it answered. */
  targetStatus?: number
  /** The client got the whole answer. */
  delivered: boolean
  /** The request's Idempotency-Key, as the client sent it (also when the proxy drops it on the way). */
  key?: string
  /** The target answered a key it had seen (Idempotency-Replayed: true): nothing was applied. */
  replayed?: boolean
}

export interface FaultOptions {
  /** How many matching requests the fault applies to (default 1; Infinity: until `clear()`). */
  times?: number
}

export interface FaultProxy {
  url: string
  port: number
  /** What passed, in arrival order (entries are completed as requests finish). */
  readonly log: readonly LogEntry[]
  /**
   * The request goes to the target, which applies it; then the client's connection is destroyed without a byte
   * of the answer. A number: the Nth write (not GET/HEAD/OPTIONS) from now on.
   */
  dropAnswer(which: number | Match, options?: FaultOptions): void
  /** The connection is cut after `afterBytes` of the request body reached the target: it never gets the whole request. */
  cutRequest(match: Match, afterBytes: number, options?: FaultOptions): void
  /** Answers 502 as a gateway that lost its upstream; `forward: true` sends the request on first (applied, answer dropped). */
  answer502(match: Match, options?: FaultOptions & { forward?: boolean }): void
  /** Answers 504 as a gateway that timed out; `forward` as for answer502. */
  answer504(match: Match, options?: FaultOptions & { forward?: boolean }): void
  /** Waits `ms` before sending the request on. */
  delay(ms: number, match: Match, options?: FaultOptions): void
  /** Drops a request header on the way (e.g. `idempotency-key`: the target then behaves as a server without keys). */
  withoutHeader(name: string): void
  /** Removes every fault not yet used up. */
  clear(): void
  /** Stops listening and drops every open connection: clients get "connection refused" until accept(). */
  refuse(): Promise<void>
  /** Listens again, on the same port. */
  accept(): Promise<void>
  /** Resolves once every request received so far is finished (its log entry complete). */
  settled(): Promise<void>
  close(): Promise<void>
}

/** Writes change something: `dropAnswer(n)` counts those. */
export const isWrite: Match = (r) => r.method !== 'GET' && r.method !== 'HEAD' && r.method !== 'OPTIONS'

type Action =
  | { kind: 'drop-answer' }
  | { kind: 'cut-request'; afterBytes: number }
  | { kind: '502' | '504'; forward: boolean }
  | { kind: 'delay'; ms: number }

interface Rule {
  match: Match
  action: Action
  left: number
}

/** Headers that belong to one connection, not to the message (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade'])

function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value
  return out
}

/** What a gateway answers when it lost its upstream (502) or gave up waiting for it (504). */
function gatewayError(res: ServerResponse, entry: LogEntry, status: 502 | 504): void {
  const body = `<html><head><title>${status}</title></head><body><h1>${status === 502 ? 'Bad Gateway' : 'Gateway Timeout'}</h1></body></html>\n`
  entry.status = status
  res.writeHead(status, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(body) })
  res.end(body, () => (entry.delivered = true))
}

/** A proxy on 127.0.0.1 (port 0: the system's choice) in front of `target` (`http://host:port`). */
export async function startFaultProxy(target: string, options: { port?: number } = {}): Promise<FaultProxy> {
  const upstream = new URL(target)
  if (upstream.protocol !== 'http:') throw new Error(`faultProxy: only http targets (${target})`)
  const dropped = new Set<string>()
  let rules: Rule[] = []
  const log: LogEntry[] = []
  const sockets = new Set<Socket>()
  const pending = new Set<Promise<void>>()
  let received = 0

  /** The first live rule matching is used up by one. Every live rule sees every request (`dropAnswer(n)` counts). */
  const ruleFor = (request: ProxiedRequest): Action | undefined => {
    const matching = rules.filter((rule) => rule.left > 0 && rule.match(request))
    const rule = matching[0]
    if (!rule) return undefined
    rule.left--
    return rule.action
  }
  const add = (match: Match, action: Action, times = 1) => void rules.push({ match, action, left: times })

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const request: ProxiedRequest = { n: ++received, method: req.method ?? 'GET', path: req.url ?? '/' }
    const key = req.headers['idempotency-key']
    const entry: LogEntry = { ...request, forwarded: false, delivered: false, ...(typeof key === 'string' ? { key } : {}) }
    log.push(entry)
    const done = proxy(req, res, entry, ruleFor(request)).catch(() => {
      // The target could not be reached or failed mid-answer: a gateway's 502 if nothing was answered yet.
      if (res.headersSent || res.destroyed) return void res.destroy()
      gatewayError(res, entry, 502)
    })
    pending.add(done)
    void done.finally(() => pending.delete(done))
  }

  /** Sends the request on (its body cut after `cutAfter` bytes, when given); the target's answer, or undefined when cut. */
  const forward = (req: IncomingMessage, entry: LogEntry, cutAfter?: number) =>
    new Promise<IncomingMessage | undefined>((resolve, reject) => {
      const headers: Record<string, string | string[]> = { ...endToEnd(req.headers), host: upstream.host }
      for (const name of dropped) delete headers[name]
      const out = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent: false },
        (answer) => {
          entry.targetStatus = answer.statusCode
          if (answer.headers['idempotency-replayed'] === 'true') entry.replayed = true
          resolve(answer)
        }
      )
      out.on('error', (error) => (cutAfter === undefined ? reject(error) : resolve(undefined)))
      req.on('error', (error) => out.destroy(error))
      if (cutAfter === undefined) {
        req.pipe(out)
        // Handed whole to the system on a connection to the target.
        out.on('finish', () => (entry.forwarded = true))
        return
      }
      // Only the first bytes go (never the last one: the target must not get a whole request); once they are handed
      // to the system, both connections are cut.
      const length = Number(req.headers['content-length'] ?? (req.headers['transfer-encoding'] ? Infinity : 0))
      const limit = Math.min(cutAfter, length - 1)
      let sent = 0
      const cut = () => {
        out.destroy()
        req.socket.destroy()
        resolve(undefined)
      }
      // No body: nothing of the request may go, or it would be whole.
      if (limit < 0) return cut()
      out.flushHeaders()
      if (limit === 0) return void out.write('', cut)
      req.on('data', (chunk: Buffer) => {
        if (sent >= limit) return
        const part = chunk.subarray(0, limit - sent)
        sent += part.length
        if (sent >= limit) out.write(part, cut)
        else out.write(part)
      })
      // A chunked body shorter than the limit: its last chunk never goes.
      req.on('end', () => {
        if (sent < limit) out.write('', cut)
      })
    })

  const readAll = (stream: IncomingMessage) =>
    new Promise<void>((resolve) => {
      stream.resume()
      stream.on('end', resolve)
      stream.on('error', () => resolve())
      stream.on('close', resolve)
    })

  const proxy = async (req: IncomingMessage, res: ServerResponse, entry: LogEntry, action: Action | undefined) => {
    if (action) entry.fault = action.kind
    if (action?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, action.ms))
    if (action?.kind === 'cut-request') {
      await forward(req, entry, action.afterBytes)
      return
    }
    if (action?.kind === '502' || action?.kind === '504') {
      if (action.forward) {
        const answer = await forward(req, entry)
        if (answer) await readAll(answer)
      } else await readAll(req)
      gatewayError(res, entry, action.kind === '502' ? 502 : 504)
      return
    }
    const answer = await forward(req, entry)
    if (!answer) return
    if (action?.kind === 'drop-answer') {
      // The target answered, so it applied the write (Quire commits before it answers): the client gets nothing.
      await readAll(answer)
      res.socket?.destroy()
      return
    }
    entry.status = answer.statusCode
    res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers))
    answer.pipe(res)
    await new Promise<void>((resolve) => {
      res.on('finish', () => {
        entry.delivered = true
        resolve()
      })
      res.on('close', resolve)
    })
  }

  const server: Server = createServer(handle)
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject)
        resolve()
      })
    })
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve()
      server.close(() => resolve())
      for (const socket of sockets) socket.destroy()
    })

  await listen(options.port ?? 0)
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  let closed = false

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    dropAnswer(which, options = {}) {
      if (typeof which === 'function') return add(which, { kind: 'drop-answer' }, options.times)
      // The Nth write from now on: the writes before it pass.
      let writes = 0
      add((r) => isWrite(r) && ++writes >= which, { kind: 'drop-answer' }, options.times)
    },
    cutRequest: (match, afterBytes, options = {}) => add(match, { kind: 'cut-request', afterBytes }, options.times),
    answer502: (match, options = {}) => add(match, { kind: '502', forward: options.forward ?? false }, options.times),
    answer504: (match, options = {}) => add(match, { kind: '504', forward: options.forward ?? false }, options.times),
    delay: (ms, match, options = {}) => add(match, { kind: 'delay', ms }, options.times),
    withoutHeader: (name) => void dropped.add(name.toLowerCase()),
    clear() {
      rules = []
    },
    refuse: stop,
    async accept() {
      if (closed) throw new Error('faultProxy: closed')
      if (!server.listening) await listen(port)
    },
    async settled() {
      while (pending.size) await Promise.allSettled([...pending])
    },
    async close() {
      closed = true
      await stop()
      await Promise.allSettled([...pending])
    }
  }
}
