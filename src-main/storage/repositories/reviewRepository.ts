import type { Db } from '../database'
import { newId } from '../ids'
import { upsertSql } from './upsert'

export interface ReviewRow {
  seq: number
  id: string
  change_request_id: string
  reviewer_id: string
  requested_by: string | null
  status: string
  revision_id: string
  comment_id: string | null
  superseded: number
  created_at: string
  updated_at: string
  /** Computed: superseded, or the change request's head moved on since the review. */
  outdated: number
}

export interface RequestedReviewerRow {
  seq: number
  change_request_id: string
  user_id: string
  requested_by: string | null
  revision_id: string
  created_at: string
}

/** A review as a connected workspace's copy holds it, under the server's id. */
export type MirroredReview = Omit<ReviewRow, 'seq' | 'outdated'>
const MIRRORED_REVIEW_COLUMNS = [
  'change_request_id',
  'reviewer_id',
  'requested_by',
  'status',
  'revision_id',
  'comment_id',
  'superseded',
  'created_at',
  'updated_at'
] as const
const MIRRORED_REQUEST_COLUMNS = ['requested_by', 'revision_id', 'created_at'] as const

// A review is outdated once superseded or once its change request's head is no longer the revision reviewed.
const WITH_OUTDATED = `SELECT r.*, (r.superseded OR r.revision_id != cr.revision_id) AS outdated
  FROM change_request_reviews r JOIN change_requests cr ON cr.id = r.change_request_id`
const OUTDATED_FILTER = `(@outdated IS NULL OR (r.superseded OR r.revision_id != cr.revision_id) = @outdated)`

/** Reviews of change requests and the reviewers asked for. */
export function reviewRepository(db: Db) {
  const byId = db.prepare<[string, string], ReviewRow>(`${WITH_OUTDATED} WHERE r.change_request_id = ? AND r.id = ?`)
  const insert = db.prepare(
    `INSERT INTO change_request_reviews (id, change_request_id, reviewer_id, requested_by, status, revision_id, comment_id, created_at, updated_at)
     VALUES (@id, @change_request_id, @reviewer_id, @requested_by, @status, @revision_id, @comment_id, @now, @now)`
  )
  const supersede = db.prepare(
    'UPDATE change_request_reviews SET superseded = 1 WHERE change_request_id = ? AND reviewer_id = ? AND superseded = 0'
  )
  const list = db.prepare<{ cr: string; before: number; limit: number; outdated: number | null }, ReviewRow>(
    `${WITH_OUTDATED} WHERE r.change_request_id = @cr AND r.seq < @before AND ${OUTDATED_FILTER} ORDER BY r.seq DESC LIMIT @limit`
  )
  const count = db
    .prepare<{ cr: string; outdated: number | null }, number>(
      `SELECT count(*) FROM change_request_reviews r JOIN change_requests cr ON cr.id = r.change_request_id
     WHERE r.change_request_id = @cr AND ${OUTDATED_FILTER}`
    )
    .pluck()
  const current = db.prepare<[string], ReviewRow>(
    `${WITH_OUTDATED} WHERE r.change_request_id = ? AND r.superseded = 0 AND r.revision_id = cr.revision_id ORDER BY r.seq`
  )

  const upsertMirrored = db.prepare(
    upsertSql('change_request_reviews', ['id'], ['id', ...MIRRORED_REVIEW_COLUMNS], MIRRORED_REVIEW_COLUMNS)
  )
  const deleteNotIn = db.prepare(
    'DELETE FROM change_request_reviews WHERE change_request_id = ? AND id NOT IN (SELECT value FROM json_each(?))'
  )
  const upsertMirroredRequest = db.prepare(
    upsertSql(
      'change_request_requested_reviewers',
      ['change_request_id', 'user_id'],
      ['change_request_id', 'user_id', ...MIRRORED_REQUEST_COLUMNS],
      MIRRORED_REQUEST_COLUMNS
    )
  )
  const deleteRequestsNotIn = db.prepare(
    'DELETE FROM change_request_requested_reviewers WHERE change_request_id = ? AND user_id NOT IN (SELECT value FROM json_each(?))'
  )
  const ofComments = db.prepare<[string], { id: string; comment_id: string }>(
    'SELECT id, comment_id FROM change_request_reviews WHERE comment_id IN (SELECT value FROM json_each(?))'
  )

  const requestOf = db.prepare<[string, string], RequestedReviewerRow>(
    'SELECT * FROM change_request_requested_reviewers WHERE change_request_id = ? AND user_id = ?'
  )
  const request = db.prepare(
    `INSERT INTO change_request_requested_reviewers (change_request_id, user_id, requested_by, revision_id, created_at)
     VALUES (@cr, @user, @by, @revision, @now)
     ON CONFLICT (change_request_id, user_id) DO UPDATE SET requested_by = excluded.requested_by, revision_id = excluded.revision_id, created_at = excluded.created_at`
  )
  const unrequest = db.prepare('DELETE FROM change_request_requested_reviewers WHERE change_request_id = ? AND user_id = ?')
  const requests = db.prepare<[string, number, number], RequestedReviewerRow>(
    'SELECT * FROM change_request_requested_reviewers WHERE change_request_id = ? AND seq > ? ORDER BY seq LIMIT ?'
  )
  const allRequests = db.prepare<[string], RequestedReviewerRow>(
    'SELECT * FROM change_request_requested_reviewers WHERE change_request_id = ? ORDER BY seq'
  )
  const countRequests = db
    .prepare<[string], number>('SELECT count(*) FROM change_request_requested_reviewers WHERE change_request_id = ?')
    .pluck()

  return {
    get: (changeRequestId: string, id: string) => byId.get(changeRequestId, id),
    /**
     * Records a review: the reviewer's earlier reviews are superseded, and their pending request (if any) is
     * answered: it goes, and the review keeps who asked.
     */
    create(input: {
      change_request_id: string
      reviewer_id: string
      status: string
      revision_id: string
      comment_id: string | null
      now: string
    }): ReviewRow {
      const id = newId()
      const asked = requestOf.get(input.change_request_id, input.reviewer_id)
      supersede.run(input.change_request_id, input.reviewer_id)
      if (asked) unrequest.run(input.change_request_id, input.reviewer_id)
      insert.run({ ...input, id, requested_by: asked?.requested_by ?? null })
      return byId.get(input.change_request_id, id)!
    },
    list: (changeRequestId: string, beforeSeq: number, limit: number, outdated: boolean | undefined) =>
      list.all({ cr: changeRequestId, before: beforeSeq, limit, outdated: outdated === undefined ? null : Number(outdated) }),
    count: (changeRequestId: string, outdated: boolean | undefined) =>
      count.get({ cr: changeRequestId, outdated: outdated === undefined ? null : Number(outdated) })!,
    /**
     * A change request's reviews and requested reviewers as its server lists them (a connected workspace's copy):
     * rows are written only where they differ, new ones in the order given (oldest first), and those the server
     * no longer lists go.
     */
    mirror(changeRequestId: string, reviews: MirroredReview[], requests: Omit<RequestedReviewerRow, 'seq'>[]): void {
      deleteNotIn.run(changeRequestId, JSON.stringify(reviews.map((r) => r.id)))
      for (const review of reviews) upsertMirrored.run(review)
      deleteRequestsNotIn.run(changeRequestId, JSON.stringify(requests.map((r) => r.user_id)))
      for (const request of requests) upsertMirroredRequest.run(request)
    },
    /** The review each of these comments was posted with, by comment id (comments posted otherwise are absent). */
    ofComments(commentIds: string[]): Map<string, string> {
      if (!commentIds.length) return new Map()
      return new Map(ofComments.all(JSON.stringify(commentIds)).map((r) => [r.comment_id, r.id]))
    },
    /** The reviews that count now (not outdated), oldest first: at most one per reviewer. */
    current: (changeRequestId: string) => current.all(changeRequestId),

    /** Asks a user for a review (again: their earlier reviews are then superseded). */
    request(input: {
      change_request_id: string
      user_id: string
      requested_by: string
      revision_id: string
      now: string
    }): RequestedReviewerRow {
      supersede.run(input.change_request_id, input.user_id)
      request.run({ cr: input.change_request_id, user: input.user_id, by: input.requested_by, revision: input.revision_id, now: input.now })
      return requestOf.get(input.change_request_id, input.user_id)!
    },
    /** True when the user was asked (and is no longer). */
    unrequest: (changeRequestId: string, userId: string) => unrequest.run(changeRequestId, userId).changes > 0,
    requests: (changeRequestId: string, afterSeq: number, limit: number) => requests.all(changeRequestId, afterSeq, limit),
    allRequests: (changeRequestId: string) => allRequests.all(changeRequestId),
    countRequests: (changeRequestId: string) => countRequests.get(changeRequestId)!
  }
}
