// The parent's side of the workspace host in a process of its own (hostProtocol.ts): `fetch(Request) → Response`
// like every backend, so the desktop bridge, `quire://local` and the loopback server use it as they would a host in
// process. The host exiting fails what it had not answered with a `HostStoppedError`; `restart()` starts it again.
import type { FromHost, HostControl, HostPort, HostReady, HostStartOptions, HostTarget, ToHost } from './hostProtocol'
import { requestMessage, responseOf } from './hostProtocol'

/** A started host process: its port, and how it ends. */
export interface HostProcess {
  port: HostPort
  /** Resolves once the process is gone, whatever the reason (a signal's name, or the exit code). */
  exited: Promise<string>
  /** Ends it at once (SIGKILL). */
  kill(): void
}

export interface HostClientOptions {
  /** Starts a host process (a child process under Node, a utility process in Electron). */
  spawn: () => HostProcess
  start: HostStartOptions
  /** A connected workspace's connection changed. */
  onRemoteChange?: (workspace: string) => void
  /** The host stopped without being asked to (a crash, a kill): what it had not answered failed. */
  onStopped?: (reason: string) => void
  /** How long a close waits for the host to close its workspaces before it is killed (default 30 s). */
  closeTimeout?: number
}

/** A request the host cannot answer because it stopped (or was not running). */
export class HostStoppedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'HostStoppedError'
  }
}

interface Pending {
  resolve(value: unknown): void
  reject(error: Error): void
}

interface Running {
  process: HostProcess
  pending: Map<number, Pending>
  /** Set once the process is gone: why. */
  stopped?: string
  /** It said it was ready (a host that fails to start is not reported as stopped: the start rejects). */
  started: boolean
  closing: boolean
}

export class HostClient {
  private running: Running | undefined
  private nextId = 1
  private baseUrl: string | undefined
  private hostReady: HostReady = { bootstrapped: false }

  private constructor(private readonly options: HostClientOptions) {}

  /** Starts the host and waits until its workspaces are open (rejects with the host's reason when they cannot be). */
  static async start(options: HostClientOptions): Promise<HostClient> {
    const client = new HostClient(options)
    await client.launch()
    return client
  }

  /** What the host said when it was ready (the HTTP token, whether it bootstrapped a workspace). */
  get ready(): HostReady {
    return this.hostReady
  }

  /** True while a host process runs. */
  get alive(): boolean {
    return !!this.running && !this.running.stopped
  }

  /** Answers `request` in the host (`to`: who answers there, hostProtocol.ts). */
  async fetch(request: Request, to: HostTarget = 'host'): Promise<Response> {
    const id = this.nextId++
    const { message, transfer } = await requestMessage(id, to, request)
    const answer = await this.exchange(id, message, transfer)
    return responseOf(answer as Extract<FromHost, { type: 'response' }>)
  }

  /** /v1 as the active workspace's own user (the desktop bridge). */
  request(request: Request): Promise<Response> {
    return this.fetch(request, 'owner')
  }

  /** The origin the API gives out in URLs, from now on and after a restart. */
  setBaseUrl(url: string): void {
    this.baseUrl = url
    if (this.alive) this.post({ type: 'base-url', url })
  }

  /** Test-only operations (a host started with `testing`). */
  async control<T = unknown>(control: HostControl): Promise<T> {
    const id = this.nextId++
    const answer = (await this.exchange(id, { type: 'control', id, control })) as Extract<FromHost, { type: 'control' }>
    if (answer.error !== undefined) throw new Error(answer.error)
    return answer.result as T
  }

  /** Sends a raw message and resolves with the host's answer of the same id (tests send malformed ones). */
  exchange(id: number, message: ToHost, transfer: ArrayBuffer[] = []): Promise<FromHost> {
    const running = this.running
    if (!running || running.stopped || running.closing) {
      return Promise.reject(new HostStoppedError(`The workspace host is not running${running?.stopped ? ` (${running.stopped})` : ''}`))
    }
    return new Promise((resolve, reject) => {
      running.pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      running.process.port.postMessage(message, transfer)
    })
  }

  /** Starts a new host process (after a stop; a running one is closed first). */
  async restart(): Promise<void> {
    if (this.alive) await this.close()
    await this.launch()
  }

  /** Asks the host to close its workspaces (checkpointing the last write) and waits until it exited. */
  async close(): Promise<void> {
    const running = this.running
    if (!running || running.stopped) return
    if (!running.closing) {
      running.closing = true
      const timer = setTimeout(() => running.process.kill(), this.options.closeTimeout ?? 30_000)
      void running.process.exited.then(() => clearTimeout(timer))
      this.post({ type: 'close' })
    }
    await running.process.exited
  }

  private post(message: ToHost): void {
    this.running?.process.port.postMessage(message)
  }

  private async launch(): Promise<void> {
    const process = this.options.spawn()
    const running: Running = { process, pending: new Map(), started: false, closing: false }
    this.running = running
    const ready = new Promise<HostReady>((resolve, reject) => {
      running.pending.set(0, { resolve: resolve as (value: unknown) => void, reject })
    })
    process.port.on('message', (raw) => this.receive(running, raw as FromHost))
    void process.exited.then((reason) => {
      running.stopped = `it exited: ${reason}`
      const error = new HostStoppedError(`The workspace host stopped before it answered (${reason})`)
      for (const pending of running.pending.values()) pending.reject(error)
      running.pending.clear()
      if (running.started && !running.closing && this.running === running) this.options.onStopped?.(reason)
    })
    process.port.postMessage({ type: 'start', ...this.options.start } satisfies ToHost)
    if (this.baseUrl) process.port.postMessage({ type: 'base-url', url: this.baseUrl } satisfies ToHost)
    try {
      this.hostReady = await ready
      running.started = true
    } catch (error) {
      process.kill()
      throw error
    }
  }

  private receive(running: Running, message: FromHost): void {
    switch (message.type) {
      case 'ready':
      case 'failed': {
        const pending = running.pending.get(0)
        running.pending.delete(0)
        if (message.type === 'ready') pending?.resolve(message.ready)
        else pending?.reject(new Error(message.message))
        return
      }
      case 'response':
      case 'control': {
        const pending = running.pending.get(message.id)
        running.pending.delete(message.id)
        pending?.resolve(message)
        return
      }
      case 'remote-change':
        this.options.onRemoteChange?.(message.workspace)
        return
      case 'closed':
        return
    }
  }
}
