import Type from 'typebox'
import {
  ChangeRequestCreateSchema,
  ChangeRequestList,
  ChangeRequestListQuery,
  ChangeRequestParams,
  ChangeRequestPullSchema,
  ChangeRequestSchema,
  ChangeRequestUpdateSchema,
  ContentBatchSchema,
  MergeResultSchema,
  type ChangeRequestStatus
} from '../../../../src-shared/schemas/changeRequests'
import { ContentBatchQuery, ContentUpdateSchema } from '../../../../src-shared/schemas/content'
import { ChangeRequestChangesQuery, ChangeRequestChangesSchema, type ChangeRequestChanges } from '../../../../src-shared/schemas/history'
import { MergeRequestSchema } from '../../../../src-shared/schemas/reviews'
import { SpaceParams } from '../../../../src-shared/schemas/spaces'
import { changeRequestRepository, type ChangeRequestPatch } from '../../../storage/repositories/changeRequestRepository'
import type { Api } from '../../app'
import { mergeChangeRequest, updateChangeRequest, type MergeOutcome } from '../../commands/changeRequestMerger'
import { changeRequestChanges } from '../../commands/changeRequestChanges'
import { withTextHunks } from '../../commands/revisionChanges'
import { openChangeRequest } from '../../commands/changeRequestOpener'
import { applyContentChanges } from '../../commands/contentEditor'
import { read, write } from '../../../workspace/context'
import { badRequest, conflict, forbidden, preconditionFailed } from '../../../base/errors'
import { mergeStatus } from '../../policies/mergeRules'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { presentChangeRequest, presentChangeRequests, presentContentUpdate } from '../../presenters/changeRequest'
import { emptyBodyIsObject } from '../../validation'
import { loadSpace } from '../spaces/loaders'
import { assertEditable, assertOpenForChanges, ifMatchRevisions, loadChangeRequest } from './loaders'
import { withMarkdownDocuments } from '../../../content/documentModel'
import { readDocument } from '../../../content/documents'
import { loadPages } from '../../../content/revisions'

const tags = ['Change requests']

/** Status moves a PATCH may make (merge has its own operation; merged is final). */
const MOVES: Record<ChangeRequestStatus, ChangeRequestStatus[]> = {
  draft: ['open', 'archived'],
  open: ['draft', 'archived'],
  archived: ['open'],
  merged: []
}

const presentOutcome = (o: MergeOutcome) => ({
  revision: o.revision,
  result: o.result,
  ...(o.conflicts ? { conflicts: o.conflicts.map((c) => ({ page: { id: c.pageId, title: c.title }, reason: c.reason })) } : {})
})

export default function changeRequestRoutes(app: Api) {
  app.get(
    '/v1/spaces/:spaceId/change-requests',
    {
      config: { offline: 'copy' },
      schema: {
        tags,
        summary: 'Change requests of a space',
        params: SpaceParams,
        querystring: ChangeRequestListQuery,
        response: { 200: ChangeRequestList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'view')
        const crs = ctx.repo(changeRequestRepository)
        const status = req.query.status ?? 'open'
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [before = Number.MAX_SAFE_INTEGER] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = crs.list(space.id, status, req.query.contributor, before, limit + 1)
        const count = cachedCount(ctx, `crs:${space.id}:${status}:${req.query.contributor ?? ''}`, () =>
          crs.count(space.id, status, req.query.contributor)
        )
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => presentChangeRequests(page, space, ctx)
        )
      })
  )

  app.post(
    '/v1/spaces/:spaceId/change-requests',
    {
      config: { offline: { queue: 'create-change-request' } },
      schema: {
        tags,
        summary: 'Open a change request (a draft branch of the primary content)',
        params: SpaceParams,
        body: ChangeRequestCreateSchema,
        response: { 201: ChangeRequestSchema }
      }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'edit')
        assertEditable(space)
        return presentChangeRequest(openChangeRequest(ctx, space, req.body.subject ?? ''), space, ctx)
      })
      return reply.code(201).send(body)
    }
  )

  app.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId',
    {
      config: { offline: 'copy' },
      schema: {
        tags,
        summary: 'Get a change request (by id or number)',
        params: ChangeRequestParams,
        response: { 200: ChangeRequestSchema }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space, cr } = loadChangeRequest(ctx, req.params.spaceId, req.params.changeRequestId, 'view')
        return presentChangeRequest(cr, space, ctx)
      })
  )

  app.patch(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId',
    {
      config: { offline: { queue: 'update-change-request' } },
      schema: {
        tags,
        summary: 'Update the subject or move the status',
        params: ChangeRequestParams,
        body: ChangeRequestUpdateSchema,
        response: { 200: ChangeRequestSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { space, cr } = loadChangeRequest(ctx, req.params.spaceId, req.params.changeRequestId, 'edit')
        const { subject, status } = req.body
        const patch: ChangeRequestPatch = {}
        if (subject !== undefined) patch.subject = subject
        if (status !== undefined && status !== cr.status) {
          if (status === 'merged') throw badRequest('status: a change request is merged with the merge operation')
          const from = cr.status as ChangeRequestStatus
          if (!MOVES[from].includes(status)) throw conflict(`status: a ${from} change request cannot move to ${status}`)
          patch.status = status
        }
        if (cr.status === 'merged' && Object.keys(patch).length) throw conflict('The change request is merged and can no longer change')
        const crs = ctx.repo(changeRequestRepository)
        if (Object.keys(patch).length) {
          crs.update(cr.id, { ...patch, updated_at: ctx.now })
          if (patch.status) crs.refreshSpaceCounters(space.id)
        }
        return presentChangeRequest(crs.get(space.id, cr.id)!, space, ctx)
      })
  )

  app.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/merge',
    {
      schema: {
        tags,
        summary: 'Merge into the primary content (three-way, per page), if the merge rules allow',
        params: ChangeRequestParams,
        body: MergeRequestSchema,
        response: { 200: MergeResultSchema }
      },
      preValidation: emptyBodyIsObject
    },
    async (req) =>
      write(req, (ctx) => {
        const { space, cr } = loadChangeRequest(ctx, req.params.spaceId, req.params.changeRequestId, 'merge')
        assertEditable(space)
        if (cr.status === 'merged') throw conflict('The change request is already merged')
        if (cr.status === 'archived') throw conflict('An archived change request must be reopened before it is merged')
        // A reviewer merges what they reviewed: with If-Match, a change request that moved on since is refused.
        const reviewed = ifMatchRevisions(req.headers['if-match'])
        if (reviewed && !reviewed.includes(cr.revision_id)) {
          throw preconditionFailed(
            `The change request changed since revision ${reviewed.join(', ')} (If-Match): review it again before merging`
          )
        }
        const { unmet, canBypass } = mergeStatus(ctx, space, cr)
        const bypass = unmet.length > 0 && req.body.bypassMergeRules === true
        if (unmet.length && !bypass) throw forbidden(`Merge rules not met: ${unmet.map((u) => u.message).join('; ')}`)
        if (bypass && !canBypass) throw forbidden('bypassMergeRules: you are not allowed to bypass the merge rules (allow_bypass)')
        const outcome = mergeChangeRequest(ctx, space, cr)
        // A bypass is recorded with the rules it passed over, once the merge went through.
        if (bypass && outcome.result === 'merge') {
          ctx
            .repo(changeRequestRepository)
            .update(cr.id, { merge_bypassed_by: ctx.actor.id, merge_bypassed_rules: JSON.stringify(unmet.map((u) => u.message)) })
        }
        return presentOutcome(outcome)
      })
  )

  app.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/update',
    {
      schema: {
        tags,
        summary: 'Pull the primary content into the change request, with resolutions of conflicting pages',
        params: ChangeRequestParams,
        body: ChangeRequestPullSchema,
        response: { 200: MergeResultSchema }
      },
      preValidation: emptyBodyIsObject
    },
    async (req) =>
      write(req, (ctx) => {
        const { space, cr } = loadChangeRequest(ctx, req.params.spaceId, req.params.changeRequestId, 'edit')
        assertEditable(space)
        assertOpenForChanges(cr, 'cannot be updated')
        // Resolutions are written against main and the change request as they were read: with If-Match (those
        // revisions), an update after either moved on is refused, so a newer edit is never replaced unseen.
        const against = ifMatchRevisions(req.headers['if-match'])
        if (against && !(against.includes(space.revision_id!) && against.includes(cr.revision_id))) {
          throw preconditionFailed(
            `Main or the change request changed since revision ${against.join(', ')} (If-Match): resolve against them as they are now`
          )
        }
        return presentOutcome(updateChangeRequest(ctx, space, cr, req.body.resolutions))
      })
  )

  app.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/content',
    {
      config: { offline: { queue: 'content' } },
      schema: {
        tags,
        summary: 'Apply a batch of content changes (all or nothing)',
        description:
          'Answers the change request, or with `compat=false` the change request with the pages the batch created, updated or deleted and the files it inserted.',
        params: ChangeRequestParams,
        querystring: ContentBatchQuery,
        body: ContentBatchSchema,
        response: { 200: Type.Union([ChangeRequestSchema, ContentUpdateSchema]) }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { space, cr } = loadChangeRequest(ctx, req.params.spaceId, req.params.changeRequestId, 'edit')
        assertEditable(space)
        assertOpenForChanges(cr, 'cannot change')
        // A page written as a model keeps its front matter (its settings): read from the change request as it is.
        let hashes: Map<string, string | null> | undefined
        const current = (page: string) => {
          hashes ??= new Map(loadPages(ctx.db, cr.revision_id).map((p) => [p.id, p.documentHash]))
          return hashes.has(page) ? readDocument(ctx.db, hashes.get(page)!) : undefined
        }
        const changes = withMarkdownDocuments(req.body.changes, current)
        const result = applyContentChanges(ctx, space, cr, changes, ifMatchRevisions(req.headers['if-match']))
        return req.query.compat === false ? presentContentUpdate(result, space, ctx) : presentChangeRequest(result.cr, space, ctx)
      })
  )

  app.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/changes',
    {
      config: { offline: 'copy' },
      schema: {
        tags,
        summary: 'Pages created, edited, moved and deleted by the change request',
        params: ChangeRequestParams,
        querystring: ChangeRequestChangesQuery,
        response: { 200: ChangeRequestChangesSchema }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space, cr } = loadChangeRequest(ctx, req.params.spaceId, req.params.changeRequestId, 'view')
        const all = changeRequestChanges(ctx, space, cr)
        // All of them unless a limit is asked for: the review screen and the merge guard read the whole list.
        const limit = req.query.limit ?? all.length
        const out: ChangeRequestChanges = { changes: withTextHunks(ctx, all.slice(0, limit)) }
        if (all.length > limit) out.more = all.length - limit
        return out
      })
  )
}
