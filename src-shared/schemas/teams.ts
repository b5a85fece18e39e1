import Type from 'typebox'
import { DateTime, ListOf, PageQuery, StringEnum } from './common'
import { MemberSchema } from './members'

export const TEAM_ROLES = ['owner', 'member'] as const
export type TeamRole = (typeof TEAM_ROLES)[number]
export const TeamRoleSchema = StringEnum(TEAM_ROLES, { description: 'owner: manages the team members; member: belongs to it' })

export const TeamSchema = Type.Object({
  object: Type.Literal('team'),
  id: Type.String(),
  title: Type.String(),
  members: Type.Number(),
  spaces: Type.Number({ description: 'Spaces granted to the team' }),
  createdAt: DateTime,
  permissions: Type.Object({ admin: Type.Boolean(), view: Type.Boolean() })
})
export type Team = Type.Static<typeof TeamSchema>

const Title = Type.String({ minLength: 1, maxLength: 64 })
/** A user id, or the e-mail of an organization member. */
const MemberRef = Type.String({ minLength: 1, maxLength: 320 })

export const TeamListParams = Type.Object({ organizationId: Type.String({ maxLength: 100 }) })
export const TeamParams = Type.Object({ organizationId: Type.String({ maxLength: 100 }), teamId: Type.String({ maxLength: 100 }) })
export const TeamMemberParams = Type.Object({
  organizationId: Type.String({ maxLength: 100 }),
  teamId: Type.String({ maxLength: 100 }),
  userId: Type.String({ maxLength: 100 })
})

export const TeamListQuery = Type.Object({
  ...PageQuery,
  owner: Type.Optional(Type.String({ maxLength: 100, description: 'Member id: only the teams this member owns' })),
  title: Type.Optional(Type.String({ maxLength: 64, description: 'Case-insensitive part of the title' }))
})
export const TeamList = ListOf(TeamSchema)

export const TeamCreateSchema = Type.Object({
  title: Title,
  members: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 1000, description: 'Member ids' }))
})
export const TeamUpdateSchema = Type.Object({ title: Title })

export const TeamMembersQuery = Type.Object({ ...PageQuery })
export const TeamMemberSchema = Type.Object({
  organization: MemberSchema,
  team: Type.Object({ role: TeamRoleSchema }),
  permissions: Type.Object({ view: Type.Boolean() })
})
export const TeamMemberList = ListOf(TeamMemberSchema)

export const TeamMembersUpdateSchema = Type.Object({
  add: Type.Optional(Type.Array(MemberRef, { maxItems: 1000 })),
  remove: Type.Optional(Type.Array(MemberRef, { maxItems: 1000 })),
  memberships: Type.Optional(
    Type.Record(Type.String({ maxLength: 320 }), Type.Object({ role: TeamRoleSchema }), {
      maxProperties: 1000,
      description: 'Team role per user id (or e-mail); a user listed here and not removed is added with that role'
    })
  )
})

export const TeamMemberSetSchema = Type.Object({ role: Type.Optional(TeamRoleSchema) })

/** A member's teams: `GET /orgs/{organizationId}/members/{userId}/teams`. */
export const MemberTeamsQuery = Type.Object({
  ...PageQuery,
  title: Type.Optional(Type.String({ maxLength: 64, description: 'Case-insensitive part of the title' }))
})
export const MemberTeamSchema = Type.Object({ team: TeamSchema, member: Type.Object({ role: TeamRoleSchema }) })
export const MemberTeamList = ListOf(MemberTeamSchema)
