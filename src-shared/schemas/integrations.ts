import Type from 'typebox'
import { DateTime, ListOf, PageQuery, patterned, StringEnum } from './common'
import { OrganizationSchema } from './orgs'

export const INTEGRATION_VISIBILITIES = ['public', 'private', 'unlisted'] as const
export type IntegrationVisibility = (typeof INTEGRATION_VISIBILITIES)[number]
export const INTEGRATION_TARGETS = ['all', 'site', 'space', 'organization'] as const
export type IntegrationTarget = (typeof INTEGRATION_TARGETS)[number]
export const INTEGRATION_CATEGORIES = ['analytics', 'collaboration', 'content', 'marketing', 'visitor-auth', 'other'] as const
export type IntegrationCategory = (typeof INTEGRATION_CATEGORIES)[number]
/** The scopes the hosted service's integration manifests accept. */
export const INTEGRATION_SCOPES = [
  'space:views:read',
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:git:sync',
  'space:visitor:auth',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:metadata:read',
  'site:visitor:auth',
  'site:visitor:claims',
  'site:adaptive:read',
  'site:adaptive:write',
  'openapi:read',
  'openapi:write',
  'conversations:ingest'
] as const
export const INSTALLATION_STATUSES = ['active', 'pending', 'paused'] as const
export const CONFIGURATION_PROPERTY_TYPES = ['string', 'number', 'boolean', 'button'] as const

export const INTEGRATION_NAME_PATTERN = '^[a-zA-Z0-9-_.]+$'
/** Icon and each preview image, decoded. */
export const INTEGRATION_IMAGE_MAX_BYTES = 1024 * 1024
/** Base64 of 1 MB is 1,398,104 characters; a `data:` URI prefix adds a few more. */
const IMAGE_MAX_CHARS = 1_400_200

const NAME_HINT = 'letters, digits, -, _ and .'
const Name = Type.String({ minLength: 1, maxLength: 100, ...patterned(INTEGRATION_NAME_PATTERN, NAME_HINT) })
const Image = Type.String({
  minLength: 1,
  maxLength: IMAGE_MAX_CHARS,
  description: 'An image as base64 (or a base64 data: URI), at most 1 MB decoded'
})

const ConfigurationProperty = Type.Object({
  type: StringEnum(CONFIGURATION_PROPERTY_TYPES),
  title: Type.Optional(Type.String({ maxLength: 100 })),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  default: Type.Optional(Type.Unknown()),
  completion_url: Type.Optional(Type.String({ maxLength: 2048 })),
  enum: Type.Optional(Type.Array(Type.Union([Type.String({ maxLength: 256 }), Type.Number()]), { maxItems: 100 })),
  button_text: Type.Optional(Type.String({ maxLength: 100 })),
  callback_url: Type.Optional(Type.String({ maxLength: 2048 }))
})
const ConfigurationSchema = Type.Object({
  properties: Type.Record(Type.String(), ConfigurationProperty, { maxProperties: 100 }),
  required: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 }))
})
const Configurations = Type.Object({
  account: Type.Optional(ConfigurationSchema),
  space: Type.Optional(ConfigurationSchema),
  site: Type.Optional(ConfigurationSchema)
})

const Block = Type.Object({
  id: Name,
  title: Type.String({ minLength: 1, maxLength: 100 }),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  icon: Type.Optional(Type.String({ maxLength: 2048 })),
  urlUnfurl: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), { maxItems: 50 })),
  markdown: Type.Optional(
    Type.Object({ codeblock: Type.String({ minLength: 1, maxLength: 100 }), body: Type.String({ maxLength: 10_000 }) })
  )
})
const ContentSource = Type.Object({
  id: Name,
  title: Type.String({ minLength: 1, maxLength: 100 }),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  icon: Type.Optional(Type.String({ maxLength: 2048 })),
  configuration: Type.Optional(Type.Object({ componentId: Type.String({ minLength: 1, maxLength: 100 }) }))
})
const ExternalLink = Type.Object({
  url: Type.String({ format: 'uri', maxLength: 2048 }),
  label: Type.String({ minLength: 1, maxLength: 100 })
})

export const IntegrationSchema = Type.Object({
  object: Type.Literal('integration'),
  name: Type.String(),
  version: Type.Number(),
  title: Type.String(),
  description: Type.String(),
  summary: Type.Optional(Type.String()),
  previewImages: Type.Array(Type.String({ description: 'Image URL' })),
  target: StringEnum(INTEGRATION_TARGETS),
  verified: Type.Boolean(),
  visibility: StringEnum(INTEGRATION_VISIBILITIES),
  scopes: Type.Array(StringEnum(INTEGRATION_SCOPES)),
  categories: Type.Array(StringEnum(INTEGRATION_CATEGORIES)),
  blocks: Type.Array(Block),
  contentSources: Type.Array(ContentSource),
  configurations: Configurations,
  externalLinks: Type.Array(ExternalLink),
  owner: OrganizationSchema,
  urls: Type.Object({
    location: Type.String(),
    app: Type.String(),
    icon: Type.Optional(Type.String()),
    assets: Type.String(),
    publicEndpoint: Type.Optional(Type.String())
  }),
  permissions: Type.Object({ admin: Type.Boolean(), install: Type.Boolean() }),
  contentSecurityPolicy: Type.Optional(Type.String())
})
export type Integration = Type.Static<typeof IntegrationSchema>

export const IntegrationPublishSchema = Type.Object({
  title: Type.String({ minLength: 2, maxLength: 30 }),
  description: Type.String({ maxLength: 100 }),
  summary: Type.Optional(Type.String({ maxLength: 2048, description: 'Markdown' })),
  icon: Type.Optional(Image),
  previewImages: Type.Optional(Type.Array(Image, { maxItems: 3 })),
  visibility: Type.Optional(StringEnum(INTEGRATION_VISIBILITIES, { description: 'Default private' })),
  target: Type.Optional(StringEnum(INTEGRATION_TARGETS, { description: 'When absent, installable at all targets' })),
  scopes: Type.Optional(Type.Array(StringEnum(INTEGRATION_SCOPES), { maxItems: INTEGRATION_SCOPES.length, uniqueItems: true })),
  categories: Type.Optional(Type.Array(StringEnum(INTEGRATION_CATEGORIES), { maxItems: INTEGRATION_CATEGORIES.length, uniqueItems: true })),
  blocks: Type.Optional(Type.Array(Block, { maxItems: 50 })),
  contentSources: Type.Optional(Type.Array(ContentSource, { maxItems: 50 })),
  externalLinks: Type.Optional(Type.Array(ExternalLink, { maxItems: 20 })),
  configurations: Type.Optional(Configurations),
  script: Type.String({ minLength: 1, maxLength: 10 * 1024 * 1024, description: 'The integration script (stored, not run by Quire)' }),
  organization: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'Id or hostname (subdomain) of the owner organization; the caller must be its admin'
  }),
  secrets: Type.Optional(
    Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 10_000 }), {
      maxProperties: 100,
      description: 'Stored, never answered'
    })
  ),
  contentSecurityPolicy: Type.Optional(Type.String({ maxLength: 10_000 }))
})
export type IntegrationPublish = Type.Static<typeof IntegrationPublishSchema>

export const IntegrationParams = Type.Object({ integrationName: Name })

export const IntegrationListQuery = Type.Object({
  ...PageQuery,
  search: Type.Optional(Type.String({ maxLength: 100, description: 'Substring of the name or title (case-insensitive)' })),
  category: Type.Optional(StringEnum(INTEGRATION_CATEGORIES)),
  blockDomain: Type.Optional(
    Type.String({ maxLength: 100, ...patterned(INTEGRATION_NAME_PATTERN, NAME_HINT), description: 'Host name one of its blocks unfurls' })
  ),
  blocks: Type.Optional(Type.Boolean({ description: 'Only integrations with (true) or without (false) blocks' })),
  contentSources: Type.Optional(Type.Boolean({ description: 'Only integrations with (true) or without (false) content sources' })),
  owner: Type.Optional(Type.String({ maxLength: 100, description: 'Owner organization id' }))
})
export const IntegrationList = ListOf(IntegrationSchema)

export const InstallationSchema = Type.Object({
  id: Type.String(),
  integration: Type.String({ description: 'Name of the integration' }),
  status: StringEnum(INSTALLATION_STATUSES),
  space_selection: StringEnum(['all', 'selected'] as const),
  site_selection: StringEnum(['all', 'selected'] as const),
  spaces: Type.Number({ description: 'Spaces it is installed on' }),
  configuration: Type.Record(Type.String(), Type.Unknown()),
  externalIds: Type.Array(Type.String()),
  target: Type.Object({ organization: Type.String() }),
  /** Integrations run no code in Quire: installations have no public endpoint. */
  urls: Type.Object({ location: Type.String(), app: Type.String() }),
  createdAt: DateTime,
  updatedAt: DateTime
})
export type Installation = Type.Static<typeof InstallationSchema>

export const InstallationListQuery = Type.Object({
  ...PageQuery,
  externalId: Type.Optional(Type.String({ maxLength: 200 }))
})
export const InstallationList = ListOf(InstallationSchema)

/** Quire extension: install an integration into an organization the caller administers. */
export const InstallationCreateSchema = Type.Object({
  organization: Type.String({ minLength: 1, maxLength: 100, description: 'Id or hostname of the organization to install into' }),
  externalIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 20, uniqueItems: true })),
  configuration: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { maxProperties: 100 }))
})

const ConfigurationValues = Type.Record(Type.String(), Type.Unknown(), {
  maxProperties: 100,
  description: "Values for the integration's configuration schema of that target (checked: types, enum, required)"
})

export const InstallationParams = Type.Object({ integrationName: Name, installationId: Type.String({ minLength: 1, maxLength: 100 }) })

export const InstallationUpdateSchema = Type.Object(
  {
    configuration: Type.Optional(ConfigurationValues),
    externalIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 20, uniqueItems: true }))
  },
  { minProperties: 1 }
)

/** An organization's installations, each with its integration. */
export const OrganizationInstallationList = ListOf(Type.Object({ installation: InstallationSchema, integration: IntegrationSchema }))

export const SpaceInstallationSchema = Type.Object({
  integration: Type.String({ description: 'Name of the integration' }),
  installation: Type.String({ description: 'Id of the organization installation' }),
  space: Type.String({ description: 'Id of the space' }),
  status: StringEnum(INSTALLATION_STATUSES),
  configuration: Type.Record(Type.String(), Type.Unknown()),
  /** Only organization installations carry external ids: always empty. */
  externalIds: Type.Array(Type.String(), { maxItems: 0 }),
  urls: Type.Object({ location: Type.String() }),
  createdAt: DateTime,
  updatedAt: DateTime
})
export type SpaceInstallation = Type.Static<typeof SpaceInstallationSchema>
export const SiteInstallationSchema = Type.Object({
  integration: Type.String({ description: 'Name of the integration' }),
  installation: Type.String({ description: 'Id of the organization installation' }),
  site: Type.String({ description: 'Id of the site' }),
  status: StringEnum(INSTALLATION_STATUSES),
  configuration: Type.Record(Type.String(), Type.Unknown()),
  /** Only organization installations carry external ids: always empty. */
  externalIds: Type.Array(Type.String(), { maxItems: 0 }),
  urls: Type.Object({ location: Type.String() }),
  createdAt: DateTime,
  updatedAt: DateTime
})
export type SiteInstallation = Type.Static<typeof SiteInstallationSchema>
export const SpaceInstallationList = ListOf(SpaceInstallationSchema)
export const SiteInstallationList = ListOf(SiteInstallationSchema)

export const SpaceInstallationParams = Type.Object({
  ...InstallationParams.properties,
  spaceId: Type.String({ minLength: 1, maxLength: 100 })
})
export const SiteInstallationParams = Type.Object({
  ...InstallationParams.properties,
  siteId: Type.String({ minLength: 1, maxLength: 100 })
})
export const SpaceInstallationCreateSchema = Type.Object({
  space: Type.String({ minLength: 1, maxLength: 100 }),
  configuration: Type.Optional(ConfigurationValues)
})
export const SiteInstallationCreateSchema = Type.Object({
  site: Type.String({ minLength: 1, maxLength: 100 }),
  configuration: Type.Optional(ConfigurationValues)
})
export const TargetInstallationUpdateSchema = Type.Object({ configuration: ConfigurationValues })
