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
}

/** `GET /app/workspaces`. */
export interface WorkspaceList {
  items: Workspace[]
  active: string
  /** False when the server serves one workspace (`quire serve --data`): the write operations answer 409. */
  switchable: boolean
}

/** `POST /app/workspaces` and `PATCH /app/workspaces/{id}`. */
export interface WorkspaceInput {
  name: string
}

export const WORKSPACE_NAME_MAX = 64
export const WORKSPACE_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/

/** What a server started with `--data` answers to every workspace write. */
export const SINGLE_WORKSPACE_MESSAGE =
  'this server serves one workspace (started with --data); start it with --home DIR to keep several'

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
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return 'name: must not contain control characters'
  return null
}
