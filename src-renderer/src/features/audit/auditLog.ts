import type { AuditEvent } from '../../api/types.ts'

/** The log's filters as the screen keeps them (in the address): dates are local days, `YYYY-MM-DD`. */
export interface AuditFilters {
  actor?: string
  action?: string
  target?: string
  fromDay?: string
  toDay?: string
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** The API's query for the filters: a day range covers both days whole, in the user's time zone. */
export function auditQuery(filters: AuditFilters): Record<string, string | undefined> {
  const day = (d: string | undefined, time: string) => (d && DAY.test(d) ? new Date(`${d}T${time}`).toISOString() : undefined)
  return {
    actor: filters.actor || undefined,
    action: filters.action || undefined,
    target: filters.target || undefined,
    from: day(filters.fromDay, '00:00:00.000'),
    to: day(filters.toDay, '23:59:59.999')
  }
}

/** A filter value from the address, or undefined (an empty or non-string value, a malformed day). */
export function readAuditFilters(search: Record<string, unknown>): AuditFilters {
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined)
  const day = (v: unknown) => (typeof v === 'string' && DAY.test(v) ? v : undefined)
  return {
    actor: str(search.actor),
    action: str(search.action),
    target: str(search.target),
    fromDay: day(search.fromDay),
    toDay: day(search.toDay)
  }
}

const CSV_COLUMNS = ['occurredAt', 'action', 'actorType', 'actorId', 'actor', 'source', 'targetType', 'targetId', 'target'] as const

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. A cell a spreadsheet would run as a
 * formula (=, +, -, @, tab, CR first) is prefixed with an apostrophe: labels are whatever users typed.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

/** The events as CSV, a header line first, CRLF line ends. */
export function auditCsv(events: readonly AuditEvent[]): string {
  const lines = [CSV_COLUMNS.join(',')]
  for (const e of events) {
    const cells = [
      e.occurredAt,
      e.action,
      e.actor.type,
      e.actor.id,
      e.actor.label ?? '',
      e.source,
      e.target.type,
      e.target.id,
      e.target.label ?? ''
    ]
    lines.push(cells.map(csvCell).join(','))
  }
  return lines.join('\r\n') + '\r\n'
}

/** The changed fields of an event's payload, for a before/after table. */
export function payloadChanges(payload: object): { field: string; before: unknown; after: unknown }[] {
  const { before = {}, after = {} } = payload as { before?: Record<string, unknown>; after?: Record<string, unknown> }
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])]
  return fields.map((field) => ({ field, before: before[field], after: after[field] }))
}
