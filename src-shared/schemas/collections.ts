import Type from 'typebox'
import { ListOf, NullableRoleSchema, PageQuery, Position } from './common'
import { ContentAnchor } from './spaces'

export const CollectionSchema = Type.Object({
  object: Type.Literal('collection'),
  id: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  organization: Type.String(),
  parent: Type.Optional(Type.String()),
  defaultLevel: NullableRoleSchema,
  urls: Type.Object({ location: Type.String(), app: Type.String() }),
  permissions: Type.Object({
    view: Type.Boolean(),
    admin: Type.Boolean(),
    viewInviteLinks: Type.Boolean(),
    create: Type.Boolean()
  })
})
export type Collection = Type.Static<typeof CollectionSchema>

export const CollectionParams = Type.Object({ collectionId: Type.String({ maxLength: 100 }) })
export const CollectionOrgParams = Type.Object({ organizationId: Type.String({ maxLength: 100 }) })

export const CollectionListQuery = Type.Object({
  ...PageQuery,
  nested: Type.Optional(Type.Boolean({ default: true, description: 'false: only the root collections' }))
})
export const CollectionList = ListOf(CollectionSchema)
export const CollectionSpacesQuery = Type.Object({ ...PageQuery })

/** A string or null as one JSON Schema type, so a wrong type reads `must be string or null`. */
const NullableString = (options: Record<string, unknown>) => Type.Unsafe<string | null>({ type: ['string', 'null'], ...options })

const Title = Type.String({ maxLength: 50 })
const CollectionId = Type.String({ maxLength: 100, description: 'Collection id' })

export const CollectionCreateSchema = Type.Object({
  title: Type.Optional(Title),
  parent: Type.Optional(CollectionId)
})

export const CollectionUpdateSchema = Type.Object({
  title: Type.Optional(Title),
  description: Type.Optional(NullableString({ maxLength: 100 })),
  defaultLevel: Type.Optional(NullableRoleSchema)
})

export const CollectionMoveSchema = Type.Object({
  parent: Type.Optional(NullableString({ maxLength: 100, description: 'Collection id, or null for the root' })),
  position: Type.Optional(Position(ContentAnchor))
})

export const CollectionTransferSchema = Type.Object({
  organization: Type.String({ minLength: 1, maxLength: 100, description: 'Target organization id' })
})
