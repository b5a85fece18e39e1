import { NoContent } from '../../../../src-shared/schemas/common'
import {
  CommentCreateSchema,
  CommentFormatQuery,
  CommentList,
  CommentListQuery,
  CommentParams,
  CommentSchema,
  CommentUpdateSchema
} from '../../../../src-shared/schemas/comments'
import { SpaceParams } from '../../../../src-shared/schemas/spaces'
import { loadPage } from '../../../content/revisions'
import { changeRequestRepository, type ChangeRequestRow } from '../../../storage/repositories/changeRequestRepository'
import { commentRepository, type CommentFilter } from '../../../storage/repositories/commentRepository'
import type { Api } from '../../app'
import { read, write } from '../../../workspace/context'
import { badRequest } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { requireAuthor, requireDeletable } from '../../policies/comment'
import { presentComment, presentComments } from '../../presenters/comment'
import { applyReactions, checkReactions, loadComment, loadDiscussions } from './loaders'

const tags = ['Comments']

export default function commentRoutes(app: Api) {
  app.get(
    '/v1/spaces/:spaceId/comments',
    {
      schema: {
        tags,
        summary: 'Comments of a space (its primary content, or one change request with `changeRequest`)',
        params: SpaceParams,
        querystring: CommentListQuery,
        response: { 200: CommentList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space, role } = loadDiscussions(ctx, req.params.spaceId)
        const q = req.query
        let changeRequestId: string | null = null
        if (q.changeRequest !== undefined) {
          const cr = ctx.repo(changeRequestRepository).find(space.id, q.changeRequest)
          if (!cr) throw badRequest(`changeRequest: no change request ${q.changeRequest} in this space`)
          changeRequestId = cr.id
        }
        const filter: CommentFilter = { spaceId: space.id, changeRequestId, status: q.status ?? 'all' }
        if (q.targetPage !== undefined) filter.pageId = q.targetPage
        if (q.authors !== undefined) filter.authors = [...new Set(q.authors)].sort()
        const order = q.order ?? 'desc'
        const limit = q.limit ?? DEFAULT_LIMIT
        const [after] = decodeCursor(q.page, ['integer']) ?? []
        const comments = ctx.repo(commentRepository)
        const rows = comments.list(filter, order, after, limit + 1)
        const count = cachedCount(ctx, `comments:${JSON.stringify(filter)}`, () => comments.count(filter))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => presentComments(page, ctx, { space, role, format: q.format })
        )
      })
  )

  app.post(
    '/v1/spaces/:spaceId/comments',
    {
      schema: {
        tags,
        summary: 'Post a comment on the space, a page, a block of a page or a change request',
        params: SpaceParams,
        body: CommentCreateSchema,
        response: { 200: CommentSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { space, role } = loadDiscussions(ctx, req.params.spaceId)
        const b = req.body
        let cr: ChangeRequestRow | undefined
        if (b.changeRequest !== undefined) {
          cr = ctx.repo(changeRequestRepository).find(space.id, String(b.changeRequest))
          if (!cr) throw badRequest(`changeRequest: no change request ${b.changeRequest} in this space`)
        }
        // The comment is on the content it names: the change request's head, or the primary content.
        const revisionId = cr ? cr.revision_id : space.revision_id
        if (b.node !== undefined && b.page === undefined) throw badRequest('node: a comment on a block needs its `page`')
        if (b.page !== undefined && !(revisionId && loadPage(ctx.db, revisionId, b.page))) {
          throw badRequest(`page: no page ${b.page} in the ${cr ? "change request's" : "space's"} content`)
        }
        const node = typeof b.node === 'string' ? { id: b.node } : b.node
        const row = ctx.repo(commentRepository).create({
          space_id: space.id,
          change_request_id: cr?.id ?? null,
          page_id: b.page ?? null,
          node_id: node?.id ?? null,
          node_preview: node?.preview ?? null,
          revision_id: revisionId,
          body: b.body.markdown ?? '',
          posted_by: ctx.actor.id,
          posted_at: ctx.now
        })
        return presentComment(row, ctx, { space, role })
      })
  )

  app.get(
    '/v1/spaces/:spaceId/comments/:commentId',
    {
      schema: { tags, summary: 'Get a comment', params: CommentParams, querystring: CommentFormatQuery, response: { 200: CommentSchema } }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space, role, comment } = loadComment(ctx, req.params.spaceId, req.params.commentId)
        return presentComment(comment, ctx, { space, role, format: req.query.format })
      })
  )

  app.put(
    '/v1/spaces/:spaceId/comments/:commentId',
    {
      schema: {
        tags,
        summary: 'Resolve or reopen a comment, edit its body (author only), react to it',
        params: CommentParams,
        body: CommentUpdateSchema,
        response: { 200: CommentSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { space, role, comment } = loadComment(ctx, req.params.spaceId, req.params.commentId)
        const b = req.body
        if (b.body !== undefined) requireAuthor(comment, ctx.actor.id, 'comment')
        checkReactions(b)
        const comments = ctx.repo(commentRepository)
        if (b.resolved !== undefined) comments.setResolved(comment, b.resolved, ctx.actor.id, ctx.now)
        const markdown = b.body?.markdown ?? ''
        if (b.body !== undefined && markdown !== comment.body) comments.update(comment.id, { body: markdown, edited_at: ctx.now })
        applyReactions(ctx, comment.id, b)
        return presentComment(comments.get(space.id, comment.id)!, ctx, { space, role })
      })
  )

  app.delete(
    '/v1/spaces/:spaceId/comments/:commentId',
    {
      schema: {
        tags,
        summary: 'Delete a comment and its replies (author or space admin)',
        params: CommentParams,
        response: { 205: NoContent }
      }
    },
    async (req, reply) => {
      write(req, (ctx) => {
        const { role, comment } = loadComment(ctx, req.params.spaceId, req.params.commentId)
        requireDeletable(role, comment, ctx.actor.id, 'comment')
        ctx.repo(commentRepository).delete(comment)
      })
      return reply.code(205).send()
    }
  )
}
