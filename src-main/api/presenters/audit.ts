import type { AuditEvent, AuditEventDetails } from '../../../src-shared/schemas/audit'
import type { AuditEventRow } from '../../storage/repositories/auditEventRepository'
import type { Ctx } from '../../workspace/context'

/** The version of the payloads' shape (`{before?, after?}`). */
export const AUDIT_SCHEMA_VERSION = 1

export function presentAuditEvent(row: AuditEventRow, ctx: Ctx): AuditEvent {
  return {
    object: 'audit-event',
    id: row.id,
    occurredAt: row.occurred_at,
    action: row.action,
    actor: {
      type: row.actor_type as AuditEvent['actor']['type'],
      id: row.actor_id,
      ...(row.actor_label !== null && { label: row.actor_label })
    },
    source: row.source as AuditEvent['source'],
    target: { type: row.target_type, id: row.target_id, ...(row.target_label !== null && { label: row.target_label }) },
    urls: { location: ctx.url(`/v1/orgs/${row.organization_id}/audit-events/${row.id}`) }
  }
}

export function presentAuditEventDetails(row: AuditEventRow, ctx: Ctx): AuditEventDetails {
  return {
    ...presentAuditEvent(row, ctx),
    ...(row.caused_by_event_id !== null && { causedByEventId: row.caused_by_event_id }),
    schemaVersion: AUDIT_SCHEMA_VERSION,
    payload: JSON.parse(row.payload) as Record<string, unknown>
  }
}
