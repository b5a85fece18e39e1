import { ChangeRequestParams } from '../../../../src-shared/schemas/changeRequests'
import {
  MergeStatusSchema,
  RequestedReviewerList,
  RequestedReviewerParams,
  RequestReviewersResult,
  RequestReviewersSchema,
  ReviewCreateSchema,
  ReviewList,
  ReviewListQuery,
  ReviewParams,
  ReviewQuery,
  ChangeRequestReviewSchema
} from '../../../../src-shared/schemas/reviews'
import { NoContent, PageQuery } from '../../../../src-shared/schemas/common'
import Type from 'typebox'
import { badRequest, conflict, forbidden, notFound } from '../../../base/errors'
import { changeRequestRepository } from '../../../storage/repositories/changeRequestRepository'
import { commentRepository } from '../../../storage/repositories/commentRepository'
import { reviewRepository } from '../../../storage/repositories/reviewRepository'
import { userRepository } from '../../../storage/repositories/userRepository'
import { read, write } from '../../../workspace/context'
import type { Api } from '../../app'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { atLeast } from '../../policies/roles'
import { spaceRoles } from '../../policies/access'
import { mergeStatus } from '../../policies/mergeRules'
import { presentRequestedReviewers, presentReview, presentReviews } from '../../presenters/review'
import { loadChangeRequest } from './loaders'

const tags = ['Change request reviews']

export default function reviewRoutes(app: Api) {
  app.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/reviews',
    {
      config: { offline: 'copy' },
      schema: {
        tags,
        summary: 'Reviews of a change request, newest first',
        params: ChangeRequestParams,
        querystring: ReviewListQuery,
        response: { 200: ReviewList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space, cr, role } = loadChangeRequest(ctx, req.params.spaceId, req.params.changeRequestId, 'view')
        const reviews = ctx.repo(reviewRepository)
        const { outdated, format } = req.query
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [before = Number.MAX_SAFE_INTEGER] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = reviews.list(cr.id, before, limit + 1, outdated)
        // Outdated depends on the change request's head as well as on the reviews: counted on every page (a review list is short).
        const count = reviews.count(cr.id, outdated)
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => presentReviews(page, space, ctx, { role, format })
        )
      })
  )

  app.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/reviews',
    {
      schema: {
        tags,
        summary: 'Approve a change request or request changes, with an optional comment',
        params: ChangeRequestParams,
        body: ReviewCreateSchema,
        response: { 201: ChangeRequestReviewSchema }
      }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const { space, cr, role } = loadChangeRequest(ctx, req.params.spaceId, req.params.changeRequestId, 'review')
        if (cr.status === 'merged' || cr.status === 'archived') throw conflict(`A ${cr.status} change request cannot be reviewed`)
        if (req.body.status === 'approved' && cr.created_by === ctx.actor.id) {
          throw forbidden('status: the author of a change request cannot approve it')
        }
        let commentId: string | null = null
        const markdown = req.body.comment?.markdown.trim()
        if (markdown) {
          commentId = ctx.repo(commentRepository).create({
            space_id: space.id,
            change_request_id: cr.id,
            page_id: null,
            node_id: null,
            node_preview: null,
            revision_id: cr.revision_id,
            body: markdown,
            posted_by: ctx.actor.id,
            posted_at: ctx.now
          }).id
        }
        const row = ctx.repo(reviewRepository).create({
          change_request_id: cr.id,
          reviewer_id: ctx.actor.id,
          status: req.body.status,
          revision_id: cr.revision_id,
          comment_id: commentId,
          now: ctx.now
        })
        return presentReview(row, space, ctx, { role })
      })
      return reply.code(201).header('location', body.urls.location).send(body)
    }
  )

  app.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/reviews/:reviewId',
    {
      config: { offline: 'copy' },
      schema: {
        tags,
        summary: 'Get a review of a change request',
        params: ReviewParams,
        querystring: ReviewQuery,
        response: { 200: ChangeRequestReviewSchema }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space, cr, role } = loadChangeRequest(ctx, req.params.spaceId, req.params.changeRequestId, 'view')
        const row = ctx.repo(reviewRepository).get(cr.id, req.params.reviewId)
        if (!row) throw notFound('Review')
        return presentReview(row, space, ctx, { role, format: req.query.format })
      })
  )

  app.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers',
    {
      config: { offline: 'copy' },
      schema: {
        tags,
        summary: 'Users asked to review a change request, in the order asked',
        params: ChangeRequestParams,
        querystring: Type.Object({ ...PageQuery }),
        response: { 200: RequestedReviewerList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { cr } = loadChangeRequest(ctx, req.params.spaceId, req.params.changeRequestId, 'view')
        const reviews = ctx.repo(reviewRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [after = 0] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = reviews.requests(cr.id, after, limit + 1)
        const count = cachedCount(ctx, `requested-reviewers:${cr.id}`, () => reviews.countRequests(cr.id))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => presentRequestedReviewers(page, ctx)
        )
      })
  )

  app.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers',
    {
      schema: {
        tags,
        summary: 'Ask users to review a change request (optionally setting its subject)',
        params: ChangeRequestParams,
        body: RequestReviewersSchema,
        response: { 200: RequestReviewersResult }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { space, cr } = loadChangeRequest(ctx, req.params.spaceId, req.params.changeRequestId, 'edit')
        if (cr.status === 'merged' || cr.status === 'archived') throw conflict(`A ${cr.status} change request cannot be reviewed`)
        const ids = [...new Set(req.body.users)]
        const users = ctx.repo(userRepository).getMany(ids)
        ids.forEach((id, i) => {
          if (!users.has(id)) throw badRequest(`users.${i}: no user ${id}`)
          if (id === cr.created_by) throw badRequest(`users.${i}: the author of a change request cannot review it`)
          const role = spaceRoles(ctx, space.organization_id, [space], id).get(space.id)
          if (!atLeast(role, 'review'))
            throw badRequest(`users.${i}: ${users.get(id)!.display_name} cannot review this space (needs the review role)`)
        })
        const crs = ctx.repo(changeRequestRepository)
        if (req.body.subject !== undefined && req.body.subject !== cr.subject)
          crs.update(cr.id, { subject: req.body.subject, updated_at: ctx.now })
        const reviews = ctx.repo(reviewRepository)
        const rows = ids.map((id) =>
          reviews.request({ change_request_id: cr.id, user_id: id, requested_by: ctx.actor.id, revision_id: cr.revision_id, now: ctx.now })
        )
        return { users: presentRequestedReviewers(rows, ctx) }
      })
  )

  app.delete(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers/:userId',
    {
      schema: {
        tags,
        summary: 'No longer ask a user to review (205; 204 when they were not asked)',
        params: RequestedReviewerParams,
        response: { 204: NoContent, 205: NoContent }
      }
    },
    async (req, reply) => {
      const removed = write(req, (ctx) => {
        const { cr } = loadChangeRequest(ctx, req.params.spaceId, req.params.changeRequestId, 'edit')
        return ctx.repo(reviewRepository).unrequest(cr.id, req.params.userId)
      })
      return reply.code(removed ? 205 : 204).send()
    }
  )

  app.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/merge-rules',
    {
      config: { offline: 'copy' },
      schema: {
        tags,
        summary: 'The merge rules that apply to the change request, and those a merge by the caller would not meet now',
        params: ChangeRequestParams,
        response: { 200: MergeStatusSchema }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space, cr } = loadChangeRequest(ctx, req.params.spaceId, req.params.changeRequestId, 'view')
        return mergeStatus(ctx, space, cr)
      })
  )
}
