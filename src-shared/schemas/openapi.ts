import Type from 'typebox'
import { DateTime, ListOf, PageQuery, patterned, StringEnum } from './common'

export const OPENAPI_PROCESSING_STATES = ['pending', 'progress', 'complete'] as const
export type OpenAPIProcessingState = (typeof OPENAPI_PROCESSING_STATES)[number]
export const OPENAPI_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const
export type OpenAPIErrorCode = (typeof OPENAPI_ERROR_CODES)[number]

/** Largest inline `{text}` source (the Quire extension), in characters. */
export const OPENAPI_TEXT_MAX = 5 * 1024 * 1024

const Slug = Type.String({
  minLength: 1,
  maxLength: 100,
  ...patterned('^[a-z0-9]+(?:-[a-z0-9]+)*$', 'lower-case letters and digits, words joined by single hyphens (my-api)')
})

export const OpenAPISpecSchema = Type.Object({
  object: Type.Literal('openapi-spec'),
  id: Type.String(),
  createdAt: DateTime,
  updatedAt: DateTime,
  slug: Type.String(),
  sourceURL: Type.Optional(Type.String()),
  processingState: StringEnum(OPENAPI_PROCESSING_STATES),
  lastVersion: Type.Optional(Type.String({ description: 'Id of the latest version' })),
  lastProcessedAt: Type.Optional(DateTime),
  lastProcessErrorCode: Type.Optional(StringEnum(OPENAPI_ERROR_CODES, { description: 'Why the last processing failed' })),
  permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
  urls: Type.Object({ location: Type.String(), app: Type.String() })
})
export type OpenAPISpec = Type.Static<typeof OpenAPISpecSchema>

export const OpenAPISpecVersionSchema = Type.Object({
  object: Type.Literal('openapi-spec-version'),
  id: Type.String(),
  createdAt: Type.Optional(DateTime),
  url: Type.String({ description: 'Where the document was read from' }),
  urls: Type.Object({ location: Type.String() })
})
export type OpenAPISpecVersion = Type.Static<typeof OpenAPISpecVersionSchema>

export const OpenAPISpecContentSchema = Type.Object({
  filesystem: Type.Record(Type.String(), Type.Unknown(), {
    description: 'Path -> parsed document: the main document under its file name, and every external $ref file under its path relative to it (or its URL when on another origin)'
  }),
  url: Type.String()
})

export const OpenAPISpecSource = Type.Object(
  {
    url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'An http(s) URL the document is fetched from' })),
    text: Type.Optional(Type.String({ minLength: 1, maxLength: OPENAPI_TEXT_MAX, description: 'Quire extension: the document itself, YAML or JSON' }))
  },
  { description: 'Exactly one of `url` or `text`' }
)

export const OpenAPIOrgParams = Type.Object({ organizationId: Type.String({ maxLength: 100 }) })
export const OpenAPISpecParams = Type.Object({ organizationId: Type.String({ maxLength: 100 }), specSlug: Type.String({ maxLength: 100 }) })
/** PUT may create the spec, so its slug must be a valid one. */
export const OpenAPISpecPutParams = Type.Object({ organizationId: Type.String({ maxLength: 100 }), specSlug: Slug })
export const OpenAPIVersionParams = Type.Object({
  organizationId: Type.String({ maxLength: 100 }),
  specSlug: Type.String({ maxLength: 100 }),
  versionId: Type.String({ maxLength: 100 })
})

export const OpenAPISpecCreateSchema = Type.Object({ slug: Slug, source: OpenAPISpecSource })
export const OpenAPISpecPutSchema = Type.Object({ source: OpenAPISpecSource })

export const OpenAPIListQuery = Type.Object({ ...PageQuery })
export const OpenAPISpecList = ListOf(OpenAPISpecSchema)
export const OpenAPISpecVersionList = ListOf(OpenAPISpecVersionSchema)
