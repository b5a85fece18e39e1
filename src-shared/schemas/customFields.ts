import Type from 'typebox'
import { DateTime, ListOf, PageQuery, patterned, StringEnum } from './common'

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'boolean', 'select', 'multi-select'] as const
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number]
/** Types whose values come from `options`. */
export const OPTION_TYPES: readonly CustomFieldType[] = ['select', 'multi-select']
export const TEXT_VALUE_MAX = 256

export const CustomFieldSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: StringEnum(CUSTOM_FIELD_TYPES),
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  placeholder: Type.Optional(Type.String()),
  options: Type.Optional(Type.Array(Type.String())),
  createdAt: DateTime,
  updatedAt: DateTime,
  urls: Type.Object({ location: Type.String() }),
  permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() })
})
export type CustomField = Type.Static<typeof CustomFieldSchema>

export const CustomFieldValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.String())])

export const SpaceCustomFieldValues = Type.Array(Type.Object({ customField: CustomFieldSchema, value: CustomFieldValue }))
export type SpaceCustomFieldValue = Type.Static<typeof SpaceCustomFieldValues>[number]

export const CustomFieldOrgParams = Type.Object({ organizationId: Type.String({ maxLength: 100 }) })
export const CustomFieldParams = Type.Object({
  organizationId: Type.String({ maxLength: 100 }),
  fieldName: Type.String({ maxLength: 100 })
})
export const CustomFieldListQuery = Type.Object({ ...PageQuery })
export const CustomFieldList = ListOf(CustomFieldSchema)

/** A string or null as one JSON Schema type, so a wrong type reads `must be string or null`. */
const NullableString = (options: Record<string, unknown>) => Type.Unsafe<string | null>({ type: ['string', 'null'], ...options })

const Name = Type.String({ minLength: 1, maxLength: 50, ...patterned('^[a-z_\\-0-9]+$', 'lower-case letters, digits, - and _') })
const Options = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 50 })

export const CustomFieldCreateSchema = Type.Object({
  name: Name,
  type: StringEnum(CUSTOM_FIELD_TYPES),
  title: Type.Optional(Type.String({ maxLength: 100 })),
  description: Type.Optional(Type.String({ maxLength: 200 })),
  placeholder: Type.Optional(Type.String({ maxLength: 100 })),
  options: Type.Optional(Options)
})

/** `type` is listed only to be refused with a clear message: it cannot change. null clears a text member. */
export const CustomFieldUpdateSchema = Type.Object({
  type: Type.Optional(Type.Unknown({ description: 'Cannot be changed; sending it answers 400' })),
  title: Type.Optional(NullableString({ maxLength: 100 })),
  description: Type.Optional(NullableString({ maxLength: 200 })),
  placeholder: Type.Optional(NullableString({ maxLength: 100 })),
  options: Type.Optional(Options)
})

export const SpaceCustomFieldParams = Type.Object({ spaceId: Type.String({ maxLength: 100 }) })

/** `values`: field name -> `{value}`; a null value removes the field's value from the space. */
export const SpaceCustomFieldsUpdateSchema = Type.Object({
  values: Type.Record(Type.String(), Type.Object({ value: Type.Unknown() }), { maxProperties: 200 })
})
