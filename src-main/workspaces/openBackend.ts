// The one module that knows whether a workspace is local or connected: it opens a local workspace's backend, or
// builds a connected workspace's (its server, and its copy here). Everything else asks the WorkspaceBackend it
// returns, through its optional members (`connected`, `serveNode`…).
import type { WorkspaceBackend } from '../backend/backend'
import type { LocalBackend } from '../backend/localBackend'
import type { RemoteBackend } from '../backend/remoteBackend'
import { ConnectedBackend } from '../sync/connectedBackend'
import type { WorkspaceAccount } from '../workspace/workspace'

/**
 * Opens (and initializes, for a new workspace) the local backend of one workspace's database folder: a local
 * workspace's, or with `account` a connected workspace's copy (owned by that account; it must then be a LocalBackend).
 */
export type LocalOpener = (workspace: { id: string; dataDir: string; account?: WorkspaceAccount }) => Promise<WorkspaceBackend>

export interface OpenBackendOptions {
  id: string
  /** The workspace's name, for messages. */
  name: string
  dataDir: string
  open: LocalOpener
  /** A connected workspace: the account its token names, and the backend that reaches its server. */
  connection?: { account: WorkspaceAccount; remote: RemoteBackend }
  now?: () => Date
  warn?: (message: string) => void
  /** Told when a connected workspace's connection or outbox changed. */
  onChange?: () => void
}

/** A workspace's backend: its server's when it is connected, else its database's (opened by `open`). */
export async function openWorkspaceBackend(options: OpenBackendOptions): Promise<WorkspaceBackend> {
  const { id, dataDir, connection } = options
  if (!connection) return options.open({ id, dataDir })
  const { account, remote } = connection
  // The copy is a workspace database of the account's, with the server's ids (src-main/sync).
  const copy = (await options.open({ id, dataDir, account })) as Partial<LocalBackend> & WorkspaceBackend
  // An opener that dropped `account` would have made a local owner and organization: refuse that copy.
  if (copy.services?.db.prepare<[], string>("SELECT value FROM settings WHERE key = 'owner'").pluck().get() !== account.id) {
    await copy.close()
    throw new Error(`The copy of “${options.name}” must be opened as ${account.displayName} (pass \`account\` to the backend)`)
  }
  const backend = new ConnectedBackend({
    remote,
    copy: copy as LocalBackend,
    now: options.now,
    warn: options.warn,
    onChange: options.onChange
  })
  backend.start()
  return backend
}
