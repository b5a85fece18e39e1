import { NoContent } from '../../../../src-shared/schemas/common'
import {
  OpenAPIListQuery,
  OpenAPIOrgParams,
  OpenAPISpecCreateSchema,
  OpenAPISpecList,
  OpenAPISpecParams,
  OpenAPISpecPutParams,
  OpenAPISpecPutSchema,
  OpenAPISpecSchema
} from '../../../../src-shared/schemas/openapi'
import { createOpenAPIProcessor } from '../../../openapi/processor'
import { openapiSpecRepository, type OpenAPISource } from '../../../storage/repositories/openapiSpecRepository'
import type { Api } from '../../app'
import { read, write } from '../../../workspace/context'
import { auditEventIdOf } from '../../../workspace/audit'
import { badRequest, conflict } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { presentOpenAPISpec } from '../../presenters/openapiSpec'
import { authorizeSpecs, findSpec } from './loaders'
import openapiVersionRoutes from './versions'

const tags = ['OpenAPI specs']

/** `{url}` (http or https) or `{text}` (the Quire extension), never both. */
function sourceOf(source: { url?: string; text?: string }): OpenAPISource {
  if ((source.url === undefined) === (source.text === undefined)) throw badRequest('source: must have either url or text')
  if (source.url !== undefined && !/^https?:\/\//i.test(source.url)) throw badRequest('source.url: must be an http or https URL')
  return { source_url: source.url ?? null, source_text: source.text ?? null }
}

export default function openapiRoutes(app: Api) {
  // Processing runs in the background, after the write that asked for it has committed and answered.
  const processor = createOpenAPIProcessor(app.services, app.log)
  app.addHook('onReady', async () => {
    for (const id of openapiSpecRepository(app.services.db).unfinished()) processor.enqueue(id)
  })
  app.addHook('onClose', async () => processor.close())

  app.get(
    '/v1/orgs/:organizationId/openapi',
    {
      schema: {
        tags,
        summary: 'OpenAPI specs of an organization',
        params: OpenAPIOrgParams,
        querystring: OpenAPIListQuery,
        response: { 200: OpenAPISpecList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const orgId = req.params.organizationId
        authorizeSpecs(ctx, orgId, 'view')
        const specs = ctx.repo(openapiSpecRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [after = 0] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = specs.listInOrg(orgId, after, limit + 1)
        const count = cachedCount(ctx, `openapi:${orgId}`, () => specs.countInOrg(orgId))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => page.map((r) => presentOpenAPISpec(r, ctx))
        )
      })
  )

  app.post(
    '/v1/orgs/:organizationId/openapi',
    {
      schema: {
        tags,
        summary: 'Create an OpenAPI spec from a source; it is processed in the background (processingState pending)',
        params: OpenAPIOrgParams,
        body: OpenAPISpecCreateSchema,
        response: { 201: OpenAPISpecSchema }
      }
    },
    async (req, reply) => {
      const source = sourceOf(req.body.source)
      const body = write(req, (ctx) => {
        const orgId = req.params.organizationId
        authorizeSpecs(ctx, orgId, 'edit')
        const specs = ctx.repo(openapiSpecRepository)
        if (specs.getBySlug(orgId, req.body.slug))
          throw conflict(`slug: an OpenAPI spec ${req.body.slug} already exists in this organization`)
        const row = specs.create({ organization_id: orgId, slug: req.body.slug, ...source }, ctx.now)
        specs.setSourceEvent(row.id, auditEventIdOf(ctx) ?? null)
        return presentOpenAPISpec(row, ctx)
      })
      processor.enqueue(body.id)
      return reply.code(201).send(body)
    }
  )

  app.get(
    '/v1/orgs/:organizationId/openapi/:specSlug',
    { schema: { tags, summary: 'Get an OpenAPI spec', params: OpenAPISpecParams, response: { 200: OpenAPISpecSchema } } },
    async (req) => read(req, (ctx) => presentOpenAPISpec(findSpec(ctx, req.params.organizationId, req.params.specSlug, 'view'), ctx))
  )

  app.put(
    '/v1/orgs/:organizationId/openapi/:specSlug',
    {
      schema: {
        tags,
        summary: 'Create an OpenAPI spec or replace its source; it is processed again in the background',
        params: OpenAPISpecPutParams,
        body: OpenAPISpecPutSchema,
        response: { 200: OpenAPISpecSchema }
      }
    },
    async (req) => {
      const source = sourceOf(req.body.source)
      const body = write(req, (ctx) => {
        const { organizationId: orgId, specSlug: slug } = req.params
        authorizeSpecs(ctx, orgId, 'edit')
        const specs = ctx.repo(openapiSpecRepository)
        const existing = specs.getBySlug(orgId, slug)
        const row = existing
          ? specs.replaceSource(existing.id, source, ctx.now)
          : specs.create({ organization_id: orgId, slug, ...source }, ctx.now)
        specs.setSourceEvent(row.id, auditEventIdOf(ctx) ?? null)
        return presentOpenAPISpec(row, ctx)
      })
      processor.enqueue(body.id)
      return body
    }
  )

  app.delete(
    '/v1/orgs/:organizationId/openapi/:specSlug',
    { schema: { tags, summary: 'Delete an OpenAPI spec and its versions', params: OpenAPISpecParams, response: { 205: NoContent } } },
    async (req, reply) => {
      // A processing still running for it records nothing (its spec is gone).
      write(req, (ctx) => {
        const spec = findSpec(ctx, req.params.organizationId, req.params.specSlug, 'edit')
        ctx.repo(openapiSpecRepository).remove(spec.id)
      })
      return reply.code(205).send()
    }
  )

  openapiVersionRoutes(app)
}
