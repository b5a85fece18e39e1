import {
  OpenAPIListQuery,
  OpenAPISpecContentSchema,
  OpenAPISpecParams,
  OpenAPISpecVersionList,
  OpenAPISpecVersionSchema,
  OpenAPIVersionParams
} from '../../../../src-shared/schemas/openapi'
import { openapiSpecRepository, type OpenAPIVersionRow } from '../../../storage/repositories/openapiSpecRepository'
import type { Api } from '../../app'
import { read, type Ctx } from '../../../workspace/context'
import { notFound } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { presentOpenAPIVersion, versionUrl } from '../../presenters/openapiSpec'
import { findSpec } from './loaders'

const tags = ['OpenAPI specs']
const VERSIONS = '/v1/orgs/:organizationId/openapi/:specSlug/versions'

function findVersion(ctx: Ctx, params: { organizationId: string; specSlug: string; versionId?: string }) {
  const spec = findSpec(ctx, params.organizationId, params.specSlug, 'view')
  const specs = ctx.repo(openapiSpecRepository)
  const version = params.versionId === undefined ? specs.latestVersion(spec.id) : specs.getVersion(spec.id, params.versionId)
  if (!version) throw notFound('OpenAPI spec version')
  return { spec, version }
}

/**
 * `{filesystem, url}` as JSON text: the filesystem is stored as JSON and can be megabytes, so it is spliced in
 * as stored rather than parsed and serialized again.
 */
function contentJson(ctx: Ctx, version: OpenAPIVersionRow): string {
  const filesystem = ctx.repo(openapiSpecRepository).filesystemJson(version.id)!
  const source = versionUrl(version, ctx)
  // Specs are read through the API with a token: none has a public address (`urls.public` is null).
  return `{"filesystem":${filesystem},"url":${JSON.stringify(source)},"urls":${JSON.stringify({ source, public: null })}}`
}

export default function openapiVersionRoutes(app: Api) {
  app.get(
    VERSIONS,
    {
      schema: {
        tags,
        summary: 'Versions of an OpenAPI spec, newest first',
        params: OpenAPISpecParams,
        querystring: OpenAPIListQuery,
        response: { 200: OpenAPISpecVersionList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const spec = findSpec(ctx, req.params.organizationId, req.params.specSlug, 'view')
        const specs = ctx.repo(openapiSpecRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [before = Number.MAX_SAFE_INTEGER] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = specs.listVersions(spec.id, before, limit + 1)
        const count = cachedCount(ctx, `openapi-versions:${spec.id}`, () => specs.countVersions(spec.id))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => page.map((r) => presentOpenAPIVersion(spec, r, ctx))
        )
      })
  )

  app.get(
    `${VERSIONS}/latest`,
    {
      schema: {
        tags,
        summary: 'The latest version of an OpenAPI spec',
        params: OpenAPISpecParams,
        response: { 200: OpenAPISpecVersionSchema }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { spec, version } = findVersion(ctx, req.params)
        return presentOpenAPIVersion(spec, version, ctx)
      })
  )

  app.get(
    `${VERSIONS}/latest/content`,
    {
      schema: {
        tags,
        summary: 'The parsed documents of the latest version',
        params: OpenAPISpecParams,
        response: { 200: OpenAPISpecContentSchema }
      }
    },
    async (req, reply) => {
      const json = read(req, (ctx) => {
        return contentJson(ctx, findVersion(ctx, req.params).version)
      })
      return reply.type('application/json; charset=utf-8').send(json as never)
    }
  )

  app.get(
    `${VERSIONS}/:versionId`,
    {
      schema: {
        tags,
        summary: 'Get a version of an OpenAPI spec',
        params: OpenAPIVersionParams,
        response: { 200: OpenAPISpecVersionSchema }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { spec, version } = findVersion(ctx, req.params)
        return presentOpenAPIVersion(spec, version, ctx)
      })
  )

  app.get(
    `${VERSIONS}/:versionId/content`,
    {
      schema: {
        tags,
        summary: 'The parsed documents of a version',
        params: OpenAPIVersionParams,
        response: { 200: OpenAPISpecContentSchema }
      }
    },
    async (req, reply) => {
      const json = read(req, (ctx) => {
        return contentJson(ctx, findVersion(ctx, req.params).version)
      })
      return reply.type('application/json; charset=utf-8').send(json as never)
    }
  )
}
