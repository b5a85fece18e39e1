// Remembers the window's size and position in userData/window-state.json.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { app, screen, type BrowserWindow, type Rectangle } from 'electron'

interface WindowState {
  bounds: Rectangle
  maximized: boolean
}

const defaults: WindowState = { bounds: { x: 0, y: 0, width: 1280, height: 820 }, maximized: false }
const file = () => join(app.getPath('userData'), 'window-state.json')

export function loadWindowState(): WindowState & { positioned: boolean } {
  try {
    const saved = JSON.parse(readFileSync(file(), 'utf8')) as Partial<WindowState>
    const b = saved.bounds
    if (!b || ![b.x, b.y, b.width, b.height].every(Number.isFinite)) throw new Error('no bounds')
    const bounds = { x: b.x, y: b.y, width: Math.max(b.width, 480), height: Math.max(b.height, 360) }
    // A display may have been unplugged since: only restore a position that is still on screen.
    const visible = screen
      .getAllDisplays()
      .some(
        ({ workArea: w }) =>
          bounds.x < w.x + w.width && bounds.x + bounds.width > w.x && bounds.y < w.y + w.height && bounds.y + bounds.height > w.y
      )
    return { bounds, maximized: saved.maximized === true, positioned: visible }
  } catch {
    return { ...defaults, positioned: false }
  }
}

export function trackWindowState(win: BrowserWindow): void {
  let timer: NodeJS.Timeout | undefined
  const save = () => {
    clearTimeout(timer)
    if (win.isDestroyed()) return
    const state: WindowState = { bounds: win.getNormalBounds(), maximized: win.isMaximized() }
    try {
      writeFileSync(file(), JSON.stringify(state))
    } catch {
      // Losing the window position is not worth an error dialog.
    }
  }
  const saveSoon = () => {
    clearTimeout(timer)
    timer = setTimeout(save, 500)
  }
  win.on('resize', saveSoon)
  win.on('move', saveSoon)
  win.on('close', save)
}
