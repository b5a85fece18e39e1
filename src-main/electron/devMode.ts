// What only a development build may do. Plain Node (no 'electron' import), so the rule is tested under Node.

/** How the running app was built: `electron-vite dev` (development) or a build, and whether it is an installed package. */
export interface BuildKind {
  development: boolean
  packaged: boolean
}

/**
 * The app content comes from `ELECTRON_RENDERER_URL` (the dev server) only in a development build that is not
 * packaged: a built app that honoured it would load any origin someone set in its environment, with the IPC
 * bridge and its workspaces.
 */
export function devServerUrlFor(env: Record<string, string | undefined>, build: BuildKind): string | undefined {
  return build.development && !build.packaged ? env.ELECTRON_RENDERER_URL || undefined : undefined
}

/** DevTools (the menu item, the shortcut, the webPreferences switch) only in a development build. */
export function devToolsAllowed(build: BuildKind): boolean {
  return build.development && !build.packaged
}
