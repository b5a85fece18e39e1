import Type from 'typebox'
import { DateTime, ListOf, PageQuery, patterned, StringEnum } from './common'

export const OPENAPI_PROCESSING_STATES = ['pending', 'progress', 'complete'] as const
export type OpenAPIProcessingState = (typeof OPENAPI_PROCESSING_STATES)[number]
export const OPENAPI_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const
export type OpenAPIErrorCode = (typeof OPENAPI_ERROR_CODES)[number]
/** What a running processing is doing (Quire's addition): reading the document, its `$ref` files, checking it, storing it. */
export const OPENAPI_PROCESSING_PHASES = ['fetching', 'parsing', 'resolving', 'validating', 'storing'] as const
export type OpenAPIProcessingPhase = (typeof OPENAPI_PROCESSING_PHASES)[number]

/** Largest inline `{text}` source (the Quire extension), in characters. */
export const OPENAPI_TEXT_MAX = 5 * 1024 * 1024

const Slug = Type.String({
  minLength: 1,
  maxLength: 100,
  ...patterned('^[a-z0-9]+(?:-[a-z0-9]+)*$', 'lower-case letters and digits, words joined by single hyphens (my-api)')
})

export const OpenAPIErrorLocationSchema = Type.Object(
  {
    file: Type.String({
      description:
        "The file as the version's filesystem names it (the main document's file name, a $ref file's path relative to it), or the URL that could not be read"
    }),
    line: Type.Optional(Type.Integer({ minimum: 1 })),
    column: Type.Optional(Type.Integer({ minimum: 1 })),
    pointer: Type.Optional(Type.String({ description: 'JSON pointer of the offending value (a schema error, a $ref)' }))
  },
  { description: 'Where the error is: a line and column for a syntax error, a JSON pointer (and its line when found) otherwise' }
)
export type OpenAPIErrorLocation = Type.Static<typeof OpenAPIErrorLocationSchema>

export const OpenAPIProcessErrorSchema = Type.Object(
  {
    code: StringEnum(OPENAPI_ERROR_CODES),
    message: Type.String(),
    location: Type.Optional(OpenAPIErrorLocationSchema),
    lines: Type.Optional(
      Type.Array(Type.Object({ number: Type.Integer({ minimum: 1 }), text: Type.String() }), {
        description: 'The lines around `location.line` as the file had them (at most 5, each cut to 200 characters)'
      })
    )
  },
  { description: "Quire's addition: why the last processing failed" }
)
export type OpenAPIProcessError = Type.Static<typeof OpenAPIProcessErrorSchema>

export const OpenAPIProcessingProgressSchema = Type.Object(
  {
    phase: StringEnum(OPENAPI_PROCESSING_PHASES),
    filesRead: Type.Integer({ minimum: 0, description: 'Files read so far: the document and its $ref files' })
  },
  { description: "Quire's addition: what a processing in progress is doing" }
)
export type OpenAPIProcessingProgress = Type.Static<typeof OpenAPIProcessingProgressSchema>

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
  /** Processing stops at the first error: 1 after a failed processing, else 0. */
  lastProcessedErrorCount: Type.Integer({ minimum: 0 }),
  lastProcessErrorCode: Type.Optional(StringEnum(OPENAPI_ERROR_CODES, { description: 'Why the last processing failed' })),
  lastProcessError: Type.Optional(OpenAPIProcessErrorSchema),
  processingProgress: Type.Optional(OpenAPIProcessingProgressSchema),
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
    description:
      'Path -> parsed document: the main document under its file name, and every external $ref file under its path relative to it (or its URL when on another origin)'
  }),
  url: Type.String(),
  urls: Type.Object({ source: Type.String(), public: Type.Null({ description: 'Specs have no public address' }) })
})

export const OpenAPISpecSource = Type.Object(
  {
    url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'An http(s) URL the document is fetched from' })),
    text: Type.Optional(
      Type.String({ minLength: 1, maxLength: OPENAPI_TEXT_MAX, description: 'Quire extension: the document itself, YAML or JSON' })
    )
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
