import type { Role } from '../../../../src-shared/schemas/common'
import { commentRepository, type CommentReplyRow, type CommentRow } from '../../../storage/repositories/commentRepository'
import { reactionRepository } from '../../../storage/repositories/reactionRepository'
import type { SpaceRow } from '../../../storage/repositories/spaceRepository'
import type { Ctx } from '../../../workspace/context'
import { badRequest, notFound } from '../../../base/errors'
import { loadSpace } from '../spaces/loaders'

/** A space whose discussions the caller may read and take part in (`comment` role; 404/403 otherwise). */
export function loadDiscussions(ctx: Ctx, spaceId: string): { space: SpaceRow; role: Role } {
  // Reading and taking part need the same role (COMMENT_ACTIONS): the space's `comment` permission.
  return loadSpace(ctx, spaceId, 'comment')
}

export function loadComment(ctx: Ctx, spaceId: string, commentId: string): { space: SpaceRow; role: Role; comment: CommentRow } {
  const { space, role } = loadDiscussions(ctx, spaceId)
  const comment = ctx.repo(commentRepository).get(space.id, commentId)
  if (!comment) throw notFound('Comment')
  return { space, role, comment }
}

export function loadReply(
  ctx: Ctx,
  spaceId: string,
  commentId: string,
  replyId: string
): { space: SpaceRow; role: Role; comment: CommentRow; reply: CommentReplyRow } {
  const found = loadComment(ctx, spaceId, commentId)
  const reply = ctx.repo(commentRepository).getReply(found.comment.id, replyId)
  if (!reply) throw notFound('Comment reply')
  return { ...found, reply }
}

export interface ReactionChanges {
  addedReactions?: string[]
  removedReactions?: string[]
}

/** 400 when one request both adds and removes an emoji (the outcome would depend on the order). */
export function checkReactions(changes: ReactionChanges): void {
  const added = new Set(changes.addedReactions ?? [])
  for (const emoji of changes.removedReactions ?? []) {
    if (added.has(emoji)) throw badRequest(`removedReactions: ${emoji} is also in addedReactions`)
  }
}

/** Adds and removes the caller's own reactions on a comment or reply. */
export function applyReactions(ctx: Ctx, subjectId: string, changes: ReactionChanges): void {
  const reactions = ctx.repo(reactionRepository)
  for (const emoji of changes.addedReactions ?? []) reactions.add(subjectId, emoji, ctx.actor.id, ctx.now)
  for (const emoji of changes.removedReactions ?? []) reactions.remove(subjectId, emoji, ctx.actor.id)
}
