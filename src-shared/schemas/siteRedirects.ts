import Type from 'typebox'
import { BULK_REDIRECTS_MAX, REDIRECT_SOURCE_MAX, REDIRECT_SOURCE_PATTERN } from '../redirects'
import { DateTime, ListOf, PageQuery, patterned, StringEnum } from './common'

export const SiteRedirectSourcePath = Type.String({
  maxLength: REDIRECT_SOURCE_MAX,
  ...patterned(
    REDIRECT_SOURCE_PATTERN,
    'a path like /old/page (letters, digits, -._~+ and %-escapes between slashes), optionally ending with *'
  )
})

const SectionDestination = Type.Object({ kind: Type.Literal('site-section'), siteSectionId: Type.String({ minLength: 1 }) })
const SiteSpaceDestination = Type.Object({ kind: Type.Literal('site-space'), siteSpaceId: Type.String({ minLength: 1 }) })
const PageDestination = Type.Object({
  kind: Type.Literal('site-page'),
  siteSpaceId: Type.String({ minLength: 1 }),
  pageId: Type.String({ minLength: 1 })
})
const ExternalDestination = Type.Object({ kind: Type.Literal('external'), url: Type.String({ format: 'uri', maxLength: 2048 }) })
/** Input only: a page named by its path in a space the site shows; stored as the `site-page` it names. */
const PathDestination = Type.Object({
  kind: Type.Literal('path'),
  spaceId: Type.String({ minLength: 1 }),
  path: Type.String({ maxLength: 2048 })
})

type Destination =
  | Type.Static<typeof SectionDestination>
  | Type.Static<typeof SiteSpaceDestination>
  | Type.Static<typeof PageDestination>
  | Type.Static<typeof ExternalDestination>
export type SiteRedirectDestination = Destination
export type SiteRedirectInputDestination = Destination | Type.Static<typeof PathDestination>

const tagged = <T>(variants: object[]) =>
  Type.Unsafe<T>({ type: 'object', required: ['kind'], discriminator: { propertyName: 'kind' }, oneOf: variants })
export const SiteRedirectDestinationSchema = tagged<Destination>([
  SectionDestination,
  SiteSpaceDestination,
  PageDestination,
  ExternalDestination
])
export const SiteRedirectInputDestinationSchema = tagged<SiteRedirectInputDestination>([
  SectionDestination,
  SiteSpaceDestination,
  PageDestination,
  ExternalDestination,
  PathDestination
])

// Answers serialize the destination by its members (fast-json-stringify and tagged unions do not mix well).
const DestinationOut = Type.Unsafe<Destination>(
  Type.Object({
    kind: StringEnum(['site-section', 'site-space', 'site-page', 'external'] as const),
    siteSectionId: Type.Optional(Type.String()),
    siteSpaceId: Type.Optional(Type.String()),
    pageId: Type.Optional(Type.String()),
    url: Type.Optional(Type.String())
  })
)

export const SiteRedirectSchema = Type.Object({
  object: Type.Literal('site-redirect'),
  id: Type.String(),
  source: Type.String(),
  draft: Type.Boolean(),
  captureWildcard: Type.Boolean(),
  permanent: Type.Boolean(),
  destination: DestinationOut,
  createdAt: DateTime,
  updatedAt: Type.Optional(DateTime)
})
export type SiteRedirect = Type.Static<typeof SiteRedirectSchema>
export const SiteRedirectList = ListOf(SiteRedirectSchema)

export const SITE_REDIRECT_ORDERS = ['createdAt', 'updatedAt', 'source'] as const
export const SiteRedirectListQuery = Type.Object({
  ...PageQuery,
  search: Type.Optional(Type.String({ maxLength: REDIRECT_SOURCE_MAX, description: 'Text the source path contains' })),
  draft: Type.Optional(Type.Boolean({ description: 'List draft redirects instead of live ones (default false)' })),
  orderBy: Type.Optional(
    StringEnum(SITE_REDIRECT_ORDERS, { description: 'createdAt (newest first, the default), updatedAt (latest first) or source' })
  )
})

const PathId = Type.String({ maxLength: 100 })
export const SiteRedirectParams = Type.Object({ organizationId: PathId, siteId: PathId, siteRedirectId: PathId })

export const SiteRedirectCreateSchema = Type.Object({
  source: SiteRedirectSourcePath,
  destination: SiteRedirectInputDestinationSchema,
  captureWildcard: Type.Optional(Type.Boolean()),
  draft: Type.Optional(Type.Boolean()),
  permanent: Type.Optional(Type.Boolean())
})
export type SiteRedirectCreate = Type.Static<typeof SiteRedirectCreateSchema>

export const SiteRedirectUpdateSchema = Type.Object({
  source: Type.Optional(SiteRedirectSourcePath),
  destination: Type.Optional(SiteRedirectDestinationSchema),
  captureWildcard: Type.Optional(Type.Boolean()),
  draft: Type.Optional(Type.Boolean()),
  permanent: Type.Optional(Type.Boolean())
})
export type SiteRedirectUpdate = Type.Static<typeof SiteRedirectUpdateSchema>

export const REDIRECT_INTENTS = ['live', 'draft', 'publish'] as const
/**
 * One row of a bulk write: `live`/`draft` (default live) upserts the redirect of that source, or deletes it when
 * `destination` is null; `publish` makes the source's draft live.
 */
export const SiteRedirectBulkItem = Type.Object({
  source: SiteRedirectSourcePath,
  intent: Type.Optional(StringEnum(REDIRECT_INTENTS)),
  captureWildcard: Type.Optional(Type.Boolean()),
  permanent: Type.Optional(Type.Boolean()),
  destination: Type.Optional(
    Type.Unsafe<SiteRedirectInputDestination | null>({ if: { type: 'null' }, else: SiteRedirectInputDestinationSchema })
  )
})
export type SiteRedirectBulkItem = Type.Static<typeof SiteRedirectBulkItem>
export const SiteRedirectBulkSchema = Type.Object({
  redirects: Type.Array(SiteRedirectBulkItem, { minItems: 1, maxItems: BULK_REDIRECTS_MAX })
})
export type SiteRedirectBulk = Type.Static<typeof SiteRedirectBulkSchema>

export const REDIRECT_RESULT_STATUSES = ['created', 'updated', 'deleted', 'published'] as const
export const SiteRedirectBulkResultSchema = Type.Object({
  results: Type.Array(
    Type.Object({
      status: StringEnum(REDIRECT_RESULT_STATUSES),
      source: Type.String(),
      draft: Type.Boolean(),
      id: Type.Optional(Type.String())
    })
  )
})
export type SiteRedirectBulkResult = Type.Static<typeof SiteRedirectBulkResultSchema>

export const SiteRedirectBySourceQuery = Type.Object({
  source: SiteRedirectSourcePath,
  shareKey: Type.Optional(Type.String({ maxLength: 512 }))
})
export const SiteRedirectResolvedSchema = Type.Object({ redirect: SiteRedirectSchema, target: Type.String() })
export type SiteRedirectResolved = Type.Static<typeof SiteRedirectResolvedSchema>
