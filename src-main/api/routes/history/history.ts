import type { FastifyReply, FastifyRequest } from 'fastify'
import { ChangeRequestSchema } from '../../../../src-shared/schemas/changeRequests'
import {
  ContentQuery,
  FileList,
  FileSchema,
  FilesQuery,
  PageQuerySchema,
  PagesResponse,
  PageRef,
  RevisionSchema
} from '../../../../src-shared/schemas/content'
import { entityTag } from '../../../../src-shared/entityTags'
import {
  RestoreSchema,
  RevisionChangesQuery,
  RevisionChangesSchema,
  RevisionFileParams,
  RevisionListQuery,
  RevisionPageParams,
  RevisionParams,
  RevisionPathParams,
  RevisionSummaryList,
  RevisionSummarySchema,
  type RevisionChanges
} from '../../../../src-shared/schemas/history'
import { SpaceParams } from '../../../../src-shared/schemas/spaces'
import { PageTree } from '../../../content/pageTree'
import { countFiles, loadFile, loadFilesPage, loadPages, type PageRecord } from '../../../content/revisions'
import { readDocument } from '../../../content/documents'
import { changeRequestRepository } from '../../../storage/repositories/changeRequestRepository'
import { revisionRepository } from '../../../storage/repositories/revisionRepository'
import type { Api } from '../../app'
import { revisionChanges, withTextHunks } from '../../commands/revisionChanges'
import { restoreRevision } from '../../commands/revisionRestorer'
import { read, write, type Ctx } from '../../../workspace/context'
import { notFound } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { presentChangeRequest } from '../../presenters/changeRequest'
import { presentFile, presentPage, presentPageTree, presentRevision, type ContentScope } from '../../presenters/content'
import { presentRevisionSummaries } from '../../presenters/history'
import { assertEditable } from '../change-requests/loaders'
import { pageAtPath } from '../content/scope'
import { loadSpace } from '../spaces/loaders'
import { loadRevision } from './loaders'

const tags = ['History']
const CHANGES_LIMIT = 10

/** One page of a revision with its document and children, as the current content's page operation answers it. */
function answerPage(
  ctx: Ctx,
  scope: ContentScope,
  tree: PageTree,
  page: PageRecord,
  query: { format?: 'markdown' | 'document'; metadata?: boolean }
) {
  const paths = tree.paths()
  return presentPage(ctx, scope, page, paths.get(page.id)!, {
    format: query.format ?? 'markdown',
    metadata: query.metadata,
    markdown: readDocument(ctx.db, page.documentHash),
    children: presentPageTree(ctx, scope, tree, { metadata: query.metadata }, page.id, paths)
  })
}

export default function historyRoutes(app: Api) {
  app.get(
    '/v1/spaces/:spaceId/revisions',
    {
      schema: {
        tags,
        summary: 'The revisions of the space’s content, newest first',
        params: SpaceParams,
        querystring: RevisionListQuery,
        response: { 200: RevisionSummaryList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'view')
        const revisions = ctx.repo(revisionRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [before = Number.MAX_SAFE_INTEGER] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = revisions.list(space.id, before, limit + 1)
        const count = cachedCount(ctx, `revisions:${space.id}`, () => revisions.count(space.id))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => presentRevisionSummaries(page, ctx)
        )
      })
  )

  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/summary',
    {
      schema: {
        tags,
        summary: 'One revision as the history lists it: who made it, when, and the change request it merged (Quire’s addition)',
        params: RevisionParams,
        response: { 200: RevisionSummarySchema }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space, revision } = loadRevision(ctx, req.params.spaceId, req.params.revisionId)
        return presentRevisionSummaries([ctx.repo(revisionRepository).summary(space.id, revision.id)!], ctx)[0]!
      })
  )

  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId',
    {
      schema: {
        tags,
        summary: 'A revision of the space',
        params: RevisionParams,
        querystring: ContentQuery,
        response: { 200: RevisionSchema }
      }
    },
    async (req, reply) =>
      read(req, (ctx) => {
        const { revision, scope } = loadRevision(ctx, req.params.spaceId, req.params.revisionId)
        reply.header('etag', entityTag(revision.id))
        return presentRevision(ctx, scope, revision, { metadata: req.query.metadata })
      })
  )

  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/pages',
    {
      schema: {
        tags,
        summary: 'The page tree of a revision',
        params: RevisionParams,
        querystring: ContentQuery,
        response: { 200: PagesResponse }
      }
    },
    async (req, reply) =>
      read(req, (ctx) => {
        const { revision, scope } = loadRevision(ctx, req.params.spaceId, req.params.revisionId)
        reply.header('etag', entityTag(revision.id))
        return { pages: presentPageTree(ctx, scope, PageTree.readOnly(loadPages(ctx.db, revision.id)), { metadata: req.query.metadata }) }
      })
  )

  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/page/:pageId',
    {
      schema: {
        tags,
        summary: 'A page of a revision, with its document',
        params: RevisionPageParams,
        querystring: PageQuerySchema,
        response: { 200: PageRef }
      }
    },
    async (req, reply) =>
      read(req, (ctx) => {
        const { revision, scope } = loadRevision(ctx, req.params.spaceId, req.params.revisionId)
        const tree = PageTree.readOnly(loadPages(ctx.db, revision.id))
        const page = tree.get(req.params.pageId)
        if (!page) throw notFound('Page')
        reply.header('etag', entityTag(revision.id))
        return answerPage(ctx, scope, tree, page, req.query)
      })
  )

  // A path has slashes: sent percent-encoded it is one segment (the documented operation); sent as is, the
  // wildcard route below (not in the OpenAPI document) takes it.
  type PathParams = { spaceId: string; revisionId: string }
  type PageQuery = { format?: 'markdown' | 'document'; metadata?: boolean }
  const byPath = (req: FastifyRequest, pagePath: string, reply: FastifyReply) =>
    read(req, (ctx) => {
      const params = req.params as PathParams
      const { revision, scope } = loadRevision(ctx, params.spaceId, params.revisionId)
      const tree = PageTree.readOnly(loadPages(ctx.db, revision.id))
      const found = pageAtPath(tree, pagePath)
      if (!found) throw notFound('Page')
      reply.header('etag', entityTag(revision.id))
      return answerPage(ctx, scope, tree, found, req.query as PageQuery)
    })
  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/path/:pagePath',
    {
      schema: {
        tags,
        summary: 'A page of a revision by its path (slugs joined by /, percent-encoded)',
        params: RevisionPathParams,
        querystring: PageQuerySchema,
        response: { 200: PageRef }
      }
    },
    async (req, reply) => byPath(req, req.params.pagePath, reply)
  )
  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/path/*',
    {
      schema: {
        hide: true,
        params: {
          type: 'object',
          required: ['spaceId', 'revisionId', '*'],
          properties: {
            spaceId: { type: 'string', maxLength: 100 },
            revisionId: { type: 'string', maxLength: 100 },
            '*': { type: 'string', maxLength: 2000 }
          }
        },
        querystring: PageQuerySchema,
        response: { 200: PageRef }
      }
    },
    async (req, reply) => byPath(req, (req.params as { '*': string })['*'], reply)
  )

  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/files',
    { schema: { tags, summary: 'Files of a revision', params: RevisionParams, querystring: FilesQuery, response: { 200: FileList } } },
    async (req) =>
      read(req, (ctx) => {
        const { revision, scope } = loadRevision(ctx, req.params.spaceId, req.params.revisionId)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const after = decodeCursor(req.query.page, ['string', 'string'])
        const rows = loadFilesPage(ctx.db, revision.id, after, limit + 1)
        const count = cachedCount(ctx, `files:${revision.id}`, () => countFiles(ctx.db, revision.id))
        return envelope(
          rows,
          limit,
          count,
          (f) => [f.name, f.id],
          (page) => page.map((f) => presentFile(ctx, scope, f, { metadata: req.query.metadata }))
        )
      })
  )

  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/files/:fileId',
    {
      schema: {
        tags,
        summary: 'A file of a revision',
        params: RevisionFileParams,
        querystring: ContentQuery,
        response: { 200: FileSchema }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { revision, scope } = loadRevision(ctx, req.params.spaceId, req.params.revisionId)
        const file = loadFile(ctx.db, revision.id, req.params.fileId)
        if (!file) throw notFound('File')
        return presentFile(ctx, scope, file, { metadata: req.query.metadata })
      })
  )

  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/changes',
    {
      schema: {
        tags,
        summary: 'What a revision changed against its first parent (or `against` another revision of the space)',
        params: RevisionParams,
        querystring: RevisionChangesQuery,
        response: { 200: RevisionChangesSchema }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space, revision } = loadRevision(ctx, req.params.spaceId, req.params.revisionId)
        const from =
          req.query.against !== undefined
            ? loadRevision(ctx, space.id, req.query.against).revision.id
            : ((JSON.parse(revision.parents) as string[])[0] ?? null)
        const all = revisionChanges(
          ctx,
          from,
          revision.id,
          (revisionId, file) => presentFile(ctx, { spaceId: space.id, revisionId }, file).downloadURL
        )
        const limit = req.query.limit ?? CHANGES_LIMIT
        const out: RevisionChanges = { changes: withTextHunks(ctx, all.slice(0, limit)) }
        if (all.length > limit) out.more = all.length - limit
        const merged = ctx.repo(revisionRepository).mergedBy(space.id, revision.id)
        if (merged) out.mergedFrom = presentChangeRequest(ctx.repo(changeRequestRepository).get(space.id, merged)!, space, ctx)
        return out
      })
  )

  app.post(
    '/v1/spaces/:spaceId/revisions/:revisionId/restore',
    {
      schema: {
        tags,
        summary: 'Open a change request whose content is this revision’s (or only some of its pages)',
        params: RevisionParams,
        body: RestoreSchema,
        response: { 201: ChangeRequestSchema }
      }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const { space, revision } = loadRevision(ctx, req.params.spaceId, req.params.revisionId, 'edit')
        assertEditable(space)
        const subject = req.body.subject ?? `Restore revision ${revision.id}`
        return presentChangeRequest(restoreRevision(ctx, space, revision, req.body.pages, subject), space, ctx)
      })
      return reply.code(201).send(body)
    }
  )
}
