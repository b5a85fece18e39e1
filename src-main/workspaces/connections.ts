// The connected workspaces of a home, as the host keeps them: their settings (read from their folders'
// connection.json, kept in step when they change), how their connections stand, and the backends that reach their
// servers. The host decides what to open and when; this decides what a connection is and how it is checked.
import { existsSync } from 'node:fs'
import Database from 'better-sqlite3'
import {
  normalizeRemoteUrl,
  remoteTokenProblem,
  remoteUrlProblem,
  type RemoteAccount,
  type RemoteConnection,
  type WorkspaceRemote
} from '../../src-shared/workspaces'
import { badRequest } from '../base/errors'
import { newViaId, probeRemote, RemoteBackend } from '../backend/remoteBackend'
import { workspaceFile } from '../workspace/workspace'
import type { ServerSync } from '../backend/backend'
import { fileSeal, openToken, readConnection, sealToken, writeConnection, type Connection, type TokenSeal } from './connection'
import { fields } from './operations'

export interface ConnectionsOptions {
  /**
   * How tokens are sealed: the first seals new ones, any opens what it sealed. Default: the file's permissions only
   * (`fileSeal`); the desktop app puts the system keychain first.
   */
  seals?: readonly TokenSeal[]
  /** Asks a server who a token belongs to; default `probeRemote`. */
  probe?: (url: string, token: string, options: { via: string }) => Promise<RemoteAccount>
  /** Builds the backend that reaches a server; default a `RemoteBackend` over the network. */
  remote?: (options: ConstructorParameters<typeof RemoteBackend>[0]) => RemoteBackend
  now?: () => Date
  warn?: (message: string) => void
  /** Told when a connection's status (or its message) changed. */
  onChange?: (id: string) => void
}

/** A connected workspace: its settings and what the last request to its server found. */
interface Connected extends Connection {
  connection: RemoteConnection
}

export class Connections {
  /** Names this host in `quire-via` on what it proxies: a server refuses a request that went round to it (508). */
  readonly viaId = newViaId()
  private readonly byId = new Map<string, Connected>()

  constructor(private readonly options: ConnectionsOptions) {}

  has(id: string): boolean {
    return this.byId.has(id)
  }

  account(id: string): RemoteAccount | undefined {
    return this.byId.get(id)?.account
  }

  /** Reads a workspace folder's connection, if it has one (a broken file is reported, and the workspace is local). */
  load(id: string, dataDir: string): void {
    try {
      const connection = readConnection(dataDir)
      if (connection) this.byId.set(id, { ...connection, connection: { status: 'unknown' } })
    } catch (error) {
      this.options.warn?.(error instanceof Error ? error.message : String(error))
    }
  }

  /**
   * A new connection from a request body's `remote` (`{url, token}`): the address and token checked (400s naming
   * `remote.url` / `remote.token`), then the server asked whose the token is. Nothing is kept yet.
   */
  async connect(remote: unknown): Promise<Connection> {
    const { url, token } = fields(remote, ['url', 'token'], 'remote')
    const problem = remoteUrlProblem(url) ?? remoteTokenProblem(token)
    if (problem) throw badRequest(problem)
    const normalized = normalizeRemoteUrl(url as string)!
    const account = await (this.options.probe ?? probeRemote)(normalized, token as string, { via: this.viaId })
    return { url: normalized, account, token: sealToken(token as string, this.seals) }
  }

  /**
   * A workspace's connection with a new address or token (`remote`: `{url?, token?}`; the kept token when none is
   * given), checked like a new one. It must name the same account: the workspace is that account's view.
   */
  async reconnect(id: string, remote: unknown): Promise<Connection> {
    const known = this.byId.get(id)
    if (!known) throw badRequest('remote: this workspace is on this computer and cannot be connected to a server')
    const given = fields(remote, ['url', 'token'], 'remote')
    const token = given.token ?? this.tokenOf(known)
    if (token === undefined) throw badRequest('remote.token: is required (the one kept for this workspace cannot be read)')
    const connection = await this.connect({ url: given.url ?? known.url, token })
    if (connection.account.id !== known.account.id) {
      const { displayName } = connection.account
      throw badRequest(
        `remote.token: the token is ${displayName}’s; this workspace is ${known.account.displayName}’s view of ${new URL(known.url).host}: connect a new workspace for ${displayName}`
      )
    }
    return connection
  }

  /** Keeps a connection the server just answered for: in the workspace's folder, and here. */
  keep(id: string, dataDir: string, connection: Connection): void {
    writeConnection(dataDir, connection)
    const at = this.now()
    this.byId.set(id, { ...connection, connection: { status: 'online', checkedAt: at, answeredAt: at } })
  }

  forget(id: string): void {
    this.byId.delete(id)
  }

  /** The backend that reaches a connected workspace's server; what it finds is reported here. */
  backend(id: string): RemoteBackend {
    const known = this.byId.get(id)
    if (!known) throw new Error(`Workspace ${id} is not connected to a server`)
    const opened = openToken(known, this.seals)
    const options = {
      url: known.url,
      via: this.viaId,
      token: 'token' in opened ? opened.token : undefined,
      tokenProblem: 'problem' in opened ? opened.problem : undefined,
      now: this.options.now,
      onConnection: (connection: RemoteConnection) => {
        // A backend of a workspace that was deleted or reconnected meanwhile reports to nobody.
        const current = this.byId.get(id)
        if (current?.url !== known.url || current.token.data !== known.token.data) return
        const changed = current.connection.status !== connection.status || current.connection.message !== connection.message
        current.connection = connection
        if (changed) this.options.onChange?.(id)
      }
    }
    return this.options.remote ? this.options.remote(options) : new RemoteBackend(options)
  }

  /**
   * A connected workspace as the list shows it (never its token). `live`: the active workspace's backend, which
   * knows when it last heard from the server and what it keeps to send.
   */
  describe(id: string, live?: ServerSync): WorkspaceRemote | undefined {
    const known = this.byId.get(id)
    if (!known) return undefined
    const current = live?.url === known.url ? live : undefined
    const connection = current && current.connection.status !== 'unknown' ? current.connection : known.connection
    const remote: WorkspaceRemote = { url: known.url, account: { ...known.account }, connection: { ...connection } }
    if (current) remote.outbox = current.outboxSummary()
    return remote
  }

  private tokenOf(known: Connection): string | undefined {
    const opened = openToken(known, this.seals)
    return 'token' in opened ? opened.token : undefined
  }

  private get seals(): readonly TokenSeal[] {
    return this.options.seals?.length ? this.options.seals : [fileSeal]
  }

  private now(): string {
    return (this.options.now?.() ?? new Date()).toISOString()
  }
}

/** How many writes a connected workspace's copy keeps for its server (its database read, not opened as a workspace). */
export function unsentIn(dataDir: string): number {
  const file = workspaceFile(dataDir)
  if (!existsSync(file)) return 0
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sync_outbox'").get()
    return table ? (db.prepare('SELECT count(*) FROM sync_outbox').pluck().get() as number) : 0
  } finally {
    db.close()
  }
}
