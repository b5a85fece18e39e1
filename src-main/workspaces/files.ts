// Workspace files out and in: a backup answered as a download (`GET /app/workspaces/{id}/backup`), and a workspace
// file received as a request body (`POST /app/workspaces/open`). Both go through a temporary file in the home, so a
// large workspace is never held in memory whole.
import { createWriteStream, readdirSync, rmSync } from 'node:fs'
import { open, rm, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { badRequest } from '../base/errors'
import { backupDatabase } from '../storage/backup'
import { checkDatabaseFile, WorkspaceFileError } from '../storage/database'

/** The media type of a workspace file (an SQLite database), as downloads are answered and uploads may be sent. */
export const WORKSPACE_FILE_TYPE = 'application/vnd.sqlite3'
const ACCEPTED_TYPES = new Set([WORKSPACE_FILE_TYPE, 'application/octet-stream', 'application/x-sqlite3'])

/** Names of temporary files and folders in `workspaces/`: a dot name is never read as a workspace. */
const BACKUP_PREFIX = '.backup-'
export const INCOMING_PREFIX = '.incoming-'

/** A backup ready to send: a temporary file, and the name it is saved as. */
export interface WorkspaceDownload {
  filename: string
  file: string
  size: number
}

/** `handbook-2026-03-01.quire.db`: the workspace's name as a slug, and the day. */
export function backupFilename(slug: string, now: Date): string {
  return `${slug || 'workspace'}-${now.toISOString().slice(0, 10)}.quire.db`
}

/** A consistent copy of the workspace database `source`, in a temporary file of `tempDir` (removed once sent). */
export async function backupForDownload(source: string, tempDir: string, filename: string): Promise<WorkspaceDownload> {
  const file = join(tempDir, `${BACKUP_PREFIX}${crypto.randomUUID()}.quire.db`)
  const size = await backupDatabase(source, file)
  return { filename, file, size }
}

/**
 * The answer to a backup request: the file streamed as an attachment. The temporary file is removed before the
 * stream says it ended (or when the reader gives up), so nothing is left once the last byte went out.
 */
export function downloadResponse({ filename, file, size }: WorkspaceDownload): Response {
  let handle: FileHandle | undefined
  const finish = async () => {
    await handle?.close().catch(() => {})
    handle = undefined
    await rm(file, { force: true })
  }
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        handle ??= await open(file, 'r')
        const chunk = new Uint8Array(256 * 1024)
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, null)
        if (bytesRead > 0) return controller.enqueue(chunk.subarray(0, bytesRead))
        await finish()
        controller.close()
      } catch (error) {
        await finish()
        controller.error(error)
      }
    },
    cancel: finish
  })
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': WORKSPACE_FILE_TYPE,
      'content-length': String(size),
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store'
    }
  })
}

/** Why a request cannot carry a workspace file (its content type), or null. */
export function uploadTypeProblem(contentType: string | null): string | null {
  const type = contentType?.split(';', 1)[0]!.trim().toLowerCase()
  return type && ACCEPTED_TYPES.has(type)
    ? null
    : `content-type: must be ${WORKSPACE_FILE_TYPE} or application/octet-stream, with the workspace file as the body`
}

/** Writes a request body to `file` as it arrives. */
export async function receiveFile(body: ReadableStream<Uint8Array>, file: string): Promise<void> {
  await pipeline(Readable.fromWeb(body as WebReadableStream<Uint8Array>), createWriteStream(file, { flags: 'wx' }))
}

/**
 * A received file must be a whole Quire workspace this version can open: an SQLite file, passing
 * `PRAGMA quick_check`, with Quire's schema, none of it newer. Each refusal is a 400 saying which.
 */
export function checkReceivedWorkspace(file: string): void {
  try {
    checkDatabaseFile(file, { deep: true, allowEmpty: false })
  } catch (error) {
    if (error instanceof WorkspaceFileError) throw badRequest(`file: ${error.reason}`)
    throw error
  }
}

/** Reads what is left of a request body, so an early refusal is sent before the connection closes. */
export async function drain(body: ReadableStream<Uint8Array> | null): Promise<void> {
  if (!body || body.locked) return
  try {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) void chunk
  } catch {
    // The client went away: nothing to answer.
  }
}

/** Removes what a process that stopped mid-way left in `workspaces/` (backups not sent, files not received). */
export function removeLeftovers(workspacesDir: string): void {
  let names: string[]
  try {
    names = readdirSync(workspacesDir)
  } catch {
    return
  }
  for (const name of names) {
    // (`..backup-…partial-…`: a copy backupDatabase had not finished.)
    if (name.startsWith(BACKUP_PREFIX) || name.startsWith(`.${BACKUP_PREFIX}`) || name.startsWith(INCOMING_PREFIX))
      rmSync(join(workspacesDir, name), { recursive: true, force: true })
  }
}
