import Type from 'typebox'
import { DateTime, ListOf, StringEnum } from './common'

// The audit log's wire shapes, as the published API has them (`AuditEvent`, `AuditEventDetails`, `AuditEventAction`).

export const AUDIT_SOURCES = ['ui', 'api', 'integration', 'webhook', 'workflow', 'script', 'support'] as const
export const AUDIT_ACTOR_TYPES = ['user', 'integration', 'installation', 'system', 'support'] as const

export const AuditEventSchema = Type.Object({
  object: Type.Literal('audit-event'),
  id: Type.String({ format: 'uuid' }),
  occurredAt: DateTime,
  action: Type.String({ description: 'Stable action name (space.updated)' }),
  actor: Type.Object({
    type: StringEnum(AUDIT_ACTOR_TYPES),
    id: Type.String(),
    label: Type.Optional(Type.String({ description: 'Display label when the event was recorded' }))
  }),
  source: StringEnum(AUDIT_SOURCES, { description: 'Entry point of the change' }),
  target: Type.Object({
    type: Type.String({ description: 'Kind of resource changed (space)' }),
    id: Type.String(),
    label: Type.Optional(Type.String({ description: 'Display label when the event was recorded' }))
  }),
  urls: Type.Object({ location: Type.String({ description: 'The event in the API' }) })
})
export type AuditEvent = Type.Static<typeof AuditEventSchema>

export const AuditEventDetailsSchema = Type.Object({
  ...AuditEventSchema.properties,
  causedByEventId: Type.Optional(
    Type.String({ format: 'uuid', description: 'The event of the request whose later system effect this is (a sync job’s import)' })
  ),
  schemaVersion: Type.Integer({ minimum: 1 }),
  payload: Type.Object(
    {},
    { additionalProperties: true, description: 'The action’s details: before and after of the small fields it changed' }
  )
})
export type AuditEventDetails = Type.Static<typeof AuditEventDetailsSchema>

export const AuditEventList = ListOf(AuditEventSchema)
export type AuditEventListBody = Type.Static<typeof AuditEventList>

export const AuditEventListParams = Type.Object({ organizationId: Type.String({ maxLength: 100 }) })
export const AuditEventParams = Type.Object({
  organizationId: Type.String({ maxLength: 100 }),
  auditEventId: Type.String({ maxLength: 100 })
})

export const AuditEventListQuery = Type.Object({
  page: Type.Optional(Type.String({ maxLength: 512, description: 'Identifier of the page to fetch (opaque)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Events per page, up to 100 (default 20)' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Events at or after this time' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Events at or before this time' })),
  action: Type.Optional(Type.String({ maxLength: 100, description: 'Exact action name' })),
  actor: Type.Optional(Type.String({ maxLength: 100, description: 'Exact actor id' })),
  target: Type.Optional(Type.String({ maxLength: 200, description: 'Exact target id' }))
})
export type AuditEventQuery = Type.Static<typeof AuditEventListQuery>

export const AuditEventActionSchema = Type.Object({
  object: Type.Literal('audit-event-action'),
  id: Type.String(),
  label: Type.String()
})
export type AuditEventAction = Type.Static<typeof AuditEventActionSchema>
export const AuditEventActionList = Type.Object({ items: Type.Array(AuditEventActionSchema) })
