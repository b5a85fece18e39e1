import { Menu, type MenuItemConstructorOptions } from 'electron'

/**
 * The native menu: standard roles give the usual shortcuts (copy/paste, undo, zoom, quit) per platform. The View
 * menu offers DevTools (and its shortcut) only where `devTools` is allowed: a development build.
 */
export function installMenu({ devTools }: { devTools: boolean }): void {
  const isMac = process.platform === 'darwin'
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
    ...(isMac ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ role: 'about' }] }
  ]
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))
}
