// How the Git screen reads a space's sync state (git/info): pure, tested beside.
import type { GitInfo, GitProgress } from '../../api/types.ts'

export const BRANCH_PREFIX = 'refs/heads/'

/** `refs/heads/main` → `main`. */
export const branchOf = (ref: string): string => (ref.startsWith(BRANCH_PREFIX) ? ref.slice(BRANCH_PREFIX.length) : ref)

/** `main` → `refs/heads/main` (a full ref is kept as it is). */
export const refOf = (branch: string): string => {
  const name = branch.trim()
  return name.startsWith('refs/') ? name : `${BRANCH_PREFIX}${name}`
}

/** True while an operation waits or runs: the screen polls and holds the sync buttons. */
export const isBusy = (info: GitInfo | null | undefined): boolean => info?.status === 'pending' || info?.status === 'running'

/** True when the latest export failed because the branch has commits the space has not imported. */
export const isNonFastForward = (info: GitInfo | null | undefined): boolean =>
  info?.status === 'failed' && info.operation.direction === 'export' && !!info.error?.startsWith('non-fast-forward')

export const STATUS_LABELS: Record<GitInfo['status'], { label: string; color: string }> = {
  pending: { label: 'Queued', color: 'gray' },
  running: { label: 'Running', color: 'blue' },
  succeeded: { label: 'Succeeded', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  skipped: { label: 'Skipped', color: 'yellow' }
}

const PHASES: Record<GitProgress['phase'], string> = {
  fetching: 'Fetching the branch',
  reading: 'Reading the repository',
  applying: 'Writing the pages',
  writing: 'Writing the files',
  pushing: 'Pushing the commit'
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** "Reading the repository · 6 files read": the phase, then the counts that have moved. */
export function progressText(operation: GitInfo['operation']['direction'], progress: GitProgress | undefined): string {
  if (!progress) return operation === 'import' ? 'Importing…' : 'Exporting…'
  const parts = [PHASES[progress.phase]]
  if (progress.filesRead) parts.push(`${count(progress.filesRead, 'file')} read`)
  if (progress.filesWritten) parts.push(`${count(progress.filesWritten, 'file')} written`)
  if (progress.pagesApplied) parts.push(`${count(progress.pagesApplied, 'page')} ${operation === 'import' ? 'applied' : 'exported'}`)
  return parts.join(' · ')
}

/** The first 7 characters of a commit id, as Git shows them. */
export const shortSha = (sha: string): string => sha.slice(0, 7)
