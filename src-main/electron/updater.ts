// Updates through electron-updater, loaded on first use (a check, a few seconds after start when a feed is set): no
// cost at start-up, nothing loaded at all when no feed is configured. Which feed, and what the user is told, is
// decided in updateSettings.ts; this file only calls electron-updater.
//
// Checks electron-updater makes: the download's sha512 against the feed's latest*.yml, always; on Windows, the
// installer's Authenticode signature against the publisher named in the package's app-update.yml (electron-builder
// writes the signing certificate's name there); on macOS, Squirrel.Mac installs only an update signed like the
// running app, so updates need a signed app.
import { app, BrowserWindow, dialog } from 'electron'
import type { AppUpdater } from 'electron-updater'
import { readUpdateSettings, updateReport, type UpdateOutcome, type UpdateSettings } from './updateSettings.ts'

/** How long after start the first check waits: the window and the workspace come first. */
const FIRST_CHECK_DELAY_MS = 15_000

let updater: Promise<AppUpdater> | undefined
let checking: Promise<UpdateOutcome> | undefined
let downloaded: string | undefined

async function settings(): Promise<UpdateSettings> {
  try {
    return await readUpdateSettings({ env: process.env, userDataDir: app.getPath('userData'), resourcesDir: process.resourcesPath })
  } catch (error) {
    // update.json there but unreadable (permissions): said, never fatal.
    return { state: 'invalid', source: 'update.json', problem: error instanceof Error ? error.message : String(error) }
  }
}

function load(feed: Extract<UpdateSettings, { state: 'on' }>): Promise<AppUpdater> {
  updater ??= import('electron-updater').then((module) => {
    // A CommonJS module: its exports arrive as the default export under ESM.
    const autoUpdater = (module.autoUpdater ?? (module as unknown as { default: typeof module }).default.autoUpdater) as AppUpdater
    autoUpdater.autoDownload = true
    autoUpdater.autoInstallOnAppQuit = true
    // The package's own feed is app-update.yml, which electron-updater reads itself; another one is set here (the
    // Windows publisher check still reads app-update.yml).
    if (feed.source !== 'app-update.yml') autoUpdater.setFeedURL(feed.feed)
    return autoUpdater
  })
  return updater
}

/** Checks the feed and downloads a newer version; one check at a time. */
export function checkForUpdates(): Promise<UpdateOutcome> {
  checking ??= check().finally(() => {
    checking = undefined
  })
  return checking
}

async function check(): Promise<UpdateOutcome> {
  const current = await settings()
  if (current.state !== 'on') return current
  if (!app.isPackaged) return { state: 'unpackaged' }
  if (downloaded) return { state: 'downloaded', version: downloaded }
  try {
    const autoUpdater = await load(current)
    const result = await autoUpdater.checkForUpdates()
    if (!result?.isUpdateAvailable) return { state: 'current', version: app.getVersion() }
    await result.downloadPromise
    downloaded = result.updateInfo.version
    return { state: 'downloaded', version: downloaded }
  } catch (error) {
    return { state: 'failed', message: error instanceof Error ? error.message : String(error) }
  }
}

/** "Check for updates…": checks, then says what came of it; offers to restart into a downloaded version. */
export async function checkForUpdatesFromMenu(): Promise<void> {
  const report = updateReport(await checkForUpdates(), app.getVersion())
  const options = {
    type: report.type,
    message: report.message,
    detail: report.detail,
    buttons: report.restart ? ['Restart now', 'Later'] : ['OK'],
    defaultId: 0
  }
  const win = BrowserWindow.getFocusedWindow()
  const { response } = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options)
  if (report.restart && response === 0 && updater) (await updater).quitAndInstall()
}

/**
 * A quiet check some seconds after start (in a package; nothing is read before then): without a feed it stops at the
 * settings; a downloaded update installs on quit.
 */
export function scheduleUpdateCheck(): void {
  if (!app.isPackaged) return
  setTimeout(() => void checkForUpdates(), FIRST_CHECK_DELAY_MS).unref()
}
