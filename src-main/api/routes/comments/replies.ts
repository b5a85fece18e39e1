import { NoContent } from '../../../../src-shared/schemas/common'
import {
  CommentFormatQuery,
  CommentParams,
  CommentReplyCreateSchema,
  CommentReplyList,
  CommentReplyListQuery,
  CommentReplyParams,
  CommentReplySchema,
  CommentReplyUpdateSchema
} from '../../../../src-shared/schemas/comments'
import { commentRepository } from '../../../storage/repositories/commentRepository'
import type { Api } from '../../app'
import { read, write } from '../../../workspace/context'
import { decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { requireAuthor, requireDeletable } from '../../policies/comment'
import { presentReplies, presentReply } from '../../presenters/comment'
import { applyReactions, checkReactions, loadComment, loadReply } from './loaders'

const tags = ['Comments']

export default function commentReplyRoutes(app: Api) {
  app.get(
    '/v1/spaces/:spaceId/comments/:commentId/replies',
    {
      schema: {
        tags,
        summary: 'Replies to a comment, oldest first',
        params: CommentParams,
        querystring: CommentReplyListQuery,
        response: { 200: CommentReplyList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space, role, comment } = loadComment(ctx, req.params.spaceId, req.params.commentId)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [after = 0] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = ctx.repo(commentRepository).listReplies(comment.id, after, limit + 1)
        // The comment's `replies` counter is kept exact with every reply written, so it is the list's count.
        return envelope(
          rows,
          limit,
          comment.replies,
          (r) => [r.seq],
          (page) => presentReplies(page, comment, ctx, { space, role, format: req.query.format })
        )
      })
  )

  app.post(
    '/v1/spaces/:spaceId/comments/:commentId/replies',
    {
      schema: {
        tags,
        summary: 'Reply to a comment',
        params: CommentParams,
        querystring: CommentFormatQuery,
        body: CommentReplyCreateSchema,
        response: { 200: CommentReplySchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { space, role, comment } = loadComment(ctx, req.params.spaceId, req.params.commentId)
        const row = ctx.repo(commentRepository).createReply({
          comment_id: comment.id,
          body: req.body.body.markdown ?? '',
          posted_by: ctx.actor.id,
          posted_at: ctx.now
        })
        return presentReply(row, comment, ctx, { space, role, format: req.query.format })
      })
  )

  app.get(
    '/v1/spaces/:spaceId/comments/:commentId/replies/:commentReplyId',
    {
      schema: {
        tags,
        summary: 'Get a reply',
        params: CommentReplyParams,
        querystring: CommentFormatQuery,
        response: { 200: CommentReplySchema }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space, role, comment, reply } = loadReply(ctx, req.params.spaceId, req.params.commentId, req.params.commentReplyId)
        return presentReply(reply, comment, ctx, { space, role, format: req.query.format })
      })
  )

  app.put(
    '/v1/spaces/:spaceId/comments/:commentId/replies/:commentReplyId',
    {
      schema: {
        tags,
        summary: 'Edit a reply (author only) or react to it',
        params: CommentReplyParams,
        body: CommentReplyUpdateSchema,
        response: { 200: CommentReplySchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { space, role, comment, reply } = loadReply(ctx, req.params.spaceId, req.params.commentId, req.params.commentReplyId)
        const b = req.body
        if (b.body !== undefined) requireAuthor(reply, ctx.actor.id, 'reply')
        checkReactions(b)
        const comments = ctx.repo(commentRepository)
        const markdown = b.body?.markdown ?? ''
        if (b.body !== undefined && markdown !== reply.body) comments.updateReply(reply.id, { body: markdown, edited_at: ctx.now })
        applyReactions(ctx, reply.id, b)
        return presentReply(comments.getReply(comment.id, reply.id)!, comment, ctx, { space, role })
      })
  )

  app.delete(
    '/v1/spaces/:spaceId/comments/:commentId/replies/:commentReplyId',
    { schema: { tags, summary: 'Delete a reply (author or space admin)', params: CommentReplyParams, response: { 205: NoContent } } },
    async (req, reply) => {
      write(req, (ctx) => {
        const found = loadReply(ctx, req.params.spaceId, req.params.commentId, req.params.commentReplyId)
        requireDeletable(found.role, found.reply, ctx.actor.id, 'reply')
        ctx.repo(commentRepository).deleteReply(found.reply)
      })
      return reply.code(205).send()
    }
  )
}
