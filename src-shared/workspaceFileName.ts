// The name a workspace file opens as, shared by "Open workspace file…" (renderer) and a file the desktop app is
// asked to open (double-click, command line). Pure.

/**
 * A name for the workspace a file opens as: `product-handbook-2026-03-01.quire.db` → `Product handbook` (the
 * extension and a backup's date dropped, dashes as spaces), at most 64 characters.
 */
export function workspaceNameFromFile(filename: string): string {
  const base = filename
    .replace(/^.*[\\/]/, '')
    .replace(/(\.quire)?\.(db|sqlite3?)$/i, '')
    .replace(/[-_ ]\d{4}-\d{2}-\d{2}$/, '')
    .replace(/[-_]+/g, ' ')
    .trim()
  const name = base.charAt(0).toUpperCase() + base.slice(1)
  return [...name].slice(0, 64).join('').trim()
}
