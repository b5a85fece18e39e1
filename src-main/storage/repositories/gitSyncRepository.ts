import type { Db } from '../database'

export type GitOperation = 'import' | 'export'
export type GitSyncStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped'

export interface GitSyncRow {
  space_id: string
  operation: GitOperation
  status: GitSyncStatus
  url: string
  ref: string
  repo_name: string
  provider: string
  integration: string | null
  error: string | null
  commit_oid: string | null
  synced_url: string | null
  synced_ref: string | null
  revision_id: string | null
  last_timestamp: string | null
  updated_at: string
  started_at: string | null
  finished_at: string | null
  /** Prefix of the commit's web page (repoCommitURL), when the request or the connection named one. */
  commit_url: string | null
}

export interface GitSyncRequest {
  operation: GitOperation
  url: string
  ref: string
  repoName: string
  provider: string
  integration: string | null
  commitUrl?: string | null
}

/** The space's `gitSync` member (spaces.git_sync, JSON), rewritten after each successful sync. */
export interface SpaceGitSync {
  repoName: string
  installationProvider: string
  integration?: string
  url: string
  updatedAt: string
}

export function gitSyncRepository(db: Db) {
  const byId = db.prepare<[string], GitSyncRow>('SELECT * FROM git_sync_states WHERE space_id = ?')
  const upsertRequest = db.prepare(
    `INSERT INTO git_sync_states (space_id, operation, status, url, ref, repo_name, provider, integration, commit_url, updated_at)
     VALUES (@space_id, @operation, 'pending', @url, @ref, @repo_name, @provider, @integration, @commit_url, @updated_at)
     ON CONFLICT (space_id) DO UPDATE SET operation = excluded.operation, status = 'pending', error = NULL, url = excluded.url,
       ref = excluded.ref, repo_name = excluded.repo_name, provider = excluded.provider, integration = excluded.integration,
       commit_url = excluded.commit_url, started_at = NULL, finished_at = NULL, updated_at = excluded.updated_at`
  )
  // A job running stamps started_at; an outcome stamps finished_at (pending while more jobs wait: not finished).
  const setStatus = db.prepare(
    `UPDATE git_sync_states SET status = @status, error = @error, updated_at = @now,
       started_at = CASE WHEN @status = 'running' THEN @now ELSE started_at END,
       finished_at = CASE WHEN @status IN ('succeeded', 'failed', 'skipped') THEN @now ELSE NULL END
     WHERE space_id = @space_id`
  )
  const setSynced = db.prepare(
    `UPDATE git_sync_states SET status = @status, error = NULL, commit_oid = @commit_oid, synced_url = @url, synced_ref = @ref,
       revision_id = coalesce(@revision_id, revision_id),
       last_timestamp = CASE WHEN last_timestamp IS NULL OR last_timestamp < @timestamp THEN @timestamp ELSE last_timestamp END,
       finished_at = CASE WHEN @status IN ('succeeded', 'failed', 'skipped') THEN @updated_at ELSE NULL END,
       updated_at = @updated_at
     WHERE space_id = @space_id`
  )
  const interrupt = db.prepare(
    "UPDATE git_sync_states SET status = 'failed', error = @message, updated_at = @now, finished_at = @now WHERE status IN ('pending', 'running')"
  )
  const setSpaceGitSync = db.prepare('UPDATE spaces SET git_sync = ? WHERE id = ?')

  return {
    get: (spaceId: string) => byId.get(spaceId),
    /** A new request: the row shows it as pending (the previous sync's commit and timestamp stay). */
    request(spaceId: string, input: GitSyncRequest, now: string): void {
      upsertRequest.run({
        space_id: spaceId,
        operation: input.operation,
        url: input.url,
        ref: input.ref,
        repo_name: input.repoName,
        provider: input.provider,
        integration: input.integration,
        commit_url: input.commitUrl ?? null,
        updated_at: now
      })
    },
    setStatus(spaceId: string, status: GitSyncStatus, error: string | null, now: string): void {
      setStatus.run({ status, error, now, space_id: spaceId })
    },
    /** A successful sync: the commit the space is now in step with, and the event time it applied. */
    synced(
      spaceId: string,
      input: { status: GitSyncStatus; commit: string | null; url: string; ref: string; revisionId: string | null; timestamp: string },
      now: string
    ): void {
      setSynced.run({
        space_id: spaceId,
        status: input.status,
        commit_oid: input.commit,
        url: input.url,
        ref: input.ref,
        revision_id: input.revisionId,
        timestamp: input.timestamp,
        updated_at: now
      })
    },
    /** Jobs live in memory: after a restart the ones that never finished are failed, not left pending. */
    interruptAll(message: string, now: string): number {
      return interrupt.run({ message, now }).changes
    },
    setSpaceGitSync(spaceId: string, value: SpaceGitSync): void {
      setSpaceGitSync.run(JSON.stringify(value), spaceId)
    }
  }
}
