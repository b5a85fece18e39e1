import Type, { type TSchema } from 'typebox'

/** A string enum as a plain JSON Schema `enum` (clear validation messages, clean OpenAPI). */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })
}

/** A string enum that also accepts null. */
export function NullableEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number] | null>({ type: ['string', 'null'], enum: [...values, null], ...options })
}

/** Any schema, or null. */
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()])
}

export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const
export type Role = (typeof ROLES)[number]
export const RoleSchema = StringEnum(ROLES, { description: 'Role' })
export const NullableRoleSchema = NullableEnum(ROLES, { description: 'Role, or null' })

/**
 * A `pattern` with the words its error message uses instead of the regular expression (`proxy: must be a host
 * name and a path, like example.com/docs`). The words travel in the schema as an OpenAPI extension.
 */
export const PATTERN_HINT = 'x-pattern-hint'
export function patterned(pattern: string, hint: string): { pattern: string; [PATTERN_HINT]: string } {
  return { pattern, [PATTERN_HINT]: hint }
}

export const DateTime = Type.String({ format: 'date-time' })
export const Id = Type.String({ minLength: 1, maxLength: 100 })
export const Url = Type.String()

export const Order = StringEnum(['asc', 'desc'] as const)

/** Query parameters every paginated list takes. */
export const PageQuery = {
  page: Type.Optional(Type.String({ maxLength: 512, description: 'Identifier of the page to fetch (opaque)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Results per page (default 100)' }))
}

/** The list envelope of the spec: `{next?: {page}, count, items}`. */
export function ListOf<T extends TSchema>(item: T, extra: Record<string, TSchema> = {}) {
  return Type.Object({
    next: Type.Optional(Type.Object({ page: Type.String() })),
    count: Type.Number(),
    items: Type.Array(item),
    ...extra
  })
}

export const ErrorSchema = Type.Object(
  { error: Type.Object({ code: Type.Integer(), message: Type.String() }) },
  { description: 'Error envelope' }
)

export const UserSchema = Type.Object({
  object: Type.Literal('user'),
  id: Type.String(),
  displayName: Type.String(),
  email: Type.Optional(Type.String()),
  photoURL: Type.Optional(Type.String()),
  urls: Type.Object({ location: Type.String() })
})
export type User = Type.Static<typeof UserSchema>

/** `before`/`after` anchor used by the move operations. */
export function Position<T extends TSchema>(anchor: T) {
  return Type.Object({ before: Type.Optional(anchor), after: Type.Optional(anchor) })
}

export const Empty = Type.Object({})

/** Response schema of 204/205 answers (no body). */
export const NoContent = Type.Unsafe<undefined>({ type: 'null', description: 'No content' })
