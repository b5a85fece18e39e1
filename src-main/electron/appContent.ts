// Where the app's own content lives, and whether a URL is it. Used by the IPC sender check and the
// navigation guards, so both agree on what "the app" is.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { app } from 'electron'
import { devServerUrlFor, devToolsAllowed, type BuildKind } from './devMode.ts'

/** `electron-vite dev` makes this a development build; `electron-vite build` (and so every package) does not. */
export const buildKind: BuildKind = { development: import.meta.env?.DEV === true, packaged: app.isPackaged }

/** Set by `electron-vite dev`; ignored by every other build. */
export const devServerUrl: string | undefined = devServerUrlFor(process.env, buildKind)

/** Whether DevTools may open (a development build only). */
export const devTools = devToolsAllowed(buildKind)

export const rendererIndexFile = join(import.meta.dirname, '../renderer/index.html')
export const preloadFile = join(import.meta.dirname, '../preload/index.cjs')

export function isAppUrl(raw: string): boolean {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return false
  }
  if (devServerUrl) return url.origin === new URL(devServerUrl).origin
  return url.protocol === 'file:' && fileURLToPath(url.href.split(/[?#]/, 1)[0]!) === rendererIndexFile
}

const strictCsp = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // quire://local serves file downloads (images in previews) from the embedded backend (localScheme.ts).
  "img-src 'self' data: blob: quire:",
  "font-src 'self'",
  "connect-src 'self'",
  // The site's draft preview shows in a frame (served by quire://local).
  'frame-src quire:',
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'"
].join('; ')

/** The dev server needs React Refresh's inline preamble, CSS HMR's <style> tags and a websocket; builds never. */
export const contentSecurityPolicy = devServerUrl
  ? strictCsp
      .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
      .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
      .replace("connect-src 'self'", "connect-src 'self' ws:")
  : strictCsp
