// The Electron entry: app lifecycle and the one window. Everything else lives in plain-Node modules.
import { join } from 'node:path'
import { app, BrowserWindow, dialog, protocol } from 'electron'
import { HostClient } from '../workspaces/hostClient.ts'
import { WORKSPACES_QUERY_KEY } from '../../src-shared/workspaces.ts'
import { notifyDataChanged, registerApiBridge } from './apiBridge.ts'
import { devServerUrl, devTools, preloadFile, rendererIndexFile } from './appContent.ts'
import { LOCAL_ORIGIN, LOCAL_SCHEME, localSchemeRequest } from './localScheme.ts'
import { installMenu } from './menu.ts'
import { handleWorkspaceFiles } from './openFiles.ts'
import { checkForUpdatesFromMenu, scheduleUpdateCheck } from './updater.ts'
import { utilityHost } from './hostProcess.ts'
import { hardenWebContents } from './security.ts'
import { keychainKey } from './tokenSeal.ts'
import { loadWindowState, trackWindowState } from './windowState.ts'

// Tests (and power users) can point the app at a fresh profile; must happen before the instance lock.
if (process.env.QUIRE_USER_DATA_DIR) app.setPath('userData', process.env.QUIRE_USER_DATA_DIR)

// quire://local serves downloads and the site preview from the embedded backend (must be declared before ready).
protocol.registerSchemesAsPrivileged([
  { scheme: LOCAL_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } }
])

let mainWindow: BrowserWindow | null = null

function createWindow(): BrowserWindow {
  const state = loadWindowState()
  const win = new BrowserWindow({
    ...(state.positioned ? state.bounds : { width: state.bounds.width, height: state.bounds.height }),
    minWidth: 480,
    minHeight: 360,
    show: false,
    title: 'Quire',
    icon: join(import.meta.dirname, '../../resources/icon.png'),
    webPreferences: {
      preload: preloadFile,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: true,
      devTools
    }
  })
  if (state.maximized) win.maximize()
  trackWindowState(win)
  win.once('ready-to-show', () => win.show())
  win.on('closed', () => {
    mainWindow = null
  })
  if (devServerUrl) void win.loadURL(devServerUrl)
  else void win.loadFile(rendererIndexFile)
  return win
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.enableSandbox()
  app.on('second-instance', (_event, argv, workingDirectory) => {
    openWorkspaceFiles(argv, workingDirectory)
    if (!mainWindow) return
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
  })

  // The workspaces under userData (workspaces.json, workspaces/<id>/quire.db or connection.json) and the open
  // backend of the active one, in the workspace host's utility process: SQLite never runs on this process's loop.
  // A connected workspace's status change reaches the windows as a workspaces change; a host that dies is started
  // again (what it had not answered fails).
  let quitting = false
  const host: Promise<HostClient> = app.whenReady().then(() => {
    const client: Promise<HostClient> = HostClient.start({
      spawn: utilityHost,
      start: { home: app.getPath('userData'), baseUrl: LOCAL_ORIGIN, keychainKey: keychainKey(app.getPath('userData')) },
      onRemoteChange: () => notifyDataChanged([WORKSPACES_QUERY_KEY]),
      onStopped: (reason) => {
        if (quitting) return
        console.error(`The workspace host stopped (${reason}): starting it again`)
        void client
          .then((c) => c.restart())
          .then(
            () => notifyDataChanged([WORKSPACES_QUERY_KEY]),
            (error: unknown) => console.error(error)
          )
      }
    })
    return client
  })
  host.catch((error: unknown) => {
    dialog.showErrorBox('Quire cannot open its local workspace', error instanceof Error ? error.message : String(error))
    app.exit(1)
  })
  registerApiBridge(host)
  // Workspace files from a double-click or the command line: added as "Open workspace file…" adds one.
  const openWorkspaceFiles = handleWorkspaceFiles(host)

  void app.whenReady().then(() => {
    protocol.handle(LOCAL_SCHEME, async (request) => {
      const forward = localSchemeRequest(request.url, request.method, request.headers)
      if (!forward) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } })
      // A host that stopped (and is starting again) answers 503, as the bridge does.
      return (await host)
        .fetch(forward)
        .catch(() => new Response('The workspace host stopped', { status: 503, headers: { 'content-type': 'text/plain' } }))
    })
    hardenWebContents()
    installMenu({ devTools, checkForUpdates: () => void checkForUpdatesFromMenu() })
    mainWindow = createWindow()
    scheduleUpdateCheck()
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow()
    })
  })

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  // Close the database before exiting so the last write is checkpointed.
  let closing = false
  app.on('will-quit', (event) => {
    if (closing) return
    closing = true
    quitting = true
    event.preventDefault()
    void host
      .then((h) => h.close())
      .catch((error: unknown) => console.error('Closing the local workspace failed:', error))
      .finally(() => app.quit())
  })
}
