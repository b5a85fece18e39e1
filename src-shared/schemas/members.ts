import Type from 'typebox'
import { DateTime, ListOf, NullableRoleSchema, Order, PageQuery, RoleSchema, StringEnum, UserSchema, type Role } from './common'
import { SpaceSchema } from './spaces'

export const MemberSchema = Type.Object({
  object: Type.Literal('member'),
  id: Type.String({ description: 'The user id' }),
  role: NullableRoleSchema,
  user: UserSchema,
  disabled: Type.Boolean(),
  joinedAt: DateTime,
  lastSeenAt: Type.Optional(DateTime),
  sso: Type.Boolean(),
  spaces: Type.Number({ description: 'Spaces with a direct grant to the member' }),
  teams: Type.Number({ description: 'Teams the member belongs to' }),
  sites: Type.Number({ description: 'Sites with a direct grant to the member' })
})
export type Member = Type.Static<typeof MemberSchema>

export const MemberParams = Type.Object({
  organizationId: Type.String({ maxLength: 100 }),
  userId: Type.String({ maxLength: 100 })
})

export const MEMBER_SORTS = ['joinedAt', 'lastSeenAt'] as const

export const MemberListQuery = Type.Object({
  ...PageQuery,
  order: Type.Optional(Order),
  role: Type.Optional(RoleSchema),
  search: Type.Optional(Type.String({ maxLength: 320, description: 'Case-insensitive part of the display name or e-mail' })),
  sort: Type.Optional(StringEnum(MEMBER_SORTS, { description: 'lastSeenAt lists only members seen at least once' }))
})
export const MemberList = ListOf(MemberSchema)

export const MemberUpdateSchema = Type.Object({
  role: NullableRoleSchema
})

export const PingResultSchema = Type.Object({
  serviceVisitorClaims: Type.String({ description: 'A JWT (HS256) with sub, org, role, iat and exp' })
})

export const MemberSpacesQuery = Type.Object({ ...PageQuery, order: Type.Optional(Order) })
export const MemberSpaceSchema = Type.Object({ permission: RoleSchema, space: SpaceSchema })
export const MemberSpaceList = ListOf(MemberSpaceSchema)

// --- invites ------------------------------------------------------------------------------------------------

const Email = Type.String({ format: 'email', maxLength: 320 })

/** One invited address: a bare e-mail, or `{email, role}` (the role overrides the request's `role`). */
export const InviteeSchema = Type.Unsafe<string | { email: string; role?: Role | null }>({
  if: { type: 'string' },
  then: Email,
  else: Type.Object({ email: Email, role: Type.Optional(NullableRoleSchema) })
})

export const InviteCreateSchema = Type.Object({
  emails: Type.Array(InviteeSchema, { minItems: 1, maxItems: 100 }),
  role: Type.Optional(NullableRoleSchema)
})

export const InviteSchema = Type.Object({
  object: Type.Literal('invite'),
  id: Type.String(),
  role: NullableRoleSchema,
  redundant: Type.Boolean({ description: "true when the role is the organization's defaultRole" })
})
export type Invite = Type.Static<typeof InviteSchema>

export const InviteParams = Type.Object({
  organizationId: Type.String({ maxLength: 100 }),
  inviteId: Type.String({ maxLength: 100 })
})
export const InviteListQuery = Type.Object({ ...PageQuery })
export const InviteList = ListOf(InviteSchema)
export const LinkInviteCreateSchema = Type.Object({ role: NullableRoleSchema })
export const LinkInviteUpdateSchema = Type.Object({ role: NullableRoleSchema })
