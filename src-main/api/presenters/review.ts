import type { ChangeRequestReview, RequestedReviewer } from '../../../src-shared/schemas/reviews'
import type { ReviewRow, RequestedReviewerRow } from '../../storage/repositories/reviewRepository'
import type { SpaceRow } from '../../storage/repositories/spaceRepository'
import { userRepository } from '../../storage/repositories/userRepository'
import type { Ctx } from '../../workspace/context'
import { presentUser } from './user'

/** Reviews of one change request; their users are loaded in one query. */
export function presentReviews(rows: ReviewRow[], space: SpaceRow, ctx: Ctx): ChangeRequestReview[] {
  const users = ctx.repo(userRepository).getMany(rows.flatMap((r) => (r.requested_by ? [r.reviewer_id, r.requested_by] : [r.reviewer_id])))
  return rows.map((row) => {
    const review: ChangeRequestReview = {
      object: 'change-request-review',
      id: row.id,
      revision: row.revision_id,
      reviewer: presentUser(users.get(row.reviewer_id)!, ctx),
      status: row.status as ChangeRequestReview['status'],
      outdated: !!row.outdated,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      urls: { location: ctx.url(`/v1/spaces/${space.id}/change-requests/${row.change_request_id}/reviews/${row.id}`) }
    }
    const requester = row.requested_by ? users.get(row.requested_by) : undefined
    if (requester) review.requestedBy = presentUser(requester, ctx)
    return review
  })
}

export function presentReview(row: ReviewRow, space: SpaceRow, ctx: Ctx): ChangeRequestReview {
  return presentReviews([row], space, ctx)[0]!
}

/**
 * Reviewers asked for. A request whose requester is gone (their account deleted) shows the reviewer as the
 * requester: the published model requires one.
 */
export function presentRequestedReviewers(rows: RequestedReviewerRow[], ctx: Ctx): RequestedReviewer[] {
  const users = ctx.repo(userRepository).getMany(rows.flatMap((r) => (r.requested_by ? [r.user_id, r.requested_by] : [r.user_id])))
  return rows.map((row) => {
    const user = presentUser(users.get(row.user_id)!, ctx)
    const requester = row.requested_by ? users.get(row.requested_by) : undefined
    return {
      object: 'change-request-requested-reviewer',
      kind: 'user',
      user,
      revision: row.revision_id,
      requestedBy: requester ? presentUser(requester, ctx) : user,
      createdAt: row.created_at
    }
  })
}
