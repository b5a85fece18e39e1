// Web-content hardening for every WebContents: no navigation away from the app, no new windows, no webviews,
// no permission prompts, and a CSP header on app content.
import { app, session, shell } from 'electron'
import { contentSecurityPolicy, devServerUrl, devTools, isAppUrl } from './appContent.ts'
import { isLocalPreviewUrl } from './localScheme.ts'

function openExternally(url: string): void {
  try {
    const { protocol } = new URL(url)
    if (protocol === 'https:' || protocol === 'http:') void shell.openExternal(url)
  } catch {
    // Not a URL: ignore.
  }
}

export function hardenWebContents(): void {
  // One permission only: the app may write text to the clipboard ("Copy link"); nothing else, nowhere else.
  const allowed = (permission: string, origin: string) => permission === 'clipboard-sanitized-write' && isAppUrl(origin)
  session.defaultSession.setPermissionRequestHandler((contents, permission, callback) => callback(allowed(permission, contents.getURL())))
  session.defaultSession.setPermissionCheckHandler((contents, permission) => allowed(permission, contents?.getURL() ?? ''))

  // A file:// page gets no response headers; there the <meta> CSP in index.html applies.
  if (devServerUrl) {
    session.defaultSession.webRequest.onHeadersReceived({ urls: [`${new URL(devServerUrl).origin}/*`] }, (details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy] } })
    })
  }

  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event) => {
      // A preview window may follow the site's own links; the app window only ever shows the app.
      if (isLocalPreviewUrl(contents.getURL()) && isLocalPreviewUrl(event.url)) return
      if (!isAppUrl(event.url)) {
        event.preventDefault()
        openExternally(event.url)
      }
    })
    contents.on('will-attach-webview', (event) => event.preventDefault())
    contents.setWindowOpenHandler(({ url }) => {
      // "Open preview": the local published site in a window of its own, with no preload and no API access.
      if (isLocalPreviewUrl(url)) {
        return {
          action: 'allow',
          overrideBrowserWindowOptions: {
            width: 1200,
            height: 800,
            autoHideMenuBar: true,
            webPreferences: {
              preload: undefined,
              contextIsolation: true,
              sandbox: true,
              nodeIntegration: false,
              webSecurity: true,
              devTools
            }
          }
        }
      }
      openExternally(url)
      return { action: 'deny' }
    })
  })
}
