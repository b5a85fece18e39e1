// Local workspaces: each its own SQLite database (own users, organizations, spaces). The desktop app and
// `quire serve --home` keep several and switch between them through `/app/workspaces`. Pure TypeScript:
// main implements the operations, the renderer calls them.

/** Where the workspace operations live (beside `/v1`, which always answers the active workspace). */
export const WORKSPACES_PATH = '/app/workspaces'

/**
 * Header naming a workspace. A `--home` server sends it with every /v1 answer (the workspace that answered); a
 * window sends back the one it shows, and a request meant for another workspace than the active one (another
 * window switched meanwhile) is refused with 409 instead of reading or writing the wrong database.
 */
export const WORKSPACE_HEADER = 'quire-workspace'

/** The renderer's query key for the list; main's data-changed event sends it after every workspace write. */
export const WORKSPACES_QUERY_KEY = ['app', 'workspaces']

export interface Workspace {
  /** Folder-safe and stable: `workspaces/<id>/quire.db` under the home folder. */
  id: string
  name: string
  createdAt: string
  /** True for the workspace `/v1` answers now. */
  active: boolean
  /** Present for a connected workspace: `/v1` is answered by that server, as the account its token names. */
  remote?: WorkspaceRemote
  /**
   * Present when the workspace cannot be opened (its file is damaged, unreadable, not a workspace, or from a newer
   * Quire): it is listed but not opened, and activating it answers 409 saying why. The other workspaces work.
   */
  problem?: WorkspaceProblem
}

/**
 * Why a workspace cannot be opened. `newer`: its file comes from a newer version of Quire (open it there);
 * `damaged`, `not-workspace`, `unreadable`: restore it from a backup or remove it; `failed`: opening it failed
 * otherwise (the message says how).
 */
export interface WorkspaceProblem {
  kind: 'newer' | 'damaged' | 'not-workspace' | 'unreadable' | 'failed'
  /** What is wrong, naming the file. */
  message: string
  /** The workspace's database file. */
  file: string
}

/** A connected workspace's server, as the list shows it (never its token). */
export interface WorkspaceRemote {
  /** The server's base address, without `/v1` (`https://docs.example.com`). */
  url: string
  /** The account the token belongs to, as the server named it (`GET /v1/user`) when connected. */
  account: RemoteAccount
  connection: RemoteConnection
  /** Writes made on this computer that the server does not have yet (the active workspace's; absent for others). */
  outbox?: OutboxSummary
}

export interface OutboxSummary {
  /** Writes waiting to be sent, the refused ones and conflicts included. */
  unsent: number
  /** Writes the server refused: they wait for the user (`GET /app/workspaces/{id}/outbox` says why). */
  failed: number
  /** Writes held because the server changed the same things: they wait for the user to choose. */
  conflicts: number
}

/**
 * One write of the outbox (`GET /app/workspaces/{id}/outbox`): made on this computer while the server was out of
 * reach (or behind such a write), sent in order when it answers. Change requests and their content only.
 */
export interface OutboxItem {
  seq: number
  kind: 'create-change-request' | 'update-change-request' | 'content'
  createdAt: string
  space: { id: string; title: string }
  /** As this computer numbers it (a change request made offline gets the server's number once sent). */
  changeRequest: { id: string; number: number; subject: string }
  /** What the write does, in words: `Edited “Install”`, `Opened the change request`. */
  summary: string
  /** Set when the server refused it: it and the later writes of its change request wait for the user. */
  failed?: { at: string; message: string }
  /**
   * Set when the server changed what it changes (the same lines of a page, or a page otherwise): it waits for the
   * user to choose, per page, `POST …/outbox/{seq}/resolve`.
   */
  conflict?: OutboxConflict
}

export interface OutboxConflict {
  at: string
  message: string
  pages: OutboxConflictPage[]
}

/** A page both sides changed: the text the write was made on, the write's and the server's. */
export interface OutboxConflictPage {
  /** The page's id as this computer knows it. */
  page: string
  title: string
  /** `text`: the same lines of its document (mine, theirs or an edited merge); `page`: its title, place or removal (mine or theirs). */
  kind: 'text' | 'page'
  base: string
  mine: string
  theirs: string
}

/** `POST /app/workspaces/{id}/outbox/{seq}/resolve`: a choice for every page of the conflict. */
export interface OutboxResolution {
  pages: ({ page: string; keep: 'mine' | 'theirs' } | { page: string; markdown: string })[]
}

export interface OutboxList {
  items: OutboxItem[]
}

/**
 * `POST /app/workspaces/{id}/outbox/sync`: what a send did. The list as it is afterwards, and the change requests
 * made offline that now have their server's number.
 */
export interface OutboxSyncResult extends OutboxList {
  sent: number
  /** Refused by the server this time. */
  failed: number
  /** Held as conflicts this time. */
  conflicts: number
  /** Why it stopped before the end, if it did: out of reach, the token refused (writes wait for a new one), an error of the server's. */
  stopped?: 'unreachable' | 'refused' | 'server-error'
  /** The server's message, when it stopped on an error of the server's. */
  message?: string
  renumbered: { spaceId: string; from: number; to: number }[]
}

export interface RemoteAccount {
  id: string
  displayName: string
  email?: string
}

/**
 * What the app last found when it asked the server: `online` (it answered), `unreachable` (no answer: network,
 * timeout), `refused` (401: the token was revoked or expired), `unknown` (not asked since the app started).
 */
export type RemoteStatus = 'online' | 'unreachable' | 'refused' | 'unknown'

export interface RemoteConnection {
  status: RemoteStatus
  /** When it was last asked (absent while `unknown`). */
  checkedAt?: string
  /** When it last answered (since this backend opened): while it is out of reach, what the copy shows is from then. */
  answeredAt?: string
  /** Why the last request failed (`unreachable`, `refused`). */
  message?: string
}

/** `GET /app/workspaces`. */
export interface WorkspaceList {
  items: Workspace[]
  active: string
  /** False when the server serves one workspace (`quire serve --data`): the write operations answer 409. */
  switchable: boolean
}

/**
 * `POST /app/workspaces`: a workspace on this computer (`{name}`), or one connected to a /v1 server
 * (`{name, remote: {url, token}}`: the server is asked who the token belongs to first; a server that cannot be
 * reached or refuses the token is a 400 naming `remote.url` or `remote.token`, and nothing is created).
 */
export interface WorkspaceInput {
  name: string
  remote?: RemoteInput
}

export interface RemoteInput {
  url: string
  token: string
}

/**
 * `PATCH /app/workspaces/{id}`: a new name, and for a connected workspace a new address or token (checked with
 * the server as on creation). At least one of them.
 */
export interface WorkspacePatch {
  name?: string
  remote?: Partial<RemoteInput>
}

/**
 * Header on every answer of a connected workspace: the connection's status after that request
 * (`RemoteStatus`), so a window notices a server going away or refusing the token without asking.
 */
export const REMOTE_STATUS_HEADER = 'quire-remote-status'

/** Header on answers of a connected workspace with writes not yet sent: how many (absent: none). */
export const UNSENT_HEADER = 'quire-unsent'

/** Longest server address and token accepted. */
export const REMOTE_URL_MAX = 2048
export const REMOTE_TOKEN_MAX = 4096

/**
 * A server address as stored: `http(s)://host[:port][/path]`, without a trailing `/` or `/v1` (people paste the
 * API's address as its documentation writes it, `https://api.example.com/v1`). Undefined when it is not one.
 */
export function normalizeRemoteUrl(text: string): string | undefined {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    return undefined
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || url.username || url.password || url.search || url.hash)
    return undefined
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '')
  return `${url.protocol}//${url.host}${path}`
}

/** Why a server address cannot be used (`remote.url: …`), or null. */
export function remoteUrlProblem(url: unknown): string | null {
  if (url === undefined || url === null || url === '') return 'remote.url: is required'
  if (typeof url !== 'string') return 'remote.url: must be string'
  if (url.length > REMOTE_URL_MAX) return `remote.url: must be at most ${REMOTE_URL_MAX} characters`
  if (!normalizeRemoteUrl(url)) return 'remote.url: must be an http:// or https:// address, without user, query or fragment'
  return null
}

/** Why a token cannot be used (`remote.token: …`), or null. Tokens are one word of printable characters. */
export function remoteTokenProblem(token: unknown): string | null {
  if (token === undefined || token === null || token === '') return 'remote.token: is required'
  if (typeof token !== 'string') return 'remote.token: must be string'
  if (token.length > REMOTE_TOKEN_MAX) return `remote.token: must be at most ${REMOTE_TOKEN_MAX} characters`
  if (!/^[\x21-\x7e]+$/.test(token)) return 'remote.token: must be printable characters without spaces'
  return null
}

export const WORKSPACE_NAME_MAX = 64
export const WORKSPACE_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/

/** What a server started with `--data` answers to every workspace write. */
export const SINGLE_WORKSPACE_MESSAGE = 'this server serves one workspace (started with --data); start it with --home DIR to keep several'

/** A name as stored: trimmed. */
export function normalizeWorkspaceName(name: string): string {
  return name.trim()
}

/**
 * Why a proposed name cannot be used (`name: must be at most 64 characters`), or null. Uniqueness is checked
 * where the list is known. Characters are counted as code points, so an emoji counts once.
 */
export function workspaceNameProblem(name: unknown): string | null {
  if (name === undefined || name === null) return 'name: is required'
  if (typeof name !== 'string') return 'name: must be string'
  const trimmed = normalizeWorkspaceName(name)
  if (!trimmed) return 'name: must not be blank'
  if ([...trimmed].length > WORKSPACE_NAME_MAX) return `name: must be at most ${WORKSPACE_NAME_MAX} characters`
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return 'name: must not contain control characters'
  return null
}
