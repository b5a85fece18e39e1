import type { Db } from '../database'

export interface GitConnectionRow {
  space_id: string
  url: string
  ref: string
  project: string
  commit_url: string | null
  /** JSON {seal, data}: the sealed credentials; never answered. */
  credentials: string | null
  created_at: string
  updated_at: string
  updated_by: string | null
}

export type GitConnectionInput = Pick<GitConnectionRow, 'url' | 'ref' | 'project' | 'commit_url' | 'credentials'>

export function gitConnectionRepository(db: Db) {
  const byId = db.prepare<[string], GitConnectionRow>('SELECT * FROM git_connections WHERE space_id = ?')
  const upsert = db.prepare(
    `INSERT INTO git_connections (space_id, url, ref, project, commit_url, credentials, created_at, updated_at, updated_by)
     VALUES (@space_id, @url, @ref, @project, @commit_url, @credentials, @now, @now, @updated_by)
     ON CONFLICT (space_id) DO UPDATE SET url = excluded.url, ref = excluded.ref, project = excluded.project,
       commit_url = excluded.commit_url, credentials = excluded.credentials, updated_at = excluded.updated_at,
       updated_by = excluded.updated_by`
  )
  const remove = db.prepare('DELETE FROM git_connections WHERE space_id = ?')
  return {
    get: (spaceId: string) => byId.get(spaceId),
    put(spaceId: string, input: GitConnectionInput, actorId: string, now: string): GitConnectionRow {
      upsert.run({ space_id: spaceId, ...input, now, updated_by: actorId })
      return byId.get(spaceId)!
    },
    remove: (spaceId: string) => remove.run(spaceId).changes > 0
  }
}
