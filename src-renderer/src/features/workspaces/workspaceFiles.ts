// Workspace files as the app shows them: a backup's name as a workspace name, and what a workspace that cannot be
// opened means for the user. Pure (tested under Node).
import type { WorkspaceProblem } from '../../../../src-shared/workspaces.ts'

/** The file extensions a workspace file is picked by (a backup is `<name>-<date>.quire.db`). */
export const WORKSPACE_FILE_ACCEPT = '.db,.quire.db,.sqlite,.sqlite3,application/vnd.sqlite3'

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

/** A short label for the problem (a badge). */
export function problemLabel(problem: Pick<WorkspaceProblem, 'kind'>): string {
  switch (problem.kind) {
    case 'newer':
      return 'Newer version'
    case 'damaged':
      return 'Damaged'
    case 'not-workspace':
      return 'Not a workspace'
    case 'unreadable':
      return 'Cannot be read'
    default:
      return 'Cannot open'
  }
}

/** What the user can do about it, in a sentence. */
export function problemAdvice(problem: Pick<WorkspaceProblem, 'kind'>): string {
  return problem.kind === 'newer'
    ? 'It was written by a newer version of Quire and is left as it is: open it with that version. Remove it here only if you no longer need it.'
    : 'Restore it from a backup with “Open workspace file…”, or remove it.'
}
