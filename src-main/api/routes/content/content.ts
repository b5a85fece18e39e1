import type { FastifyReply, FastifyRequest } from 'fastify'
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
import { PageTree } from '../../../content/pageTree'
import { countFiles, loadFile, loadFilesPage, loadPages, type PageRecord } from '../../../content/revisions'
import { readDocument } from '../../../content/documents'
import type { Api } from '../../app'
import { read } from '../../../workspace/context'
import { notFound } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { presentFile, presentPage, presentPageTree, presentRevision } from '../../presenters/content'
import { CONTENT_PREFIXES, contentParams, pageAtPath, resolveContent } from './scope'

const Id = { type: 'string', maxLength: 100 } as const

/** One page of the content a request names (found in its page tree by `find`), with its document and children. */
function answerPage(req: FastifyRequest, reply: FastifyReply, find: (tree: PageTree) => PageRecord | undefined) {
  const query = req.query as { format?: 'markdown' | 'document'; metadata?: boolean }
  return read(req, (ctx) => {
    const { scope } = resolveContent(ctx, req)
    const tree = PageTree.readOnly(loadPages(ctx.db, scope.revisionId))
    const page = find(tree)
    if (!page) throw notFound('Page')
    // The revision read: a writer sends it back as If-Match, so an edit made since is not overwritten.
    reply.header('etag', entityTag(scope.revisionId))
    const paths = tree.paths()
    return presentPage(ctx, scope, page, paths.get(page.id)!, {
      format: query.format ?? 'markdown',
      metadata: query.metadata,
      markdown: readDocument(ctx.db, page.documentHash),
      children: presentPageTree(ctx, scope, tree, { metadata: query.metadata }, page.id, paths)
    })
  })
}

export default function contentRoutes(app: Api) {
  for (const prefix of CONTENT_PREFIXES) {
    const tags = [prefix.includes('change-requests') ? 'Change requests' : 'Space content']
    const where = prefix.includes('change-requests') ? 'of a change request' : 'of a space'

    app.get(
      `${prefix}/content`,
      {
        config: { offline: 'copy' },
        schema: {
          tags,
          summary: `The current revision ${where}`,
          params: contentParams(prefix, {}),
          querystring: ContentQuery,
          response: { 200: RevisionSchema }
        }
      },
      async (req, reply) =>
        read(req, (ctx) => {
          const { scope, revision } = resolveContent(ctx, req)
          reply.header('etag', entityTag(scope.revisionId))
          return presentRevision(ctx, scope, revision, { metadata: req.query.metadata })
        })
    )

    app.get(
      `${prefix}/content/pages`,
      {
        config: { offline: 'copy' },
        schema: {
          tags,
          summary: `The page tree ${where}`,
          params: contentParams(prefix, {}),
          querystring: ContentQuery,
          response: { 200: PagesResponse }
        }
      },
      async (req, reply) =>
        read(req, (ctx) => {
          const { scope } = resolveContent(ctx, req)
          reply.header('etag', entityTag(scope.revisionId))
          return {
            pages: presentPageTree(ctx, scope, PageTree.readOnly(loadPages(ctx.db, scope.revisionId)), { metadata: req.query.metadata })
          }
        })
    )

    app.get(
      `${prefix}/content/page/:pageId`,
      {
        config: { offline: 'copy' },
        schema: {
          tags,
          summary: `A page ${where}, with its document`,
          params: contentParams(prefix, { pageId: Id }),
          querystring: PageQuerySchema,
          response: { 200: PageRef }
        }
      },
      async (req, reply) => answerPage(req, reply, (tree) => tree.get((req.params as { pageId: string }).pageId))
    )

    // A path has slashes: sent percent-encoded it is one segment (the documented operation); sent as is (as the
    // official client sends it), the wildcard route below (not in the OpenAPI document) takes it.
    app.get(
      `${prefix}/content/path/:pagePath`,
      {
        config: { offline: 'copy' },
        schema: {
          tags,
          summary: `A page ${where} by its path (slugs joined by /, percent-encoded), with its document`,
          params: contentParams(prefix, { pagePath: { type: 'string', maxLength: 2000 } }),
          querystring: PageQuerySchema,
          response: { 200: PageRef }
        }
      },
      async (req, reply) => answerPage(req, reply, (tree) => pageAtPath(tree, (req.params as { pagePath: string }).pagePath))
    )
    app.get(
      `${prefix}/content/path/*`,
      {
        config: { offline: 'copy' },
        schema: {
          hide: true,
          params: contentParams(prefix, { '*': { type: 'string', maxLength: 2000 } }),
          querystring: PageQuerySchema,
          response: { 200: PageRef }
        }
      },
      async (req, reply) => answerPage(req, reply, (tree) => pageAtPath(tree, (req.params as { '*': string })['*']))
    )

    app.get(
      `${prefix}/content/files`,
      {
        schema: { tags, summary: `Files ${where}`, params: contentParams(prefix, {}), querystring: FilesQuery, response: { 200: FileList } }
      },
      async (req) =>
        read(req, (ctx) => {
          const { scope } = resolveContent(ctx, req)
          const limit = req.query.limit ?? DEFAULT_LIMIT
          const after = decodeCursor(req.query.page, ['string', 'string'])
          const rows = loadFilesPage(ctx.db, scope.revisionId, after, limit + 1)
          const count = cachedCount(ctx, `files:${scope.revisionId}`, () => countFiles(ctx.db, scope.revisionId))
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
      `${prefix}/content/files/:fileId`,
      {
        schema: {
          tags,
          summary: `A file ${where}`,
          params: contentParams(prefix, { fileId: Id }),
          querystring: ContentQuery,
          response: { 200: FileSchema }
        }
      },
      async (req) =>
        read(req, (ctx) => {
          const { scope } = resolveContent(ctx, req)
          const file = loadFile(ctx.db, scope.revisionId, (req.params as { fileId: string }).fileId)
          if (!file) throw notFound('File')
          return presentFile(ctx, scope, file, { metadata: req.query.metadata })
        })
    )
  }
}
