// Workspace files the desktop app is asked to open: a backup (`*.quire.db`) double-clicked, opened with "Open with",
// or passed on the command line (Windows and Linux give it in argv, to the first instance or, through
// `second-instance`, to the running one; macOS sends `open-file`). Each is added the way "Open workspace file…" adds one: `POST /app/workspaces/open`
// with the file as the body. Plain Node (no 'electron'), so it is tested under Node; main.ts only wires events.
import { createReadStream, statSync } from 'node:fs'
import { basename, isAbsolute, resolve } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { workspaceNameFromFile } from '../../src-shared/workspaceFileName.ts'
import { WORKSPACE_NAME_MAX, WORKSPACES_PATH, type Workspace, type WorkspaceList } from '../../src-shared/workspaces.ts'
import { WORKSPACE_FILE_TYPE } from '../workspaces/files.ts'

/** What `quire backup` and "Back up workspace…" write (`backupFilename`), and what the Linux package associates. */
export const WORKSPACE_FILE_EXTENSION = 'quire.db'

/**
 * True for a name "Open workspace file…" offers too (`.quire.db`, `.db`, `.sqlite`, `.sqlite3`, any case): macOS and
 * Windows hand over a backup as a `.db` file. Whether it is a workspace is the host's to say, as for the dialog.
 */
export function isWorkspaceFileName(path: string): boolean {
  return /\.(db|sqlite3?)$/i.test(path)
}

/**
 * The workspace files named on a command line, as absolute paths, each once. argv[0] is the executable and an
 * unpackaged app (`electron .`) has its own folder as argv[1]; switches (`--…`, Chromium adds some to a second
 * instance's argv) and other arguments are skipped. A Linux desktop entry passes `file://` URLs (`%U`); a relative
 * path is relative to the directory the command was started in (`cwd`: a second instance's own).
 */
export function workspaceFilesInArgv(argv: readonly string[], options: { packaged: boolean; cwd: string }): string[] {
  const files = new Set<string>()
  for (const arg of argv.slice(options.packaged ? 1 : 2)) {
    if (arg.startsWith('-')) continue
    let path = arg
    if (/^file:/i.test(arg)) {
      try {
        path = fileURLToPath(arg)
      } catch {
        continue
      }
    }
    if (!isWorkspaceFileName(path)) continue
    files.add(isAbsolute(path) ? path : resolve(options.cwd, path))
  }
  return [...files]
}

/** What became of one file: added as a workspace, or why not (the host's own message, or the file system's). */
export type OpenedFile = { file: string; workspace: Workspace } | { file: string; problem: string }

/**
 * Adds `file` as a workspace through `fetch` (the host's: the same operation the renderer's "Open workspace file…"
 * sends), named after the file; a name already taken gets a number (`Handbook (2)`), so opening the same backup twice
 * keeps both. The file itself is only read. Not switched to: the renderer offers that, as after the dialog.
 */
export async function openWorkspaceFile(file: string, fetch: (request: Request) => Promise<Response>, origin: string): Promise<OpenedFile> {
  try {
    if (!statSync(file).isFile()) return { file, problem: 'It is not a file' }
  } catch (error) {
    return { file, problem: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'The file does not exist' : String(error) }
  }
  const listed = await fetch(new Request(new URL(WORKSPACES_PATH, origin)))
  if (!listed.ok) return { file, problem: await problemOf(listed) }
  const taken = new Set(((await listed.json()) as WorkspaceList).items.map((w) => w.name.toLowerCase()))
  const name = freeName(workspaceNameFromFile(basename(file)) || 'Workspace', taken)
  const url = new URL(`${WORKSPACES_PATH}/open`, origin)
  url.searchParams.set('name', name)
  const response = await fetch(
    new Request(url, {
      method: 'POST',
      headers: { 'content-type': WORKSPACE_FILE_TYPE },
      body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
      duplex: 'half'
    } as RequestInit)
  )
  if (!response.ok) return { file, problem: await problemOf(response) }
  return { file, workspace: (await response.json()) as Workspace }
}

/** `name`, or `name (2)`, `name (3)`… : the first one not in `taken` (lower-cased), within the length limit. */
export function freeName(name: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '' : ` (${n})`
    const candidate =
      [...name]
        .slice(0, WORKSPACE_NAME_MAX - suffix.length)
        .join('')
        .trim() + suffix
    if (!taken.has(candidate.toLowerCase())) return candidate
  }
}

async function problemOf(response: Response): Promise<string> {
  const text = await response.text()
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message
    if (typeof message === 'string') return message
  } catch {
    // Not the error envelope: say the status.
  }
  return `The app answered ${response.status}`
}
