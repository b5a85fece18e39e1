import type { Role } from '../../../src-shared/schemas/common'
import type { Comment, CommentReaction, CommentReply } from '../../../src-shared/schemas/comments'
import { markdownToDocument } from '../../content/documentModel'
import { loadPagesWithPaths } from '../../content/revisions'
import { commentRepository, type CommentReplyRow, type CommentRow } from '../../storage/repositories/commentRepository'
import { reactionRepository, type ReactionRow } from '../../storage/repositories/reactionRepository'
import { reviewRepository } from '../../storage/repositories/reviewRepository'
import type { SpaceRow } from '../../storage/repositories/spaceRepository'
import { userRepository, type UserRow } from '../../storage/repositories/userRepository'
import type { Ctx } from '../../workspace/context'
import { commentPermissions } from '../policies/comment'
import { presentUser } from './user'

export interface CommentPresentOptions {
  space: SpaceRow
  /** The caller's role on the space (permissions). */
  role: Role | null
  format?: 'markdown' | 'document'
}

function presentBody(markdown: string, format: CommentPresentOptions['format']): Comment['body'] {
  return format === 'document' ? { document: markdownToDocument(markdown) as unknown as Record<string, unknown> } : { markdown }
}

/** Reactions grouped by emoji, in the order each emoji was first used; users oldest first. */
function presentReactions(rows: ReactionRow[], users: Map<string, UserRow>, ctx: Ctx): CommentReaction[] {
  const byEmoji = new Map<string, CommentReaction>()
  for (const row of rows) {
    const user = users.get(row.user_id)
    if (!user) continue
    let reaction = byEmoji.get(row.emoji)
    if (!reaction) byEmoji.set(row.emoji, (reaction = { emoji: row.emoji, count: 0, users: [] }))
    reaction.count++
    reaction.users.push({ user: presentUser(user, ctx), reactedAt: row.reacted_at })
  }
  return [...byEmoji.values()]
}

/** The rows' authors, resolvers, repliers (`others`) and reacting users, and the reactions themselves: one query each. */
function loadPeople(ctx: Ctx, subjects: { id: string; posted_by: string | null; resolved_by?: string | null }[], others: string[] = []) {
  const reactions = ctx.repo(reactionRepository).forSubjects(subjects.map((s) => s.id))
  const ids: string[] = [...others]
  for (const s of subjects) {
    if (s.posted_by) ids.push(s.posted_by)
    if (s.resolved_by) ids.push(s.resolved_by)
  }
  for (const rows of reactions.values()) for (const r of rows) ids.push(r.user_id)
  return { reactions, users: ctx.repo(userRepository).getMany(ids) }
}

/**
 * Comments of one space for the caller. Users, reactions, change request heads and target pages are each
 * loaded in one query for the whole list.
 */
export function presentComments(rows: CommentRow[], ctx: Ctx, options: CommentPresentOptions): Comment[] {
  const { space } = options
  const comments = ctx.repo(commentRepository)
  const repliers = comments.repliers(rows.filter((r) => r.replies > 0).map((r) => r.id))
  const { reactions, users } = loadPeople(
    ctx,
    rows,
    [...repliers.values()].flat().map((r) => r.user_id)
  )

  // A page target is shown as the content the comment belongs to holds it now (the primary content, or the
  // change request's head); it is `outdated` when its document changed since the comment was posted, or it is gone.
  const heads = comments.changeRequestHeads(rows.map((r) => r.change_request_id).filter((id): id is string => !!id))
  const currentOf = (row: CommentRow) => (row.change_request_id ? heads.get(row.change_request_id) : space.revision_id) ?? null
  const pairs: [string, string][] = []
  for (const row of rows) {
    if (!row.page_id) continue
    const current = currentOf(row)
    if (current) pairs.push([current, row.page_id])
    if (row.revision_id && row.revision_id !== current) pairs.push([row.revision_id, row.page_id])
  }
  const pages = loadPagesWithPaths(ctx.db, pairs)
  const reviews = ctx.repo(reviewRepository).ofComments(rows.filter((r) => r.change_request_id).map((r) => r.id))

  return rows.map((row) => {
    const target: Comment['target'] = { space: row.space_id }
    if (row.page_id) {
      const current = currentOf(row)
      const now = current ? pages.get(`${current}/${row.page_id}`) : undefined
      const then = row.revision_id ? pages.get(`${row.revision_id}/${row.page_id}`) : undefined
      const shown = now ?? then
      if (shown) {
        target.page = {
          id: row.page_id,
          title: shown.page.title,
          createdAt: shown.page.createdAt,
          updatedAt: shown.page.updatedAt,
          path: shown.path,
          outdated: !now || (!!then && then.page.documentHash !== now.page.documentHash)
        }
        if (shown.page.emoji) target.page.emoji = shown.page.emoji
        if (shown.page.props.icon) target.page.icon = shown.page.props.icon
      }
    }
    if (row.node_id) target.node = row.node_preview !== null ? { id: row.node_id, preview: row.node_preview } : { id: row.node_id }
    if (row.change_request_id) target.changeRequest = row.change_request_id
    const review = reviews.get(row.id)
    if (review) target.review = review
    if (row.revision_id) target.revision = row.revision_id

    const comment: Comment = {
      object: 'comment',
      id: row.id,
      postedAt: row.posted_at,
      reactions: presentReactions(reactions.get(row.id) ?? [], users, ctx),
      replies: row.replies,
      repliers: (repliers.get(row.id) ?? []).flatMap((r) => {
        const user = users.get(r.user_id)
        return user ? [{ user: presentUser(user, ctx), count: r.count, updatedAt: r.updated_at }] : []
      }),
      body: presentBody(row.body, options.format),
      target,
      urls: { location: ctx.url(`/v1/spaces/${row.space_id}/comments/${row.id}`) },
      permissions: commentPermissions(options.role, row, ctx.actor.id),
      status: row.resolved_at ? 'resolved' : 'open'
    }
    const author = row.posted_by ? users.get(row.posted_by) : undefined
    if (author) comment.postedBy = presentUser(author, ctx)
    if (row.edited_at) comment.editedAt = row.edited_at
    if (row.resolved_at) {
      comment.resolvedAt = row.resolved_at
      const resolver = row.resolved_by ? users.get(row.resolved_by) : undefined
      if (resolver) comment.resolvedBy = presentUser(resolver, ctx)
    }
    return comment
  })
}

export function presentComment(row: CommentRow, ctx: Ctx, options: CommentPresentOptions): Comment {
  return presentComments([row], ctx, options)[0]!
}

export function presentReplies(rows: CommentReplyRow[], comment: CommentRow, ctx: Ctx, options: CommentPresentOptions): CommentReply[] {
  const { reactions, users } = loadPeople(ctx, rows)
  return rows.map((row) => {
    const reply: CommentReply = {
      object: 'comment-reply',
      id: row.id,
      postedAt: row.posted_at,
      reactions: presentReactions(reactions.get(row.id) ?? [], users, ctx),
      body: presentBody(row.body, options.format),
      urls: { location: ctx.url(`/v1/spaces/${comment.space_id}/comments/${comment.id}/replies/${row.id}`) },
      permissions: commentPermissions(options.role, row, ctx.actor.id)
    }
    const author = row.posted_by ? users.get(row.posted_by) : undefined
    if (author) reply.postedBy = presentUser(author, ctx)
    if (row.edited_at) reply.editedAt = row.edited_at
    return reply
  })
}

export function presentReply(row: CommentReplyRow, comment: CommentRow, ctx: Ctx, options: CommentPresentOptions): CommentReply {
  return presentReplies([row], comment, ctx, options)[0]!
}
