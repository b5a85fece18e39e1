import type { Db } from '../database'

export interface AuditEventRow {
  seq: number
  id: string
  organization_id: string
  occurred_at: string
  action: string
  actor_type: string
  actor_id: string
  actor_label: string | null
  source: string
  target_type: string
  target_id: string
  target_label: string | null
  /** JSON object: the action's details (before/after of small fields). */
  payload: string
  /** A system effect's cause: the event of the request that started it (a sync job's import). */
  caused_by_event_id: string | null
}

export type AuditEventInput = Omit<AuditEventRow, 'seq'>

/** Exact matches, and a time range (inclusive ISO bounds). */
export interface AuditEventFilter {
  actor?: string
  action?: string
  target?: string
  from?: string
  to?: string
}

/** Where a list page starts: after this (occurred_at, seq), newest first. */
export type AuditEventCursor = [occurredAt: string, seq: number]

type Statement = ReturnType<Db['prepare']>

export function auditEventRepository(db: Db) {
  const insert = db.prepare<[AuditEventInput]>(
    `INSERT INTO audit_events (id, organization_id, occurred_at, action, actor_type, actor_id, actor_label, source, target_type, target_id, target_label, payload, caused_by_event_id)
     VALUES (@id, @organization_id, @occurred_at, @action, @actor_type, @actor_id, @actor_label, @source, @target_type, @target_id, @target_label, @payload, @caused_by_event_id)`
  )
  // The organizations a user is a member of: where an event about them (a token made for them) is recorded.
  const memberOrgs = db.prepare<[string], string>('SELECT organization_id FROM members WHERE user_id = ? ORDER BY seq').pluck()
  const get = db.prepare<[string, string], AuditEventRow>('SELECT * FROM audit_events WHERE organization_id = ? AND id = ?')
  // Where an event's organization and target label come from when the route's path names no organization.
  const owners = {
    space: db.prepare<[string], { org: string; label: string | null }>(
      'SELECT organization_id AS org, title AS label FROM spaces WHERE id = ?'
    ),
    collection: db.prepare<[string], { org: string; label: string | null }>(
      'SELECT organization_id AS org, title AS label FROM collections WHERE id = ?'
    ),
    installation: db.prepare<[string], { org: string; label: string | null }>(
      'SELECT organization_id AS org, NULL AS label FROM integration_installations WHERE id = ?'
    ),
    integration: db.prepare<[string], { org: string; label: string | null }>(
      'SELECT owner_id AS org, title AS label FROM integrations WHERE name = ?'
    )
  }

  // One statement per combination of filters (at most 32), prepared when first used.
  const lists = new Map<string, Statement>()
  const counts = new Map<string, Statement>()
  const where = (f: AuditEventFilter): { sql: string; key: string } => {
    const parts = ['organization_id = @org']
    let key = ''
    if (f.actor !== undefined) {
      parts.push('actor_id = @actor')
      key += 'a'
    }
    if (f.action !== undefined) {
      parts.push('action = @action')
      key += 'c'
    }
    if (f.target !== undefined) {
      parts.push('target_id = @target')
      key += 't'
    }
    if (f.from !== undefined) {
      parts.push('occurred_at >= @from')
      key += 'f'
    }
    if (f.to !== undefined) {
      parts.push('occurred_at <= @to')
      key += 'o'
    }
    return { sql: parts.join(' AND '), key }
  }
  const params = (orgId: string, f: AuditEventFilter) => ({ org: orgId, ...f })

  return {
    insert: (row: AuditEventInput) => void insert.run(row),
    get: (orgId: string, id: string) => get.get(orgId, id),
    /** The organizations `userId` is a member of. */
    memberOrgs: (userId: string) => memberOrgs.all(userId),
    /** The organization a space, collection, installation or integration belongs to, and its label. */
    owner: (kind: keyof typeof owners, id: string) => owners[kind].get(id),
    /** Newest first: (occurred_at, seq) descending, after `cursor`. */
    list(orgId: string, filter: AuditEventFilter, cursor: AuditEventCursor | undefined, limit: number): AuditEventRow[] {
      const w = where(filter)
      const key = w.key + (cursor ? 'k' : '')
      let stmt = lists.get(key)
      if (!stmt) {
        const after = cursor ? ' AND (occurred_at < @at OR (occurred_at = @at AND seq < @seq))' : ''
        lists.set(
          key,
          (stmt = db.prepare(`SELECT * FROM audit_events WHERE ${w.sql}${after} ORDER BY occurred_at DESC, seq DESC LIMIT @limit`))
        )
      }
      return stmt.all({ ...params(orgId, filter), ...(cursor ? { at: cursor[0], seq: cursor[1] } : {}), limit }) as AuditEventRow[]
    },
    count(orgId: string, filter: AuditEventFilter): number {
      const w = where(filter)
      let stmt = counts.get(w.key)
      if (!stmt) counts.set(w.key, (stmt = db.prepare(`SELECT count(*) FROM audit_events WHERE ${w.sql}`).pluck()))
      return stmt.get(params(orgId, filter)) as number
    }
  }
}
