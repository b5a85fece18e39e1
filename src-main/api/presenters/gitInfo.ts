import type { GitConnection, GitInfo, GitProgress } from '../../../src-shared/schemas/git'
import type { GitConnectionRow } from '../../storage/repositories/gitConnectionRepository'
import type { GitSyncRow } from '../../storage/repositories/gitSyncRepository'

/** A commit's web page: the request's repoCommitURL plus the id, else the known hosts' commit pages. */
export function commitUrlOf(row: Pick<GitSyncRow, 'url' | 'provider' | 'commit_url'>, commit: string): string | undefined {
  if (row.commit_url) return `${row.commit_url}${commit}`
  if (!/^https?:\/\//i.test(row.url)) return undefined
  const repo = row.url.replace(/\/+$/, '').replace(/\.git$/, '')
  if (row.provider === 'github') return `${repo}/commit/${commit}`
  if (row.provider === 'gitlab') return `${repo}/-/commit/${commit}`
  return undefined
}

const STATES: Record<GitSyncRow['status'], GitInfo['operation']['state']> = {
  pending: 'running',
  running: 'running',
  succeeded: 'success',
  // An event older than the last one applied: nothing to do, done.
  skipped: 'success',
  failed: 'failure'
}

/** The space's Git sync state in the wire shape. Rows hold credential-free URLs only. */
export function presentGitInfo(row: GitSyncRow, connected: boolean, progress?: GitProgress): GitInfo {
  const operation: GitInfo['operation'] = {
    state: STATES[row.status],
    direction: row.operation,
    startedAt: row.started_at ?? row.updated_at
  }
  if (row.finished_at) operation.endedAt = row.finished_at
  if (row.error) operation.error = row.error
  const out: GitInfo = {
    repoName: row.repo_name,
    installationProvider: row.provider as GitInfo['installationProvider'],
    installationId: row.space_id,
    installationStatus: connected ? 'active' : 'pending',
    url: row.url,
    updatedAt: row.updated_at,
    ref: row.ref,
    operation,
    status: row.status
  }
  if (row.integration) out.integration = row.integration
  if (row.error) out.error = row.error
  if (row.commit_oid) {
    out.commit = row.commit_oid
    const url = commitUrlOf(row, row.commit_oid)
    if (url) out.commitURL = url
  }
  if (row.revision_id) out.revision = row.revision_id
  if (row.started_at) out.startedAt = row.started_at
  if (row.finished_at) out.finishedAt = row.finished_at
  if (progress && row.status === 'running') out.progress = progress
  return out
}

/** A space's Git connection: never its credentials, only whether it has some. */
export function presentGitConnection(row: GitConnectionRow): GitConnection {
  const out: GitConnection = {
    url: row.url,
    ref: row.ref,
    repoProjectDirectory: row.project,
    credentials: row.credentials !== null,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  }
  if (row.commit_url) out.repoCommitURL = row.commit_url
  return out
}
