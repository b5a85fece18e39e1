import { randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { auditEventRepository } from '../storage/repositories/auditEventRepository'
import { AUDIT_ROUTES, type AuditActionDef } from './auditActions'
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
  const pending: PendingAudit = { def, params, orgId: params.organizationId }
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
    id: randomUUID(),
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
    payload: JSON.stringify(payload)
  })
}
