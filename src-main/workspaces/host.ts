// The workspaces of one home folder and the ONE open backend of the active workspace. The desktop app and
// `quire serve --home` both run one; everything /v1 goes to the active backend, `/app/workspaces` is answered
// here. Plain Node (no electron), so it is tested under vitest.
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type {
  OutboxList,
  OutboxResolution,
  OutboxSyncResult,
  Workspace,
  WorkspaceList,
  WorkspaceProblem
} from '../../src-shared/workspaces'
import { ApiError, badRequest, conflict } from '../base/errors'
import type { ServerSync, WorkspaceBackend } from '../backend/backend'
import { workspaceFile } from '../workspace/workspace'
import { checkDatabaseFile, WorkspaceFileError } from '../storage/database'
import { Connections, unsentIn, type ConnectionsOptions } from './connections'
import { openWorkspaceBackend, type LocalOpener } from './openBackend'
import { answerWorkspaceRequest, fields, isWorkspacesPath, type WorkspaceDirectory } from './operations'
import { lockHome } from './homeLock'
import {
  backupFilename,
  backupForDownload,
  checkReceivedWorkspace,
  INCOMING_PREFIX,
  receiveFile,
  removeLeftovers,
  uploadTypeProblem,
  type WorkspaceDownload
} from './files'
import { DEFAULT_WORKSPACE, slugify, WORKSPACES_DIR, WorkspaceRegistry, type RegistryEntry } from './registry'

export interface WorkspaceHostOptions {
  /** Holds `workspaces.json` and `workspaces/<id>/quire.db`. */
  home: string
  /**
   * Opens (and initializes, for a new workspace) the backend of one workspace's database folder: a local
   * workspace's, or with `account` a connected workspace's copy (owned by that account; it must be a LocalBackend).
   */
  open: LocalOpener
  now?: () => Date
  /** Problems that do not fail an operation (a broken registry rebuilt, a folder left behind). */
  warn?: (message: string) => void
  /** How connected workspaces' tokens are sealed (connections.ts). */
  seals?: ConnectionsOptions['seals']
  /** Asks a server who a token belongs to (connecting); default `probeRemote`. */
  probe?: ConnectionsOptions['probe']
  /** Builds the backend that reaches a connected workspace's server; default a `RemoteBackend` over the network. */
  remote?: ConnectionsOptions['remote']
  /**
   * Told when a connected workspace's connection changed, or (the active one) what it keeps to send did: the
   * desktop app tells its windows.
   */
  onRemoteChange?: (id: string) => void
}

interface Slot {
  id: string
  /** A local workspace's backend, or a connected workspace's (its server, and its copy here). */
  backend: WorkspaceBackend
  inFlight: number
  /** Called when the last in-flight request of a retiring slot finished. */
  drained?: () => void
}

export class WorkspaceHost implements WorkspaceDirectory {
  private current: Slot
  /** Connected workspaces (the others are local), read from their folders at open and kept in step. */
  private readonly connections: Connections
  /** Backends switched away from, closing once their in-flight requests finished (by workspace id). */
  private readonly retiring = new Map<string, Promise<void>>()
  /** Workspaces that cannot be opened, and why (listed with it; activating them is refused until they open). */
  private readonly problems = new Map<string, WorkspaceProblem>()
  /** Workspace operations run one at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve()
  private closed = false

  private constructor(
    private readonly options: WorkspaceHostOptions,
    readonly registry: WorkspaceRegistry,
    current: Slot,
    /** Lets go of the home (homeLock.ts) once every backend closed. */
    private readonly unlock: () => void
  ) {
    this.current = current
    const { seals, probe, remote, now, warn, onRemoteChange } = options
    this.connections = new Connections({ seals, probe, remote, now, warn, onChange: (id) => onRemoteChange?.(id) })
  }

  /** Names this host in `quire-via` on what it proxies: a server refuses a request that went round to it (508). */
  get viaId(): string {
    return this.connections.viaId
  }

  /**
   * Reads (or creates) the home's registry and opens its active workspace. A workspace that cannot be opened
   * (damaged, unreadable, from a newer Quire) never stops the others: it is listed with its problem, and the host
   * opens the next healthy workspace instead (made the active one), or a new empty one when none is.
   */
  static async open(options: WorkspaceHostOptions): Promise<WorkspaceHost> {
    const warn = options.warn ?? ((message: string) => console.warn(message))
    mkdirSync(options.home, { recursive: true })
    const unlock = lockHome(options.home)
    try {
      const registry = WorkspaceRegistry.open(options.home, { now: options.now, warn })
      removeLeftovers(join(options.home, WORKSPACES_DIR))
      // A placeholder slot until the active workspace's backend is open (it may be a connected one).
      const host = new WorkspaceHost({ ...options, warn }, registry, undefined as unknown as Slot, unlock)
      for (const entry of registry.list()) host.connections.load(entry.id, registry.dataDir(entry.id))
      // The others are only looked at (header and schema, not a read of every page): the list shows which cannot open.
      for (const entry of registry.list()) if (entry.id !== registry.active) host.inspect(entry.id)
      const candidates = [
        registry.active,
        ...registry
          .list()
          .map((e) => e.id)
          .filter((id) => id !== registry.active && !host.problems.has(id))
      ]
      for (const id of candidates) {
        try {
          host.current = { id, backend: await host.openBackend(id), inFlight: 0 }
          break
        } catch (error) {
          host.noteProblem(id, error)
        }
      }
      if (!host.current) host.current = await host.openFresh()
      if (host.current.id !== registry.active) {
        const skipped = registry.require(registry.active).name
        registry.setActive(host.current.id)
        warn(`Opened workspace “${registry.require(host.current.id).name}” instead of “${skipped}”, which cannot be opened`)
      }
      return host
    } catch (error) {
      unlock()
      throw error
    }
  }

  get activeId(): string {
    return this.current.id
  }

  /** The active backend right now (a switch may replace it at any await; use `use()` to make a request). */
  get activeBackend(): WorkspaceBackend {
    return this.current.backend
  }

  /**
   * Runs `fn` against the active backend, counted as in flight: a switch that happens meanwhile closes this
   * backend only after `fn` settled.
   */
  async use<T>(fn: (backend: WorkspaceBackend, id: string) => Promise<T>): Promise<T> {
    if (this.closed) throw new ApiError(503, 'Quire is shutting down')
    const slot = this.current
    slot.inFlight++
    try {
      return await fn(slot.backend, slot.id)
    } finally {
      if (--slot.inFlight === 0) slot.drained?.()
    }
  }

  /** `/app/workspaces…` is answered here; everything else by the active backend. */
  fetch(request: Request): Promise<Response> {
    if (isWorkspacesPath(new URL(request.url).pathname)) return answerWorkspaceRequest(this, request)
    return this.use((backend) => backend.fetch(request))
  }

  list(): WorkspaceList {
    const active = this.current.id
    return { items: this.registry.list().map((e) => this.present(e, active)), active, switchable: true }
  }

  /**
   * Creates a workspace and does not switch to it: one on this computer (its database initialized: owner,
   * organization), or one connected to a server, once the server said whom the token belongs to.
   */
  async create(input: unknown): Promise<Workspace> {
    const { name, remote } = fields(input, ['name', 'remote'])
    // The name first: a name that is taken is refused before the server is asked anything.
    this.registry.checkName(name)
    const connection = remote === undefined ? undefined : await this.connections.connect(remote)
    return this.serial(async () => {
      const normalized = this.registry.checkName(name)
      const id = this.registry.newId(normalized)
      const dataDir = this.registry.dataDir(id)
      try {
        if (connection) {
          mkdirSync(dataDir, { recursive: true })
          this.connections.keep(id, dataDir, connection)
        } else {
          const backend = await this.options.open({ id, dataDir })
          await backend.close()
        }
        const entry = this.registry.add(id, normalized)
        return this.present(entry, this.current.id)
      } catch (error) {
        this.connections.forget(id)
        await rm(dataDir, { recursive: true, force: true })
        throw error
      }
    })
  }

  /**
   * A new name, and for a connected workspace a new server address or token, checked with the server first (it
   * must name the same account: the workspace is that account's view). The active workspace then answers
   * through the new connection.
   */
  async update(id: string, input: unknown): Promise<Workspace> {
    const { name, remote } = fields(input, ['name', 'remote'])
    if (name === undefined && remote === undefined) throw badRequest('body: give name, remote or both')
    this.registry.require(id)
    if (name !== undefined) this.registry.checkName(name, id)
    const connection = remote === undefined ? undefined : await this.connections.reconnect(id, remote)
    return this.serial(async () => {
      this.registry.require(id)
      if (name !== undefined) this.registry.rename(id, name)
      if (connection) {
        this.connections.keep(id, this.registry.dataDir(id), connection)
        // The active workspace answers through the new address and token from the next request on (its copy and
        // outbox stay open: a second backend on them would send the outbox twice).
        const active = this.current
        if (active.id === id) await active.backend.connected?.reconnect(this.connections.backend(id))
      }
      return this.present(this.registry.require(id), this.current.id)
    })
  }

  /** Asks a connected workspace's server now whether it answers and takes the token; the workspace as it is then. */
  async check(id: string): Promise<Workspace> {
    const entry = this.registry.require(id)
    if (!this.connections.has(id)) throw badRequest('This workspace is on this computer: there is no server to check')
    const slot = this.current
    if (slot.id === id && slot.backend.connected) {
      await this.use(async (backend) => void (await backend.connected?.check()))
    } else {
      // Not active: a backend of its own for one question, reporting to the same place.
      await this.connections.backend(id).check()
    }
    return this.present(this.registry.get(id) ?? entry, this.current.id)
  }

  /** Deletes a workspace that is not active: its registry entry and its folder (database, caches). */
  remove(id: string): Promise<void> {
    return this.serial(async () => {
      const entry = this.registry.require(id)
      if (id === this.current.id) {
        throw conflict(`“${entry.name}” is the active workspace and cannot be deleted: switch to another workspace first`)
      }
      await this.retiring.get(id)
      // Edits made offline that its server does not have yet would be lost with the folder.
      // A copy that cannot be opened cannot be read either: what it kept is beyond reach already.
      const unsent = this.connections.has(id) && !this.problems.has(id) ? unsentIn(this.registry.dataDir(id)) : 0
      if (unsent) {
        throw conflict(
          `“${entry.name}” has ${unsent === 1 ? 'a change' : `${unsent} changes`} its server does not have yet: open it and send or discard ${unsent === 1 ? 'it' : 'them'} (Unsent changes) before removing it`
        )
      }
      // Moved aside first (a dot name is never read as a workspace), so a failed registry write can put it back.
      const dir = this.registry.dataDir(id)
      const aside = join(this.registry.home, WORKSPACES_DIR, `.deleting-${id}-${Date.now()}`)
      const moved = existsSync(dir)
      if (moved) await rename(dir, aside)
      try {
        this.registry.remove(id)
      } catch (error) {
        if (moved) await rename(aside, dir)
        throw error
      }
      this.connections.forget(id)
      this.problems.delete(id)
      if (moved) {
        await rm(aside, { recursive: true, force: true }).catch((error: unknown) =>
          this.options.warn?.(`Could not remove ${aside}: ${error instanceof Error ? error.message : String(error)}`)
        )
      }
    })
  }

  /**
   * Makes `id` the active workspace: opens its backend first (a failure leaves the current one active and
   * answers the error), remembers it in the registry, then retires the old backend once its requests finished.
   */
  activate(id: string): Promise<Workspace> {
    return this.serial(async () => {
      const entry = this.registry.require(id)
      if (id !== this.current.id) {
        // Switching back quickly: the old connection to that database closes before a new one opens.
        await this.retiring.get(id)
        const backend = await this.openBackend(id).catch((error: unknown) => {
          const problem = this.noteProblem(id, error)
          if (error instanceof WorkspaceFileError)
            throw conflict(`Workspace “${entry.name}” cannot be opened: ${problem.message}. ${whatToDo(problem)}`)
          const reason = error instanceof Error ? error.message : String(error)
          this.options.warn?.(`Opening workspace ${id} failed: ${error instanceof Error ? (error.stack ?? reason) : reason}`)
          throw new ApiError(500, `Workspace “${entry.name}” could not be opened: ${reason}`)
        })
        this.problems.delete(id)
        try {
          this.registry.setActive(id)
        } catch (error) {
          await backend.close().catch(() => {})
          throw error
        }
        this.replaceActive(backend, id)
      }
      return this.present(entry, this.current.id)
    })
  }

  /**
   * A consistent copy of a workspace's database (the active one too, while it answers), in a temporary file of the
   * home that the answer streams and then removes. A connected workspace has no copy of its own to give: its
   * content is its server's.
   */
  async backup(id: string): Promise<WorkspaceDownload> {
    const entry = this.registry.require(id)
    const remote = this.connections.describe(id, undefined)
    if (remote) {
      throw conflict(
        `“${entry.name}” is connected to ${new URL(remote.url).host}: its content is kept by that server, and this computer holds only a partial copy of it. Back it up there`
      )
    }
    const problem = this.problems.get(id)
    if (problem) throw conflict(`Workspace “${entry.name}” cannot be backed up: ${problem.message}`)
    try {
      return await backupForDownload(
        workspaceFile(this.registry.dataDir(id)),
        join(this.registry.home, WORKSPACES_DIR),
        backupFilename(slugify(entry.name), this.now())
      )
    } catch (error) {
      if (error instanceof WorkspaceFileError)
        throw conflict(`Workspace “${entry.name}” cannot be backed up: ${this.noteProblem(id, error).message}`)
      throw error
    }
  }

  /**
   * Adds a workspace from a workspace file (a backup), sent as a stream: written to a folder of the home as it
   * arrives, checked (an SQLite file passing quick_check, Quire's schema, not newer: 400 otherwise), then moved to
   * `workspaces/<id>/quire.db` and opened once, which brings it to this version's schema. Not switched to.
   */
  async openFile(name: unknown, file: { body: ReadableStream<Uint8Array> | null; contentType: string | null }): Promise<Workspace> {
    this.registry.checkName(name)
    const typeProblem = uploadTypeProblem(file.contentType)
    if (typeProblem) throw new ApiError(415, typeProblem)
    if (!file.body) throw badRequest('file: is empty')
    const incoming = join(this.registry.home, WORKSPACES_DIR, `${INCOMING_PREFIX}${randomBytes(6).toString('hex')}`)
    try {
      mkdirSync(incoming)
      await receiveFile(file.body, workspaceFile(incoming))
      checkReceivedWorkspace(workspaceFile(incoming))
      return await this.serial(async () => {
        const normalized = this.registry.checkName(name)
        const id = this.registry.newId(normalized)
        const dataDir = this.registry.dataDir(id)
        await rename(incoming, dataDir)
        try {
          const backend = await this.options.open({ id, dataDir })
          await backend.close()
          return this.present(this.registry.add(id, normalized), this.current.id)
        } catch (error) {
          await rm(dataDir, { recursive: true, force: true })
          throw error
        }
      })
    } finally {
      await rm(incoming, { recursive: true, force: true })
    }
  }

  /** The writes the active connected workspace keeps to send. */
  outbox(id: string): Promise<OutboxList> {
    return this.withConnected(id, async (backend) => backend.outboxList())
  }

  /** Sends them now. */
  sync(id: string): Promise<OutboxSyncResult> {
    return this.withConnected(id, (backend) => backend.sync())
  }

  retryUnsent(id: string, seq: number): Promise<OutboxSyncResult> {
    return this.withConnected(id, (backend) => backend.retry(seq))
  }

  discardUnsent(id: string, seq: number): Promise<OutboxList> {
    return this.withConnected(id, (backend) => backend.discard(seq))
  }

  resolveUnsent(id: string, seq: number, resolution: OutboxResolution): Promise<OutboxSyncResult> {
    return this.withConnected(id, (backend) => backend.resolve(seq, resolution))
  }

  /** Runs `fn` on the active workspace's connected backend; another workspace's outbox is not open (409). */
  private withConnected<T>(id: string, fn: (backend: ServerSync) => Promise<T>): Promise<T> {
    const entry = this.registry.require(id)
    if (!this.connections.has(id))
      return Promise.reject(badRequest('This workspace is on this computer: it has nothing to send to a server'))
    if (id !== this.current.id)
      return Promise.reject(conflict(`“${entry.name}” is not the active workspace: its unsent changes are sent when it is opened`))
    return this.use((backend) => (backend.connected ? fn(backend.connected) : Promise.reject(conflict('The workspace is being switched'))))
  }

  /** Closes the active backend (after its in-flight requests) and waits for retiring ones. */
  async close(): Promise<void> {
    if (this.closed) return
    await this.queue.catch(() => {})
    this.closed = true
    this.retire(this.current)
    await Promise.all(this.retiring.values())
    this.unlock()
  }

  /** Makes `backend` answer from the next request on; the one it replaces closes once its requests finished. */
  private replaceActive(backend: WorkspaceBackend, id = this.current.id): void {
    const old = this.current
    this.current = { id, backend, inFlight: 0 }
    this.retire(old)
  }

  /** A workspace's backend: its server's when it is connected, else its database's (openBackend.ts). */
  private openBackend(id: string): Promise<WorkspaceBackend> {
    const account = this.connections.account(id)
    return openWorkspaceBackend({
      id,
      name: this.registry.require(id).name,
      dataDir: this.registry.dataDir(id),
      open: this.options.open,
      connection: account && { account, remote: this.connections.backend(id) },
      now: this.options.now,
      warn: this.options.warn,
      onChange: () => this.options.onRemoteChange?.(id)
    })
  }

  private present(entry: RegistryEntry, activeId: string): Workspace {
    const workspace: Workspace = { id: entry.id, name: entry.name, createdAt: entry.createdAt, active: entry.id === activeId }
    const backend = entry.id === this.current.id ? this.current.backend : undefined
    const remote = this.connections.describe(entry.id, backend?.connected)
    if (remote) workspace.remote = remote
    const problem = this.problems.get(entry.id)
    if (problem) workspace.problem = { ...problem }
    return workspace
  }

  /** Looks at a workspace's file without opening it (no write, no full read): a problem found is remembered. */
  private inspect(id: string): void {
    try {
      checkDatabaseFile(workspaceFile(this.registry.dataDir(id)), { deep: false })
    } catch (error) {
      this.noteProblem(id, error)
    }
  }

  /** Remembers why a workspace could not be opened (the list shows it) and says so in the log, by name and file. */
  private noteProblem(id: string, error: unknown): WorkspaceProblem {
    const file = error instanceof WorkspaceFileError ? error.file : workspaceFile(this.registry.dataDir(id))
    const problem: WorkspaceProblem =
      error instanceof WorkspaceFileError
        ? { kind: error.kind, message: error.message, file }
        : { kind: 'failed', message: `${file} could not be opened: ${error instanceof Error ? error.message : String(error)}`, file }
    this.problems.set(id, problem)
    const name = this.registry.get(id)?.name ?? id
    this.options.warn?.(`Workspace “${name}” cannot be opened: ${problem.message}`)
    return problem
  }

  /**
   * No workspace of the home could be opened: a new empty one, so the app still works (the others stay listed with
   * their problems). Named "Local", or "Local 2"… when that name is taken.
   */
  private async openFresh(): Promise<Slot> {
    let name = DEFAULT_WORKSPACE.name
    for (let n = 2; this.registry.list().some((e) => e.name.toLowerCase() === name.toLowerCase()); n++)
      name = `${DEFAULT_WORKSPACE.name} ${n}`
    const id = this.registry.newId(name)
    const backend = await this.options.open({ id, dataDir: this.registry.dataDir(id) })
    try {
      this.registry.add(id, name)
    } catch (error) {
      await backend.close().catch(() => {})
      throw error
    }
    this.options.warn?.(`No workspace of ${this.registry.home} could be opened: started a new empty one, “${name}”`)
    return { id, backend, inFlight: 0 }
  }

  private now(): Date {
    return this.options.now?.() ?? new Date()
  }

  private retire(slot: Slot): void {
    const done = (async () => {
      if (slot.inFlight > 0) await new Promise<void>((resolve) => (slot.drained = resolve))
      await slot.backend.close()
    })()
      .catch((error: unknown) =>
        this.options.warn?.(`Closing workspace ${slot.id} failed: ${error instanceof Error ? error.message : String(error)}`)
      )
      .finally(() => {
        if (this.retiring.get(slot.id) === done) this.retiring.delete(slot.id)
      })
    this.retiring.set(slot.id, done)
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new ApiError(503, 'Quire is shutting down'))
    const run = this.queue.then(() => fn())
    this.queue = run.catch(() => {})
    return run
  }
}

/** What the user can do about a workspace that cannot be opened (the sentence after its problem). */
function whatToDo(problem: Pick<WorkspaceProblem, 'kind'>): string {
  return problem.kind === 'newer'
    ? 'Its file is left as it is: remove the workspace only if you no longer need it'
    : 'Restore it from a backup with “Open workspace file…”, or remove it'
}
