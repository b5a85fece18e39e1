import type { Db } from '../database'
import { newId } from '../ids'
import { updateById } from './patch'
import { jsonIds } from './jsonIds'
import { upsertSql } from './upsert'

export interface ChangeRequestRow {
  seq: number
  id: string
  space_id: string
  number: number
  status: string
  subject: string
  created_by: string | null
  created_at: string
  updated_at: string
  revision_id: string
  revision_initial: string
  revision_merged_ancestor: string | null
  revision_merged: string | null
  comments_open: number
  /** Who merged past unmet merge rules (allowed to bypass them), and those rules' messages as JSON. */
  merge_bypassed_by: string | null
  merge_bypassed_rules: string | null
  /** 1 once a connected workspace's copy pulled the change request's reviews (sync/mirror.ts). */
  reviews_copied: number
}

export type ChangeRequestPatch = Partial<
  Pick<
    ChangeRequestRow,
    | 'status'
    | 'subject'
    | 'updated_at'
    | 'revision_id'
    | 'revision_merged_ancestor'
    | 'revision_merged'
    | 'merge_bypassed_by'
    | 'merge_bypassed_rules'
  >
>

/** A change request's row as another Quire or the hosted service has it (a connected workspace's copy). */
export type MirroredChangeRequest = Omit<ChangeRequestRow, 'seq' | 'merge_bypassed_by' | 'merge_bypassed_rules' | 'reviews_copied'>

const MIRRORED_COLUMNS = [
  'space_id',
  'number',
  'status',
  'subject',
  'created_by',
  'created_at',
  'updated_at',
  'revision_id',
  'revision_initial',
  'revision_merged_ancestor',
  'revision_merged',
  'comments_open'
] as const

export function changeRequestRepository(db: Db) {
  const byId = db.prepare<[string, string], ChangeRequestRow>('SELECT * FROM change_requests WHERE space_id = ? AND id = ?')
  const markReviewsCopied = db.prepare('UPDATE change_requests SET reviews_copied = 1 WHERE id = ? AND reviews_copied = 0')
  const byNumber = db.prepare<[string, number], ChangeRequestRow>('SELECT * FROM change_requests WHERE space_id = ? AND number = ?')
  const nextNumber = db.prepare<[string], number>('SELECT coalesce(max(number), 0) + 1 FROM change_requests WHERE space_id = ?').pluck()
  const insert = db.prepare(
    `INSERT INTO change_requests (id, space_id, number, status, subject, created_by, created_at, updated_at, revision_id, revision_initial)
     VALUES (@id, @space_id, @number, 'draft', @subject, @created_by, @created_at, @created_at, @revision, @revision)`
  )
  const list = db.prepare<[string, string, number, number], ChangeRequestRow>(
    'SELECT * FROM change_requests WHERE space_id = ? AND status = ? AND seq < ? ORDER BY seq DESC LIMIT ?'
  )
  const count = db.prepare<[string, string], number>('SELECT count(*) FROM change_requests WHERE space_id = ? AND status = ?').pluck()
  const listByContributor = db.prepare<[string, string, string, number, number], ChangeRequestRow>(
    `SELECT cr.* FROM change_requests cr JOIN change_request_contributors c ON c.change_request_id = cr.id
     WHERE cr.space_id = ? AND cr.status = ? AND c.user_id = ? AND cr.seq < ? ORDER BY cr.seq DESC LIMIT ?`
  )
  const countByContributor = db
    .prepare<[string, string, string], number>(
      `SELECT count(*) FROM change_requests cr JOIN change_request_contributors c ON c.change_request_id = cr.id
     WHERE cr.space_id = ? AND cr.status = ? AND c.user_id = ?`
    )
    .pluck()
  const addContributor = db.prepare('INSERT OR IGNORE INTO change_request_contributors (change_request_id, user_id) VALUES (?, ?)')
  const live = db.prepare<[string], { id: string; number: number }>(
    "SELECT id, number FROM change_requests WHERE space_id = ? AND status IN ('open', 'draft')"
  )
  const upsertMirrored = db.prepare(upsertSql('change_requests', ['id'], ['id', ...MIRRORED_COLUMNS], MIRRORED_COLUMNS))
  // Reactions name their comment or reply without a foreign key, so they go explicitly.
  const removeReactions = db.prepare(
    `DELETE FROM reactions WHERE subject_id IN (
       SELECT id FROM comments WHERE change_request_id IN (SELECT value FROM json_each(@ids))
       UNION ALL SELECT r.id FROM comment_replies r JOIN comments c ON c.id = r.comment_id WHERE c.change_request_id IN (SELECT value FROM json_each(@ids)))`
  )
  const removeMany = db.prepare('DELETE FROM change_requests WHERE id IN (SELECT value FROM json_each(?))')
  const counters = db.prepare(
    `UPDATE spaces SET
       change_requests = (SELECT count(*) FROM change_requests WHERE space_id = @space),
       change_requests_open = (SELECT count(*) FROM change_requests WHERE space_id = @space AND status = 'open'),
       change_requests_draft = (SELECT count(*) FROM change_requests WHERE space_id = @space AND status = 'draft')
     WHERE id = @space`
  )

  return {
    get: (spaceId: string, id: string) => byId.get(spaceId, id),
    /** By id, or by number when the reference is all digits. */
    find(spaceId: string, ref: string): ChangeRequestRow | undefined {
      return byId.get(spaceId, ref) ?? (/^\d+$/.test(ref) ? byNumber.get(spaceId, Number(ref)) : undefined)
    },
    create(input: { space_id: string; subject: string; created_by: string; created_at: string; revision: string }): ChangeRequestRow {
      const id = newId()
      insert.run({ ...input, id, number: nextNumber.get(input.space_id)! })
      addContributor.run(id, input.created_by)
      return byId.get(input.space_id, id)!
    },
    update: (id: string, patch: ChangeRequestPatch) => updateById(db, 'change_requests', id, patch),
    list(spaceId: string, status: string, contributor: string | undefined, beforeSeq: number, limit: number) {
      return contributor
        ? listByContributor.all(spaceId, status, contributor, beforeSeq, limit)
        : list.all(spaceId, status, beforeSeq, limit)
    },
    count: (spaceId: string, status: string, contributor: string | undefined) =>
      contributor ? countByContributor.get(spaceId, status, contributor)! : count.get(spaceId, status)!,
    addContributor: (id: string, userId: string) => void addContributor.run(id, userId),
    /** Id and number of the space's open and draft change requests. */
    liveInSpace: (spaceId: string) => live.all(spaceId),
    /**
     * A change request under its id elsewhere (a connected workspace's server): added, or its row brought up to
     * date. A row that already holds these values is not written.
     */
    upsertMirrored: (row: MirroredChangeRequest) => void upsertMirrored.run(row),
    /** A connected workspace's copy holds the change request's reviews from now on (written once). */
    markReviewsCopied: (id: string) => void markReviewsCopied.run(id),
    /** Removes change requests for good, with their contributors, comments and the reactions to those (their revisions stay). */
    removeMany(ids: string[]): void {
      if (!ids.length) return
      removeReactions.run({ ids: jsonIds(ids) })
      removeMany.run(jsonIds(ids))
    },
    /** Recounts the space's change request counters (after a create or a status move). */
    refreshSpaceCounters: (spaceId: string) => void counters.run({ space: spaceId })
  }
}
