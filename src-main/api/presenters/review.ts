import type { Role } from '../../../src-shared/schemas/common'
import type { Comment } from '../../../src-shared/schemas/comments'
import type { ChangeRequestReview, RequestedReviewer } from '../../../src-shared/schemas/reviews'
import { commentRepository } from '../../storage/repositories/commentRepository'
import type { ReviewRow, RequestedReviewerRow } from '../../storage/repositories/reviewRepository'
import type { SpaceRow } from '../../storage/repositories/spaceRepository'
import { userRepository } from '../../storage/repositories/userRepository'
import type { Ctx } from '../../workspace/context'
import { atLeast } from '../policies/roles'
import { SPACE_ACTIONS } from '../policies/space'
import { presentComments } from './comment'
import { presentUser } from './user'

export interface ReviewPresentOptions {
  /** The caller's role on the space: a review's comment is shown to those who may read comments. */
  role: Role | null
  /** The comment's body: `{markdown}` (default) or `{document}`. */
  format?: 'markdown' | 'document'
}

/** Reviews of one change request; their users, and their comments, are loaded in one query each. */
export function presentReviews(rows: ReviewRow[], space: SpaceRow, ctx: Ctx, options: ReviewPresentOptions): ChangeRequestReview[] {
  const users = ctx.repo(userRepository).getMany(rows.flatMap((r) => (r.requested_by ? [r.reviewer_id, r.requested_by] : [r.reviewer_id])))
  const comments = new Map<string, Comment>()
  const commentIds = rows.flatMap((r) => (r.comment_id ? [r.comment_id] : []))
  if (commentIds.length && atLeast(options.role, SPACE_ACTIONS.comment)) {
    const found = ctx.repo(commentRepository).getMany(space.id, commentIds)
    for (const c of presentComments(found, ctx, { space, role: options.role, format: options.format })) comments.set(c.id, c)
  }
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
    const comment = row.comment_id ? comments.get(row.comment_id) : undefined
    if (comment) review.comment = comment
    return review
  })
}

export function presentReview(row: ReviewRow, space: SpaceRow, ctx: Ctx, options: ReviewPresentOptions): ChangeRequestReview {
  return presentReviews([row], space, ctx, options)[0]!
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
