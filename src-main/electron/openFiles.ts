// Workspace files handed to the app by the system: a double-click or "Open with" (argv on Windows and Linux, a second
// instance's argv through `second-instance`, `open-file` on macOS) or `quire path/to/backup.quire.db`. Each is added
// as "Open workspace file…" adds one (workspaceFileArgs.ts), then the windows are told and the user is shown the result.
import { app, BrowserWindow, dialog } from 'electron'
import { WORKSPACES_QUERY_KEY } from '../../src-shared/workspaces.ts'
import { notifyDataChanged } from './apiBridge.ts'
import { BACKEND_ORIGIN } from './localScheme.ts'
import { openWorkspaceFile, workspaceFilesInArgv } from './workspaceFileArgs.ts'

type Fetch = (request: Request) => Promise<Response>

/**
 * Starts listening for files (`open-file` must be heard before the app is ready: macOS sends the file that started the
 * app before `ready`) and opens those of this process's own argv. Returns what `second-instance` calls.
 */
export function handleWorkspaceFiles(host: Promise<{ fetch: Fetch }>): (argv: string[], cwd: string) => void {
  let queue = Promise.resolve()
  const open = (files: string[]) => {
    if (files.length === 0) return
    queue = queue.then(() => openAll(host, files)).catch((error: unknown) => console.error('Opening a workspace file failed:', error))
  }
  app.on('open-file', (event, path) => {
    event.preventDefault()
    open([path])
  })
  open(workspaceFilesInArgv(process.argv, { packaged: app.isPackaged, cwd: process.cwd() }))
  return (argv, cwd) => open(workspaceFilesInArgv(argv, { packaged: app.isPackaged, cwd }))
}

async function openAll(host: Promise<{ fetch: Fetch }>, files: string[]): Promise<void> {
  const workspaces = await host
  await app.whenReady()
  for (const file of files) {
    const result = await openWorkspaceFile(file, (request) => workspaces.fetch(request), BACKEND_ORIGIN)
    if ('workspace' in result) notifyDataChanged([WORKSPACES_QUERY_KEY])
    const options =
      'workspace' in result
        ? {
            type: 'info' as const,
            message: `“${result.workspace.name}” was added to your workspaces`,
            detail: `From ${file}. Switch to it from the workspace menu; the file itself was not changed.`
          }
        : { type: 'warning' as const, message: 'The workspace file could not be opened', detail: `${file}: ${result.problem}` }
    const win = BrowserWindow.getAllWindows()[0]
    if (win) await dialog.showMessageBox(win, options)
    else await dialog.showMessageBox(options)
  }
}
