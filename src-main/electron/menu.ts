import { Menu, type MenuItemConstructorOptions } from 'electron'

/**
 * The native menu: standard roles give the usual shortcuts (copy/paste, undo, zoom, quit) per platform. The View
 * menu offers DevTools (and its shortcut) only where `devTools` is allowed: a development build. "Check for
 * updates…" sits in the app menu on macOS and in Help elsewhere.
 */
export function installMenu({ devTools, checkForUpdates }: { devTools: boolean; checkForUpdates: () => void }): void {
  const isMac = process.platform === 'darwin'
  const updates: MenuItemConstructorOptions = { label: isMac ? 'Check for Updates…' : 'Check for updates…', click: checkForUpdates }
  const appMenu: MenuItemConstructorOptions = {
    role: 'appMenu',
    submenu: [
      { role: 'about' },
      updates,
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { role: 'quit' }
    ]
  }
  const view: MenuItemConstructorOptions[] = [
    { role: 'reload' },
    { role: 'forceReload' },
    ...(devTools ? [{ role: 'toggleDevTools' } as const] : []),
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' }
  ]
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [appMenu] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
    { role: 'help', submenu: isMac ? [{ role: 'about' }] : [updates, { type: 'separator' }, { role: 'about' }] }
  ]
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))
}
