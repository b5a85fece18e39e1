// The workspaces of one home folder and the ONE open backend of the active workspace. The desktop app and
// `quire serve --home` both run one; everything /v1 goes to the active backend, `/app/workspaces` is answered
// here. Plain Node (no electron), so it is tested under vitest.
import { existsSync, mkdirSync } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Workspace, WorkspaceList } from '../../src-shared/workspaces'
import { ApiError, conflict } from '../api/errors'
import { answerWorkspaceRequest, isWorkspacesPath, type WorkspaceDirectory } from './operations'
import { lockHome } from './homeLock'
import { WORKSPACES_DIR, WorkspaceRegistry, type RegistryEntry } from './registry'

/** What the host keeps open per workspace: a backend it can ask and close. */
export interface HostedBackend {
  fetch(request: Request): Promise<Response>
  close(): Promise<void>
}

export interface WorkspaceHostOptions<B extends HostedBackend> {
  /** Holds `workspaces.json` and `workspaces/<id>/quire.db`. */
  home: string
  /** Opens (and initializes, for a new workspace) the backend of one workspace's database folder. */
  open(workspace: { id: string; dataDir: string }): Promise<B>
  now?: () => Date
  /** Problems that do not fail an operation (a broken registry rebuilt, a folder left behind). */
  warn?: (message: string) => void
}

interface Slot<B> {
  id: string
  backend: B
  inFlight: number
  /** Called when the last in-flight request of a retiring slot finished. */
  drained?: () => void
}

export class WorkspaceHost<B extends HostedBackend> implements WorkspaceDirectory {
  private current: Slot<B>
  /** Backends switched away from, closing once their in-flight requests finished (by workspace id). */
  private readonly retiring = new Map<string, Promise<void>>()
  /** Workspace operations run one at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve()
  private closed = false

  private constructor(
    private readonly options: WorkspaceHostOptions<B>,
    readonly registry: WorkspaceRegistry,
    current: Slot<B>,
    /** Lets go of the home (homeLock.ts) once every backend closed. */
    private readonly unlock: () => void
  ) {
    this.current = current
  }

  /** Reads (or creates) the home's registry and opens its active workspace. */
  static async open<B extends HostedBackend>(options: WorkspaceHostOptions<B>): Promise<WorkspaceHost<B>> {
    const warn = options.warn ?? ((message: string) => console.warn(message))
    mkdirSync(options.home, { recursive: true })
    const unlock = lockHome(options.home)
    try {
      const registry = WorkspaceRegistry.open(options.home, { now: options.now, warn })
      const id = registry.active
      const backend = await options.open({ id, dataDir: registry.dataDir(id) })
      return new WorkspaceHost({ ...options, warn }, registry, { id, backend, inFlight: 0 }, unlock)
    } catch (error) {
      unlock()
      throw error
    }
  }

  get activeId(): string {
    return this.current.id
  }

  /** The active backend right now (a switch may replace it at any await; use `use()` to make a request). */
  get activeBackend(): B {
    return this.current.backend
  }

  /**
   * Runs `fn` against the active backend, counted as in flight: a switch that happens meanwhile closes this
   * backend only after `fn` settled.
   */
  async use<T>(fn: (backend: B, id: string) => Promise<T>): Promise<T> {
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
    return { items: this.registry.list().map((e) => present(e, active)), active, switchable: true }
  }

  /** Creates the workspace and initializes its database (owner, organization); does not switch to it. */
  create(name: unknown): Promise<Workspace> {
    return this.serial(async () => {
      const normalized = this.registry.checkName(name)
      const id = this.registry.newId(normalized)
      const dataDir = this.registry.dataDir(id)
      try {
        const backend = await this.options.open({ id, dataDir })
        await backend.close()
        return present(this.registry.add(id, normalized), this.current.id)
      } catch (error) {
        await rm(dataDir, { recursive: true, force: true })
        throw error
      }
    })
  }

  rename(id: string, name: unknown): Promise<Workspace> {
    return this.serial(async () => present(this.registry.rename(id, name), this.current.id))
  }

  /** Deletes a workspace that is not active: its registry entry and its folder (database, caches). */
  remove(id: string): Promise<void> {
    return this.serial(async () => {
      const entry = this.registry.require(id)
      if (id === this.current.id) {
        throw conflict(`“${entry.name}” is the active workspace and cannot be deleted: switch to another workspace first`)
      }
      await this.retiring.get(id)
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
        const backend = await this.options.open({ id, dataDir: this.registry.dataDir(id) }).catch((error: unknown) => {
          const reason = error instanceof Error ? error.message : String(error)
          this.options.warn?.(`Opening workspace ${id} failed: ${error instanceof Error ? (error.stack ?? reason) : reason}`)
          throw new ApiError(500, `Workspace “${entry.name}” could not be opened: ${reason}`)
        })
        try {
          this.registry.setActive(id)
        } catch (error) {
          await backend.close().catch(() => {})
          throw error
        }
        const old = this.current
        this.current = { id, backend, inFlight: 0 }
        this.retire(old)
      }
      return present(entry, this.current.id)
    })
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

  private retire(slot: Slot<B>): void {
    const done = (async () => {
      if (slot.inFlight > 0) await new Promise<void>((resolve) => (slot.drained = resolve))
      await slot.backend.close()
    })()
      .catch((error: unknown) => this.options.warn?.(`Closing workspace ${slot.id} failed: ${error instanceof Error ? error.message : String(error)}`))
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

function present(entry: RegistryEntry, activeId: string): Workspace {
  return { id: entry.id, name: entry.name, createdAt: entry.createdAt, active: entry.id === activeId }
}
