import Type from 'typebox'
import { DateTime, ListOf, Nullable, NullableRoleSchema, PageQuery, StringEnum } from './common'
import { TeamSchema } from './teams'

export const SamlProviderSchema = Type.Object({
  object: Type.Literal('saml-provider'),
  id: Type.String(),
  label: Type.String(),
  ssoURL: Type.Optional(Type.String()),
  entityID: Type.Optional(Type.String()),
  certificate: Type.Optional(Type.String({ description: 'PEM X.509 certificate of the identity provider' })),
  defaultTeam: Type.Optional(TeamSchema),
  defaultRole: NullableRoleSchema,
  createdAt: DateTime,
  /** `active` once ssoURL, entityID and certificate are all set; `pending` before. */
  status: StringEnum(['active', 'pending'] as const),
  service: Type.Object({
    acsURL: Type.String({ description: 'Assertion Consumer Service URL to configure at the identity provider' }),
    startURL: Type.String({ description: 'Where a sign-in through this provider starts' }),
    entityID: Type.String({ description: 'Entity ID of this service provider' })
  }),
  urls: Type.Object({ location: Type.String() })
})
export type SamlProvider = Type.Static<typeof SamlProviderSchema>

export const SamlProviderList = ListOf(SamlProviderSchema)
export const SamlProviderListQuery = Type.Object({ ...PageQuery })

export const SamlOrgParams = Type.Object({ organizationId: Type.String({ maxLength: 100 }) })
export const SamlProviderParams = Type.Object({
  organizationId: Type.String({ maxLength: 100 }),
  samlProviderId: Type.String({ maxLength: 100 })
})

const Label = Type.String({ minLength: 1, maxLength: 30 })
const EntityId = Type.String({ maxLength: 1024 })
const Certificate = Type.String({
  maxLength: 10000,
  description: 'X.509 certificate: PEM (-----BEGIN CERTIFICATE-----) or its base64 body alone, as identity providers show it'
})
const SsoUrl = Type.String({ maxLength: 2048, format: 'uri', description: 'http or https URL of the identity provider' })
const DefaultTeam = Nullable(Type.String({ minLength: 1, maxLength: 100, description: 'Team id of this organization; null: none' }))

export const SamlProviderCreateSchema = Type.Object({
  label: Label,
  entityID: Type.Optional(EntityId),
  certificate: Type.Optional(Certificate),
  ssoURL: Type.Optional(SsoUrl),
  defaultTeam: Type.Optional(DefaultTeam),
  defaultRole: Type.Optional(NullableRoleSchema)
})

export const SamlProviderUpdateSchema = Type.Object({
  label: Type.Optional(Label),
  entityID: Type.Optional(EntityId),
  certificate: Type.Optional(Certificate),
  ssoURL: Type.Optional(SsoUrl),
  defaultTeam: Type.Optional(DefaultTeam),
  defaultRole: Type.Optional(NullableRoleSchema)
})

export const SsoLoginInfoSchema = Type.Object({ id: Type.String(), label: Type.String(), startURL: Type.String() })
export const SsoLoginInfoList = Type.Object({ items: Type.Array(SsoLoginInfoSchema) })
