import Type from 'typebox'
import { ListOf, PageQuery, RoleSchema, StringEnum, UserSchema } from './common'
import { TeamSchema } from './teams'

/** Who holds a role on a space or collection directly, and where everyone's effective role comes from. */

export const UserPermissionSchema = Type.Object({ permission: RoleSchema, user: UserSchema })
export type UserPermission = Type.Static<typeof UserPermissionSchema>
export const TeamPermissionSchema = Type.Object({ permission: RoleSchema, team: TeamSchema })
export type TeamPermission = Type.Static<typeof TeamPermissionSchema>

export const PERMISSION_SOURCE_TYPES = [
  'organization',
  'general',
  'direct',
  'team',
  'collection',
  'collection-team',
  'collection-general'
] as const
export type PermissionSourceType = (typeof PERMISSION_SOURCE_TYPES)[number]

const Named = Type.Object({ id: Type.String(), title: Type.String() })

export const PermissionSourceSchema = Type.Object(
  {
    type: StringEnum(PERMISSION_SOURCE_TYPES, {
      description:
        'organization: the organization role; general: the general access of the object; direct: a grant to the user; team: a grant to a team of theirs; collection, collection-team, collection-general: the same on a collection the object is in'
    }),
    role: RoleSchema,
    team: Type.Optional(Named),
    collection: Type.Optional(Named)
  },
  { description: 'One reason for a role (Quire addition)' }
)
export type PermissionSource = Type.Static<typeof PermissionSourceSchema>

export const AggregatePermissionSchema = Type.Object({
  permission: RoleSchema,
  user: UserSchema,
  sources: Type.Array(PermissionSourceSchema, { description: 'Every reason for a role here, highest first (Quire addition)' })
})
export type AggregatePermission = Type.Static<typeof AggregatePermissionSchema>

export const UserPermissionList = ListOf(UserPermissionSchema)
export const TeamPermissionList = ListOf(TeamPermissionSchema)
export const AggregatePermissionList = ListOf(AggregatePermissionSchema)

export const PermissionListQuery = Type.Object({ ...PageQuery })
export const AggregatePermissionQuery = Type.Object({ ...PageQuery, role: Type.Optional(RoleSchema) })

export const PermissionUpdateSchema = Type.Object({ role: RoleSchema })

const Id = Type.String({ maxLength: 100 })
export const SpaceUserParams = Type.Object({ spaceId: Id, userId: Id })
export const SpaceTeamParams = Type.Object({ spaceId: Id, teamId: Id })
export const CollectionUserParams = Type.Object({ collectionId: Id, userId: Id })
export const CollectionTeamParams = Type.Object({ collectionId: Id, teamId: Id })
export const SiteUserParams = Type.Object({ organizationId: Id, siteId: Id, userId: Id })
export const SiteTeamParams = Type.Object({ organizationId: Id, siteId: Id, teamId: Id })

/** A space granted to a team (Quire addition: the team's page lists them). */
export const TeamSpacePermissionSchema = Type.Object({ permission: RoleSchema, space: Named })
export const TeamSpacePermissionList = ListOf(TeamSpacePermissionSchema)
export type TeamSpacePermission = Type.Static<typeof TeamSpacePermissionSchema>
