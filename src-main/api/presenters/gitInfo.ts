import type { GitInfo } from '../../../src-shared/schemas/git'
import type { GitSyncRow } from '../../storage/repositories/gitSyncRepository'

/** The space's Git sync state in the wire shape. Rows hold credential-free URLs only. */
export function presentGitInfo(row: GitSyncRow): GitInfo {
  const out: GitInfo = {
    repoName: row.repo_name,
    installationProvider: row.provider as GitInfo['installationProvider'],
    url: row.url,
    updatedAt: row.updated_at,
    ref: row.ref,
    operation: row.operation,
    status: row.status
  }
  if (row.integration) out.integration = row.integration
  if (row.error) out.error = row.error
  if (row.commit_oid) out.commit = row.commit_oid
  if (row.revision_id) out.revision = row.revision_id
  return out
}
