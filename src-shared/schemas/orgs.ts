import Type from 'typebox'
import { OrgMergeRulesSchema } from './reviews'
import { DateTime, ListOf, Nullable, NullableRoleSchema, PageQuery, patterned, StringEnum, UserSchema } from './common'

export const ORG_TYPES = ['business', 'community'] as const
export const ORG_USE_CASES = [
  'internalDocs',
  'docsSite',
  'audienceControlledSite',
  'productDocs',
  'teamKnowledgeBase',
  'designSystem',
  'openSourceDocs',
  'notes',
  'other'
] as const
export const ORG_COMMUNITY_TYPES = ['nonProfit', 'openSource', 'education'] as const

const SitePointer = Type.Object({ type: Type.Literal('site'), site: Type.String() })

export const OrganizationSchema = Type.Object({
  object: Type.Literal('organization'),
  id: Type.String(),
  title: Type.String(),
  createdAt: DateTime,
  emailDomains: Type.Array(Type.String()),
  hostname: Type.Optional(Type.String()),
  type: StringEnum(ORG_TYPES),
  useCase: Type.Optional(StringEnum(ORG_USE_CASES)),
  communityType: Type.Optional(StringEnum(ORG_COMMUNITY_TYPES)),
  defaultRole: NullableRoleSchema,
  defaultContent: Type.Optional(SitePointer),
  sso: Type.Boolean(),
  ai: Type.Boolean(),
  inviteLinks: Type.Boolean(),
  plan: Type.String(),
  customHostname: Type.Optional(Type.String()),
  mergeRules: OrgMergeRulesSchema,
  trial: Type.Object({
    status: StringEnum(['notapplicable'], { description: 'Quire has no trials: never applicable' }),
    count: Type.Integer({ description: 'Trials consumed: always 0' })
  }),
  urls: Type.Object({ location: Type.String(), app: Type.String(), logo: Type.Optional(Type.String()) }),
  permissions: Type.Object({
    view: Type.Boolean(),
    access: Type.Boolean(),
    admin: Type.Boolean(),
    ownTeam: Type.Boolean(),
    createContent: Type.Boolean(),
    createOpenAPISpec: Type.Boolean(),
    viewBilling: Type.Boolean(),
    listMembers: Type.Boolean(),
    listTeams: Type.Boolean(),
    listIntegrations: Type.Boolean(),
    listInstallations: Type.Boolean(),
    installIntegration: Type.Boolean()
  })
})
export type Organization = Type.Static<typeof OrganizationSchema>

export const OrgParams = Type.Object({ organizationId: Type.String({ maxLength: 100 }) })

export const OrgListQuery = Type.Object({ ...PageQuery })
export const OrgList = ListOf(OrganizationSchema)

const Domain = Type.String({
  minLength: 1,
  maxLength: 253,
  ...patterned('^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+$', 'a domain name, like example.com')
})

export const OrgCreateSchema = Type.Object({
  title: Type.String({ minLength: 2, maxLength: 255 }),
  emailDomains: Type.Optional(Type.Array(Domain, { maxItems: 50 }))
})

export const OrgUpdateSchema = Type.Object({
  title: Type.Optional(Type.String({ minLength: 2, maxLength: 255 })),
  emailDomains: Type.Optional(Type.Array(Domain, { maxItems: 50 })),
  hostname: Type.Optional(
    Nullable(
      Type.String({
        minLength: 3,
        maxLength: 32,
        ...patterned('^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$', 'lower-case letters, digits and -, not at either end')
      })
    )
  ),
  defaultRole: Type.Optional(NullableRoleSchema),
  defaultContent: Type.Optional(Nullable(SitePointer)),
  logo: Type.Optional(Nullable(Type.String({ maxLength: 2048, format: 'uri' }))),
  sso: Type.Optional(Type.Boolean()),
  ai: Type.Optional(Type.Boolean()),
  inviteLinks: Type.Optional(Type.Boolean()),
  mergeRules: Type.Optional(OrgMergeRulesSchema)
})

export const EmailDomainParams = Type.Object({ emailDomain: Type.String({ minLength: 1, maxLength: 253 }) })
export const EmailDomainOrgs = Type.Object({ organizations: Type.Array(OrganizationSchema) })

export const CurrentUserSchema = UserSchema
