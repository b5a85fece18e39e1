import type { ChangeRequestReview, MergeStatus } from '../../api/types.ts'

/** The reviews that count now (not outdated), at most one per reviewer: the newest. */
export function currentReviews(reviews: ChangeRequestReview[]): ChangeRequestReview[] {
  const byReviewer = new Map<string, ChangeRequestReview>()
  for (const r of reviews) {
    if (r.outdated) continue
    const seen = byReviewer.get(r.reviewer.id)
    if (!seen || seen.createdAt < r.createdAt) byReviewer.set(r.reviewer.id, r)
  }
  return [...byReviewer.values()]
}

/** Reviews that came with a comment (not blank), newest first: what the review panel shows of the discussion. */
export function reviewsWithComments(
  reviews: ChangeRequestReview[]
): (ChangeRequestReview & { comment: NonNullable<ChangeRequestReview['comment']> })[] {
  return reviews
    .filter((r): r is ChangeRequestReview & { comment: NonNullable<ChangeRequestReview['comment']> } => !!r.comment?.body.markdown?.trim())
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
}

export interface MergeBlock {
  /** The merge button is off, with this reason. */
  blocked: boolean
  reason: string | null
  /** The caller may merge past the unmet rules ("Merge anyway"). */
  bypass: boolean
}

/** Whether the merge rules let the caller merge now, and the reason in words when they do not. */
export function mergeBlock(status: MergeStatus | undefined): MergeBlock {
  if (!status?.unmet.length) return { blocked: false, reason: null, bypass: false }
  const reason = `Blocked by the merge rules: ${status.unmet.map((u) => u.message).join('; ')}`
  return { blocked: !status.canBypass, reason, bypass: status.canBypass }
}
