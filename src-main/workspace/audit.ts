import { randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { auditEventRepository } from '../storage/repositories/auditEventRepository'
import type { Db } from '../storage/database'
import { repository } from '../storage/repositories/memo'
import { AUDIT_ROUTES, SYSTEM_ACTIONS, type AuditActionDef, type SystemAction } from './auditActions'
import type { Ctx } from './context'

// Every write that passes through `write()` (context.ts) and whose route auditActions.ts lists records one audit
// event, in the write's transaction: the event commits with the write or rolls back with it.

/** What a route adds to its event: the target's label, and before/after of the small fields it changed. */
export interface AuditDetails {
  targetLabel?: string
  before?: Record<string, unknown>
  after?: Record<string, unknown>
}

// Per request context, beside its memo (which routes clear when what they memoized changed).
const noted = new WeakMap<Ctx, AuditDetails>()

/** Adds to the details of the event the current write records (merged with what was added before). */
export function noteAudit(ctx: Ctx, details: AuditDetails): void {
  const held = noted.get(ctx) ?? {}
  noted.set(ctx, {
    ...held,
    ...details,
    ...(details.before && { before: { ...held.before, ...details.before } }),
    ...(details.after && { after: { ...held.after, ...details.after } })
  })
}

/** Notes a field's change for the event (nothing when it did not change). */
export function auditChange(ctx: Ctx, field: string, before: unknown, after: unknown): void {
  if (after === undefined || before === after) return
  noteAudit(ctx, { before: { [field]: before ?? null }, after: { [field]: after } })
}

/** Read before the write runs: the organization and the label of a target the write may remove. */
export interface PendingAudit {
  /** The event's id, known before the write runs: work the write starts (a sync job) names it as its cause. */
  id: string
  def: AuditActionDef
  params: Record<string, string>
  orgId?: string
  targetLabel?: string
}

const OWNERS = [
  ['spaceId', 'space'],
  ['collectionId', 'collection'],
  ['installationId', 'installation'],
  ['integrationName', 'integration']
] as const

/** The action a write records, if its route has one; undefined for the others (nothing is read). */
export function beginAudit(req: FastifyRequest, ctx: Ctx): PendingAudit | undefined {
  const def = AUDIT_ROUTES.get(`${req.method} ${req.routeOptions.url}`)
  if (!def) return undefined
  const params = (req.params ?? {}) as Record<string, string>
  const pending: PendingAudit = { id: randomUUID(), def, params, orgId: params.organizationId }
  eventIds.set(ctx, pending.id)
  const targetParam = typeof def.target === 'object' ? def.target.param : undefined
  for (const [param, kind] of OWNERS) {
    const id = params[param]
    if (id === undefined) continue
    const owner = ctx.repo(auditEventRepository).owner(kind, id)
    pending.orgId ??= owner?.org
    if (param === targetParam && owner?.label) pending.targetLabel = owner.label
    if (pending.orgId) break
  }
  return pending
}

const eventIds = new WeakMap<Ctx, string>()

/** The id of the event the current write records (undefined where it records none): the cause of what it starts. */
export function auditEventIdOf(ctx: Ctx): string | undefined {
  return eventIds.get(ctx)
}

/** Records the event of a write that succeeded (`result` is what its route answers). */
export function finishAudit(pending: PendingAudit, ctx: Ctx, result: unknown): void {
  const { def, params } = pending
  const answer = (result && typeof result === 'object' ? result : {}) as Record<string, unknown>
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined)
  const target = def.target
  const targetId = target === 'actor' ? ctx.actor.id : target === 'result' ? str(answer.id) : params[target.param]
  const orgId =
    pending.orgId ??
    (def.id === 'organization.created' ? targetId : str((answer.target as Record<string, unknown> | undefined)?.organization))
  if (!orgId || !targetId) return
  const details = noted.get(ctx) ?? {}
  const { targetLabel, ...payload } = details
  // The answer names the target when it is the target (an update, a creation), not when it is something else (a
  // duplicate of the space, a job).
  const named =
    answer.id === targetId
      ? (str(answer.title) ?? str(answer.name) ?? str((answer.user as Record<string, unknown> | undefined)?.displayName))
      : undefined
  const label = targetLabel ?? (target === 'actor' ? ctx.actor.display_name : (named ?? pending.targetLabel))
  ctx.repo(auditEventRepository).insert({
    id: pending.id,
    organization_id: orgId,
    occurred_at: ctx.now,
    action: def.id,
    actor_type: 'user',
    actor_id: ctx.actor.id,
    actor_label: ctx.actor.display_name,
    source: 'api',
    target_type: def.targetType,
    target_id: targetId,
    target_label: label ?? null,
    payload: JSON.stringify(payload),
    caused_by_event_id: null
  })
}

/**
 * Who writes when no user does. The published AuditEvent has `actor.type: system` for them; `source` says where the
 * change came from: a command run on the workspace's machine (`script`), the workspace's own setup and upkeep
 * (`workflow`), or the background work an API request started (`api`, with that request's event as the cause).
 */
export const SYSTEM_ACTORS = {
  cli: { id: 'cli', label: 'Command line', source: 'script' },
  setup: { id: 'setup', label: 'Workspace setup', source: 'workflow' },
  upkeep: { id: 'upkeep', label: 'Workspace upkeep', source: 'workflow' },
  gitSync: { id: 'git-sync', label: 'Git sync', source: 'api' },
  openapi: { id: 'openapi-processing', label: 'OpenAPI processing', source: 'api' }
} as const

export interface SystemEvent {
  organizationId: string
  action: SystemAction
  actor: keyof typeof SYSTEM_ACTORS
  /** The target's id and its label then; its type is the action's prefix. */
  target: { id: string; label?: string | null }
  occurredAt: string
  before?: Record<string, unknown>
  after?: Record<string, unknown>
  /** The event of the request whose work this is. */
  causedBy?: string | null
}

/**
 * Records the event of a write no route makes (the CLI, setup and upkeep, background jobs). Call it inside the
 * write's transaction, so the event commits with the write or not at all. `audit: false` (a connected workspace's
 * copy, whose events are its server's) records nothing.
 */
export function recordSystemEvent(services: { db: Db; audit?: boolean }, event: SystemEvent): void {
  if (services.audit === false) return
  if (!services.db.inTransaction) throw new Error('recordSystemEvent: call it inside the write’s transaction')
  const actor = SYSTEM_ACTORS[event.actor]
  const payload = { ...(event.before && { before: event.before }), ...(event.after && { after: event.after }) }
  repository(services.db, auditEventRepository).insert({
    id: randomUUID(),
    organization_id: event.organizationId,
    occurred_at: event.occurredAt,
    action: event.action,
    actor_type: 'system',
    actor_id: actor.id,
    actor_label: actor.label,
    source: actor.source,
    target_type: SYSTEM_ACTIONS.get(event.action)!.targetType,
    target_id: event.target.id,
    target_label: event.target.label ?? null,
    payload: JSON.stringify(payload),
    caused_by_event_id: event.causedBy ?? null
  })
}
