// Workspace files as the app shows them: a backup's name as a workspace name, and what a workspace that cannot be
// opened means for the user. Pure (tested under Node).
import type { WorkspaceProblem } from '../../../../src-shared/workspaces.ts'

/** The file extensions a workspace file is picked by (a backup is `<name>-<date>.quire.db`). */
export const WORKSPACE_FILE_ACCEPT = '.db,.quire.db,.sqlite,.sqlite3,application/vnd.sqlite3'

export { workspaceNameFromFile } from '../../../../src-shared/workspaceFileName.ts'

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
