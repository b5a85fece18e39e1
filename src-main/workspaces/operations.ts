// `/app/workspaces`: list, create (on this computer or connected to a server), rename or reconnect, delete,
// activate and check workspaces. Answered by whatever keeps the workspaces (the host: the desktop app,
// `quire serve --home`; or the one workspace of `quire serve --data`), with the same JSON, statuses and error
// envelope as /v1.
import {
  SINGLE_WORKSPACE_MESSAGE,
  WORKSPACES_PATH,
  type OutboxList,
  type OutboxResolution,
  type OutboxSyncResult,
  type Workspace,
  type WorkspaceList
} from '../../src-shared/workspaces'
import { ApiError, badPercentEncoding, badRequest, conflict } from '../base/errors'
import { downloadResponse, drain, type WorkspaceDownload } from './files'

/** What answers the workspace operations. Write operations throw `ApiError`s (400/404/409). */
export interface WorkspaceDirectory {
  list(): WorkspaceList
  /** `{name}` or `{name, remote: {url, token}}` (WorkspaceInput). */
  create(input: unknown): Promise<Workspace>
  /** `{name?, remote?: {url?, token?}}` (WorkspacePatch). */
  update(id: string, input: unknown): Promise<Workspace>
  remove(id: string): Promise<void>
  activate(id: string): Promise<Workspace>
  /** Asks a connected workspace's server again now. */
  check(id: string): Promise<Workspace>
  /** A consistent copy of a workspace's database, in a temporary file the answer streams (and then removes). */
  backup(id: string): Promise<WorkspaceDownload>
  /** Adds a workspace from a workspace file sent as the body (streamed; `name` from the query string). */
  openFile(name: unknown, file: { body: ReadableStream<Uint8Array> | null; contentType: string | null }): Promise<Workspace>
  /** The active connected workspace's unsent writes; send them now; send a refused one again; give one up. */
  outbox(id: string): Promise<OutboxList>
  sync(id: string): Promise<OutboxSyncResult>
  retryUnsent(id: string, seq: number): Promise<OutboxSyncResult>
  discardUnsent(id: string, seq: number): Promise<OutboxList>
  /** A held conflict resolved (`OutboxResolution`, validated here), then the outbox is sent. */
  resolveUnsent(id: string, seq: number, resolution: OutboxResolution): Promise<OutboxSyncResult>
}

/** True for `/app/workspaces` and the paths under it. */
export function isWorkspacesPath(pathname: string): boolean {
  return pathname === WORKSPACES_PATH || pathname.startsWith(`${WORKSPACES_PATH}/`)
}

/** Bodies of workspace operations are one small JSON object (but a workspace file sent to `POST …/open`). */
export const WORKSPACE_BODY_LIMIT = 64 * 1024

/** `POST /app/workspaces/open?name=…`: its body is a workspace file, streamed to disk (no size limit here). */
export function isWorkspaceUpload(method: string, pathname: string): boolean {
  return method.toUpperCase() === 'POST' && pathname === `${WORKSPACES_PATH}/open`
}

/** Answers one `/app/workspaces…` request. Authentication is the caller's business (the server checks the token). */
export async function answerWorkspaceRequest(directory: WorkspaceDirectory, request: Request): Promise<Response> {
  try {
    return await dispatch(directory, request)
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error.status, error.message)
    console.error('Workspace operation failed:', error)
    return errorResponse(500, 'Internal error')
  }
}

async function dispatch(directory: WorkspaceDirectory, request: Request): Promise<Response> {
  const { pathname } = new URL(request.url)
  const method = request.method.toUpperCase()
  const rest = pathname.slice(WORKSPACES_PATH.length).split('/').filter(Boolean)
  const unknown = () => errorResponse(404, `No operation ${method} ${pathname}`)
  if (rest.length === 0) {
    if (method === 'GET' || method === 'HEAD') return json(200, directory.list())
    if (method === 'POST') return json(201, await directory.create(await readBody(request)))
    return unknown()
  }
  if (isWorkspaceUpload(method, pathname)) {
    try {
      const file = { body: request.body, contentType: request.headers.get('content-type') }
      return json(201, await directory.openFile(new URL(request.url).searchParams.get('name') ?? undefined, file))
    } finally {
      // Refused before the file was read (a name that is taken): read it anyway, or the answer may never arrive.
      await drain(request.body)
    }
  }
  let id: string
  try {
    id = decodeURIComponent(rest[0]!)
  } catch {
    throw badPercentEncoding()
  }
  if (rest.length === 1) {
    if (method === 'PATCH') return json(200, await directory.update(id, await readBody(request)))
    if (method === 'DELETE') {
      await directory.remove(id)
      return new Response(null, { status: 204 })
    }
    return unknown()
  }
  if (rest.length === 2 && rest[1] === 'activate' && method === 'POST') return json(200, await directory.activate(id))
  if (rest.length === 2 && rest[1] === 'check' && method === 'POST') return json(200, await directory.check(id))
  if (rest.length === 2 && rest[1] === 'backup' && method === 'GET') return downloadResponse(await directory.backup(id))
  if (rest[1] === 'outbox') {
    if (rest.length === 2 && method === 'GET') return json(200, await directory.outbox(id))
    if (rest.length === 3 && rest[2] === 'sync' && method === 'POST') return json(200, await directory.sync(id))
    const seq = rest[2] && /^\d{1,15}$/.test(rest[2]) ? Number(rest[2]) : undefined
    if (seq === undefined) return unknown()
    if (rest.length === 3 && method === 'DELETE') return json(200, await directory.discardUnsent(id, seq))
    if (rest.length === 4 && rest[3] === 'retry' && method === 'POST') return json(200, await directory.retryUnsent(id, seq))
    if (rest.length === 4 && rest[3] === 'resolve' && method === 'POST')
      return json(200, await directory.resolveUnsent(id, seq, resolution(await readBody(request))))
  }
  return unknown()
}

/** Most characters of a page's text in a resolution (the API's own limit on a document). */
const MAX_RESOLVED_MARKDOWN = 1_000_000

/** `{pages: [{page, keep: 'mine' | 'theirs'} | {page, markdown}]}`, checked field by field. */
function resolution(body: Record<string, unknown>): OutboxResolution {
  const pages = body.pages
  if (!Array.isArray(pages) || !pages.length) throw badRequest('pages: must be a non-empty array of choices')
  if (pages.length > 1000) throw badRequest('pages: must have at most 1000 items')
  const seen = new Set<string>()
  return {
    pages: pages.map((choice: unknown, i) => {
      const c = choice as Record<string, unknown> | null
      if (!c || typeof c !== 'object' || Array.isArray(c)) throw badRequest(`pages/${i}: must be an object`)
      if (typeof c.page !== 'string' || !c.page || c.page.length > 64) throw badRequest(`pages/${i}/page: must be a page id`)
      if (seen.has(c.page)) throw badRequest(`pages/${i}/page: is chosen twice`)
      seen.add(c.page)
      if ('markdown' in c) {
        if ('keep' in c) throw badRequest(`pages/${i}: must have keep or markdown, not both`)
        if (typeof c.markdown !== 'string') throw badRequest(`pages/${i}/markdown: must be a string`)
        if (c.markdown.length > MAX_RESOLVED_MARKDOWN)
          throw badRequest(`pages/${i}/markdown: must have at most ${MAX_RESOLVED_MARKDOWN} characters`)
        return { page: c.page, markdown: c.markdown }
      }
      if (c.keep !== 'mine' && c.keep !== 'theirs') throw badRequest(`pages/${i}/keep: must be one of mine, theirs`)
      return { page: c.page, keep: c.keep }
    })
  }
}

/** The JSON object sent; an empty body is an empty object (then `name: is required`). Unknown fields are ignored. */
async function readBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text()
  if (text.length > WORKSPACE_BODY_LIMIT) throw new ApiError(413, 'body: larger than the server accepts')
  if (!text.trim()) return {}
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw badRequest('body: must be valid JSON')
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('body: must be object')
  return body as Record<string, unknown>
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } })
}

export function errorResponse(status: number, message: string): Response {
  return json(status, { error: { code: status, message } })
}

/**
 * The one workspace of a server started with `--data`: listed (named after its folder), never switched; every
 * write answers 409 saying how to keep several.
 */
export function singleWorkspaceDirectory(workspace: Omit<Workspace, 'active'>): WorkspaceDirectory {
  const refuse = async (): Promise<never> => {
    throw conflict(SINGLE_WORKSPACE_MESSAGE)
  }
  return {
    list: () => ({ items: [{ ...workspace, active: true }], active: workspace.id, switchable: false }),
    create: refuse,
    update: refuse,
    remove: refuse,
    activate: refuse,
    check: refuse,
    // The server's own process has the file open: `quire backup --data DIR --to FILE` copies it consistently.
    backup: async () => {
      throw conflict('this server serves one workspace (started with --data): back it up with quire backup --data DIR --to FILE')
    },
    openFile: refuse,
    outbox: refuse,
    sync: refuse,
    retryUnsent: refuse,
    discardUnsent: refuse,
    resolveUnsent: refuse
  }
}

/**
 * The named members of a JSON object body (anything else in it is ignored, as /v1 ignores unknown fields); a
 * body that is not an object is a 400 naming `prefix`.
 */
export function fields<K extends string>(value: unknown, names: readonly K[], prefix = 'body'): Partial<Record<K, unknown>> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw badRequest(`${prefix}: must be object`)
  const record = value as Record<string, unknown>
  const picked: Partial<Record<K, unknown>> = {}
  for (const name of names) if (record[name] !== undefined) picked[name] = record[name]
  return picked
}
