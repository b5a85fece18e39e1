import Type from 'typebox'
import { DateTime, Id, ListOf, Nullable, PageQuery, patterned, Position, StringEnum } from './common'
import { SiteCustomizationSchema } from './siteCustomization'
import { SpaceSchema } from './spaces'

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const
export const ADS_STATUSES = ['pending', 'in-review', 'live', 'rejected', 'disabled'] as const
/** `spaces` of POST /sites may be this word instead of a list: the site gets a new space of its own. */
export const NEW_SPACE = 'new'

export const HOSTNAME_PATTERN = '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$'
export const PROXY_PATTERN = '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$'
/** Site-space and section paths are URL segments of the published site. */
export const PATH_PATTERN = '^(?!\\.{1,2}$)[A-Za-z0-9._~-]+$'

// --- wire shapes ----------------------------------------------------------------------------------------

/** The site features Quire's sites have (all of them, on every site: Quire has no plans). */
export const SITE_FEATURES = [
  'sites-adaptive-content',
  'sites-basic-customization',
  'sites-custom-domain',
  'sites-custom-subdirectory',
  'sites-full-text-search',
  'sites-multivariant-site',
  'sites-public-visibility',
  'sites-sections',
  'sites-share-links',
  'sites-unlisted-visibility',
  'sites-visitor-authentication'
] as const

/** What the caller may do with a site, from their role on it (organization role and grants on the site). */
export const SitePermissionsSchema = Type.Object({
  view: Type.Boolean(),
  access: Type.Boolean(),
  edit: Type.Boolean(),
  create: Type.Boolean(),
  admin: Type.Boolean(),
  installIntegration: Type.Boolean(),
  viewAdaptiveSchema: Type.Boolean(),
  editAdaptiveSchema: Type.Boolean()
})

export const SiteSchema = Type.Object({
  object: Type.Literal('site'),
  id: Type.String(),
  type: StringEnum(SITE_TYPES),
  /** Quire applies the type it stores (no plan can freeze a site to a lower one). */
  appliedType: StringEnum(SITE_TYPES),
  title: Type.String(),
  icon: Type.Optional(
    Type.Union([
      Type.Object({ icon: Type.Object({ light: Type.String(), dark: Type.Optional(Type.String()) }) }),
      Type.String(),
      Type.Null()
    ])
  ),
  hostname: Type.Optional(Type.String()),
  basename: Type.Optional(Type.String()),
  proxy: Type.Optional(Type.Object({ origin: Type.String(), target: Type.String() })),
  visibility: StringEnum(SITE_VISIBILITIES),
  /** Members' role on the site comes from their organization role: always `inherit`. */
  defaultLevel: Type.Literal('inherit'),
  permissions: SitePermissionsSchema,
  published: Type.Boolean(),
  siteSpaces: Type.Number(),
  createdAt: DateTime,
  adaptiveContent: Type.Optional(Type.Object({ enabled: Type.Boolean() })),
  ads: Type.Optional(Type.Object({ status: StringEnum(ADS_STATUSES), submittable: Type.Boolean() })),
  features: Type.Array(Type.Object({ id: StringEnum(SITE_FEATURES), plan: StringEnum(SITE_TYPES), frozen: Type.Boolean() })),
  urls: Type.Object({
    location: Type.String(),
    app: Type.String(),
    published: Type.Optional(Type.String()),
    /** The site in the local preview; unpublished, it opens with a draft token (…/draft-preview). */
    preview: Type.String()
  })
})
export type Site = Type.Static<typeof SiteSchema>

export const SiteSpaceSchema = Type.Object({
  object: Type.Literal('site-space'),
  id: Type.String(),
  path: Type.String(),
  section: Type.Optional(Type.String()),
  space: Type.Optional(SpaceSchema),
  title: Type.String(),
  default: Type.Optional(Type.Boolean()),
  condition: Type.Optional(Type.String()),
  hasAdvancedCustomizationFeature: Type.Optional(Type.Boolean()),
  /** Not live: the site is unpublished (readers reach it only through a draft preview). */
  draft: Type.Boolean(),
  urls: Type.Object({ published: Type.Optional(Type.String()) })
})
export type SiteSpace = Type.Static<typeof SiteSpaceSchema>

export const SiteSectionSchema = Type.Object({
  object: Type.Literal('site-section'),
  id: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  default: Type.Boolean(),
  path: Type.String(),
  condition: Type.Optional(Type.String()),
  sectionGroup: Type.Optional(Type.String()),
  siteSpaces: Type.Array(SiteSpaceSchema),
  /** Not live: the site is unpublished. */
  draft: Type.Boolean(),
  urls: Type.Object({ published: Type.Optional(Type.String()) }),
  icon: Type.Optional(Type.String())
})
export type SiteSection = Type.Static<typeof SiteSectionSchema>

export const SiteSectionGroupSchema = Type.Object({
  object: Type.Literal('site-section-group'),
  id: Type.String(),
  title: Type.String(),
  icon: Type.Optional(Type.String()),
  /** Not live: the site is unpublished. */
  draft: Type.Boolean(),
  /** The same sections as `children` (the older name); groups do not nest in Quire. */
  sections: Type.Array(SiteSectionSchema),
  children: Type.Array(SiteSectionSchema)
})
export type SiteSectionGroup = Type.Static<typeof SiteSectionGroupSchema>

export const ShareLinkSchema = Type.Object({
  object: Type.Literal('share-link'),
  id: Type.String(),
  createdAt: DateTime,
  name: Type.Optional(Type.String()),
  active: Type.Optional(Type.Boolean()),
  urls: Type.Object({
    published: Type.String({
      description: "The site's URL; in the answer that creates the link only, with the link's key as shareKey (it is stored hashed)"
    })
  })
})
export type ShareLink = Type.Static<typeof ShareLinkSchema>

const JsonObject = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true })

export const SiteAdaptiveSchemaSchema = Type.Object({
  object: Type.Literal('site-adaptive-schema'),
  jsonSchema: JsonObject,
  updatedAt: DateTime
})
export type SiteAdaptiveSchema = Type.Static<typeof SiteAdaptiveSchemaSchema>

/**
 * The published site. With sections, `structure` lists the top of the site in order: sections outside any
 * group and section groups (each with its sections); without sections it lists the site spaces.
 */
export const PublishedSiteSchema = Type.Object({
  object: Type.Literal('published-content-site'),
  site: SiteSchema,
  structure: Type.Object({
    type: StringEnum(['sections', 'siteSpaces'] as const),
    structure: Type.Array(Type.Union([SiteSectionSchema, SiteSectionGroupSchema, SiteSpaceSchema]))
  }),
  /** No site space overrides the site's customization in Quire: always `{}`. */
  customizations: Type.Object({
    site: SiteCustomizationSchema,
    siteSpaces: Type.Record(Type.String(), SiteCustomizationSchema, { maxProperties: 0 })
  }),
  /** Integrations run no scripts on Quire's sites: always empty. */
  scripts: Type.Array(Type.Unknown(), { maxItems: 0 })
})
export type PublishedSite = Type.Static<typeof PublishedSiteSchema>

export const SiteList = ListOf(SiteSchema)
export const SiteSpaceList = ListOf(SiteSpaceSchema)
export const SiteSectionList = ListOf(SiteSectionSchema)
export const SiteSectionGroupList = ListOf(SiteSectionGroupSchema)
export const ShareLinkList = ListOf(ShareLinkSchema)

// --- parameters and queries -----------------------------------------------------------------------------

const PathId = Type.String({ maxLength: 100 })
export const SiteParams = Type.Object({ organizationId: PathId, siteId: PathId })
export const SiteSpaceParams = Type.Object({ organizationId: PathId, siteId: PathId, siteSpaceId: PathId })
export const SiteSectionParams = Type.Object({ organizationId: PathId, siteId: PathId, siteSectionId: PathId })
export const SiteSectionGroupParams = Type.Object({ organizationId: PathId, siteId: PathId, siteSectionGroupId: PathId })
export const SiteGroupSectionParams = Type.Object({
  organizationId: PathId,
  siteId: PathId,
  siteSectionGroupId: PathId,
  siteSectionId: PathId
})
export const ShareLinkParams = Type.Object({ organizationId: PathId, siteId: PathId, shareLinkId: PathId })

const ShareKey = Type.String({
  minLength: 1,
  maxLength: 512,
  description: 'Key of an active share link; resolves published URLs of share-link sites'
})

export const SiteListQuery = Type.Object({
  ...PageQuery,
  space: Type.Optional(Type.String({ maxLength: 100, description: 'Only sites that link this space' })),
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Case-insensitive substring of the title' })),
  published: Type.Optional(Type.Boolean())
})
export const SitePublishedQuery = Type.Object({ shareKey: Type.Optional(ShareKey) })
export const SiteSpaceListQuery = Type.Object({
  ...PageQuery,
  shareKey: Type.Optional(ShareKey),
  default: Type.Optional(Type.Boolean({ description: 'true: only the default site spaces; false: only the others' }))
})
export const SitePageQuery = Type.Object({ ...PageQuery })

// --- bodies ---------------------------------------------------------------------------------------------

const Title = Type.String({ minLength: 2, maxLength: 128 })
const SitePath = Type.String({
  minLength: 1,
  maxLength: 100,
  ...patterned(PATH_PATTERN, 'letters, digits, ., _, ~ and -, other than . and ..')
})
const Condition = Type.String({ minLength: 1, maxLength: 1024, description: 'Expression over visitor.claims deciding who sees it' })
const Icon = Type.String({ maxLength: 50, description: 'Icon name' })

export const SiteCreateSchema = Type.Object({
  type: Type.Optional(StringEnum(SITE_TYPES)),
  title: Type.Optional(Title),
  visibility: Type.Optional(StringEnum(SITE_VISIBILITIES)),
  spaces: Type.Optional(
    Type.Union([
      Type.Array(Id, { maxItems: 100, uniqueItems: true, description: 'Spaces to link, in order' }),
      StringEnum([NEW_SPACE] as const, { description: 'Create a new space for the site' })
    ])
  )
})

export const SiteUpdateSchema = Type.Object({
  title: Type.Optional(Title),
  visibility: Type.Optional(StringEnum(SITE_VISIBILITIES)),
  basename: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  hostname: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 512,
        ...patterned(HOSTNAME_PATTERN, 'a lower-case host name of three labels or more, like docs.example.com')
      })
    )
  ),
  adaptiveContent: Type.Optional(Type.Object({ enabled: Type.Boolean() })),
  defaultSiteSpace: Type.Optional(Id),
  defaultSiteSection: Type.Optional(Id),
  proxy: Type.Optional(
    Nullable(Type.String({ maxLength: 512, ...patterned(PROXY_PATTERN, 'a domain and a path, without the scheme, like example.com/docs') }))
  )
})

export const SiteAdaptiveSchemaPutSchema = Type.Object({ jsonSchema: JsonObject })

export const SiteSpaceCreateSchema = Type.Object({ spaceId: Id, sectionId: Type.Optional(Id) })

export const SiteSpaceUpdateSchema = Type.Object({
  path: Type.Optional(SitePath),
  condition: Type.Optional(Nullable(Condition))
})

export const SiteSpaceMoveSchema = Type.Object({
  position: Type.Optional(Position(Type.Object({ type: Type.Literal('site-space'), siteSpace: Id })))
})

/** Anchor among the top of a site's structure (sections and groups) or among a group's sections. */
const SectionAnchor = Type.Object({ type: StringEnum(['site-section', 'site-section-group'] as const), id: Id })

export const SiteSectionCreateSchema = Type.Object({
  spaceId: Nullable(Id),
  title: Type.Optional(Title),
  path: Type.Optional(SitePath),
  icon: Type.Optional(Icon)
})

export const SiteSectionUpdateSchema = Type.Object({
  title: Type.Optional(Title),
  path: Type.Optional(SitePath),
  icon: Type.Optional(Nullable(Icon)),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
  defaultSiteSpace: Type.Optional(Id),
  condition: Type.Optional(Nullable(Condition))
})

export const SiteSectionMoveSchema = Type.Object({ position: Type.Optional(Position(SectionAnchor)) })

export const SiteSectionGroupCreateSchema = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 100 }),
  icon: Type.Optional(Nullable(Icon)),
  sections: Type.Optional(Type.Array(Id, { maxItems: 100, uniqueItems: true }))
})

export const SiteSectionGroupUpdateSchema = Type.Object({
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  icon: Type.Optional(Nullable(Icon))
})

export const SiteSectionGroupAddSchema = Type.Object({ sectionId: Id })
export const SiteSectionGroupMoveSchema = Type.Object({ position: Type.Optional(Position(SectionAnchor)) })

export const ShareLinkCreateSchema = Type.Object({ name: Type.String({ minLength: 1, maxLength: 50 }) })
export const ShareLinkUpdateSchema = Type.Object({
  active: Type.Optional(Type.Boolean()),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 50 }))
})
