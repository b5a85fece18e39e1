import Type from 'typebox'
import { SpaceMergeRulesSchema } from './reviews'
import { DateTime, ListOf, NullableEnum, NullableRoleSchema, PageQuery, Position, ROLES, StringEnum } from './common'

export const SPACE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const
export const EDIT_MODES = ['live', 'locked'] as const

export const SpaceSchema = Type.Object({
  object: Type.Literal('space'),
  id: Type.String(),
  title: Type.String(),
  emoji: Type.String(),
  visibility: StringEnum(SPACE_VISIBILITIES),
  createdAt: DateTime,
  updatedAt: DateTime,
  deletedAt: Type.Optional(DateTime),
  editMode: Type.Optional(StringEnum(EDIT_MODES)),
  organization: Type.String(),
  parent: Type.Optional(Type.String()),
  visitorAuth: Type.Optional(Type.Object({ backend: Type.Optional(Type.String()) })),
  gitSync: Type.Optional(
    Type.Object({
      repoName: Type.Optional(Type.String()),
      installationId: Type.String({ description: 'The space id: a space\u2019s Git sync is its own' }),
      installationStatus: StringEnum(['unauthenticated', 'active', 'pending']),
      installationProvider: Type.String({ description: 'github, gitlab, or git for any other repository' }),
      integration: Type.Optional(Type.String()),
      url: Type.Optional(Type.String()),
      updatedAt: Type.Optional(DateTime)
    })
  ),
  revision: Type.String(),
  defaultLevel: NullableRoleSchema,
  comments: Type.Number(),
  changeRequests: Type.Number(),
  changeRequestsOpen: Type.Number(),
  changeRequestsDraft: Type.Number(),
  mergeRules: SpaceMergeRulesSchema,
  urls: Type.Object({
    location: Type.String(),
    app: Type.String(),
    published: Type.Optional(Type.String()),
    public: Type.Optional(Type.String()),
    icon: Type.Optional(Type.String())
  }),
  permissions: Type.Object({
    view: Type.Boolean(),
    access: Type.Boolean(),
    admin: Type.Boolean(),
    viewInviteLinks: Type.Boolean(),
    edit: Type.Boolean(),
    triggerGitSync: Type.Boolean(),
    comment: Type.Boolean(),
    merge: Type.Boolean(),
    review: Type.Boolean(),
    installIntegration: Type.Boolean()
  })
})
export type Space = Type.Static<typeof SpaceSchema>

export const SpaceParams = Type.Object({ spaceId: Type.String({ maxLength: 100 }) })
export const SpaceList = ListOf(SpaceSchema)
export const SpaceListQuery = Type.Object({
  ...PageQuery,
  deleted: Type.Optional(
    Type.Boolean({ description: 'true: the trash (spaces deleted in the last 7 days, restorable) instead of live spaces' })
  )
})

const Title = Type.String({ maxLength: 50 })
const Emoji = Type.String({ maxLength: 50 })

export const SpaceCreateSchema = Type.Object({
  title: Type.Optional(Title),
  emoji: Type.Optional(Emoji),
  parent: Type.Optional(Type.String({ maxLength: 100, description: 'Parent collection id' })),
  editMode: Type.Optional(StringEnum(EDIT_MODES)),
  empty: Type.Optional(Type.Boolean({ description: 'true: the space starts with no page' }))
})

export const SpaceUpdateSchema = Type.Object({
  editMode: Type.Optional(StringEnum(EDIT_MODES)),
  visibility: Type.Optional(StringEnum(SPACE_VISIBILITIES, { description: '`in-collection` only for a space in a collection' })),
  title: Type.Optional(Title),
  defaultLevel: Type.Optional(NullableRoleSchema),
  emoji: Type.Optional(Emoji),
  mergeRules: Type.Optional(SpaceMergeRulesSchema)
})

export const SpaceGetQuery = Type.Object({ shareKey: Type.Optional(Type.String({ maxLength: 512 })) })

/** Anchor of a move among the spaces and collections of one parent. */
export const SpaceAnchor = Type.Object({ type: Type.Literal('space'), space: Type.String({ maxLength: 100 }) })
export const CollectionAnchor = Type.Object({ type: Type.Literal('collection'), collection: Type.String({ maxLength: 100 }) })
export const ContentAnchor = Type.Union([SpaceAnchor, CollectionAnchor])

export const SpaceMoveSchema = Type.Object({
  parent: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  position: Type.Optional(Position(ContentAnchor))
})

export const SpaceTransferSchema = Type.Object({
  organization: Type.String({ minLength: 1, maxLength: 100 }),
  parent: Type.Optional(Type.String({ maxLength: 100, description: 'Collection of the target organization' }))
})

export const SpacePermissionsSchema = Type.Object({
  role: NullableEnum(ROLES, { description: 'Role to grant; null removes the grant' }),
  users: Type.Optional(Type.Array(Type.String({ maxLength: 320 }), { maxItems: 1000 })),
  teams: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 1000 }))
})
