import {
  AuditEventActionList,
  AuditEventDetailsSchema,
  AuditEventList,
  AuditEventListParams,
  AuditEventListQuery,
  AuditEventParams
} from '../../../../src-shared/schemas/audit'
import { auditEventRepository, type AuditEventFilter } from '../../../storage/repositories/auditEventRepository'
import { AUDIT_ACTIONS } from '../../../workspace/auditActions'
import { read } from '../../../workspace/context'
import { notFound } from '../../../base/errors'
import type { Api } from '../../app'
import { cachedCount, decodeCursor, envelope } from '../../pagination'
import { requireOrgRole } from '../../policies/access'
import { presentAuditEvent, presentAuditEventDetails } from '../../presenters/audit'

const tags = ['Audit log']

/** An ISO time as stored (UTC, milliseconds), so text comparison in SQL orders as time does. */
const utc = (time: string | undefined) => (time === undefined ? undefined : new Date(time).toISOString())

export default function auditRoutes(app: Api) {
  app.get(
    '/v1/orgs/:organizationId/audit-events',
    {
      schema: {
        tags,
        summary: "List the organization's audit events, newest first (organization admins)",
        params: AuditEventListParams,
        querystring: AuditEventListQuery,
        response: { 200: AuditEventList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const orgId = req.params.organizationId
        requireOrgRole(ctx, orgId, 'admin')
        const { actor, action, target } = req.query
        const filter: AuditEventFilter = { actor, action, target, from: utc(req.query.from), to: utc(req.query.to) }
        const limit = req.query.limit ?? 20
        const cursor = decodeCursor(req.query.page, ['string', 'integer'])
        const events = ctx.repo(auditEventRepository)
        const rows = events.list(orgId, filter, cursor, limit + 1)
        const count = cachedCount(ctx, `audit:${orgId}:${JSON.stringify(filter)}`, () => events.count(orgId, filter))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.occurred_at, r.seq],
          (page) => page.map((r) => presentAuditEvent(r, ctx))
        )
      })
  )

  app.get(
    '/v1/orgs/:organizationId/audit-events/:auditEventId',
    {
      schema: {
        tags,
        summary: 'Get an audit event with its details (organization admins)',
        params: AuditEventParams,
        response: { 200: AuditEventDetailsSchema }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        requireOrgRole(ctx, req.params.organizationId, 'admin')
        const row = ctx.repo(auditEventRepository).get(req.params.organizationId, req.params.auditEventId)
        if (!row) throw notFound('Audit event')
        return presentAuditEventDetails(row, ctx)
      })
  )

  app.get(
    '/v1/orgs/:organizationId/audit-event-actions',
    {
      schema: {
        tags,
        summary: 'List the actions audit events record (organization admins)',
        params: AuditEventListParams,
        response: { 200: AuditEventActionList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        requireOrgRole(ctx, req.params.organizationId, 'admin')
        return { items: AUDIT_ACTIONS.map((a) => ({ object: 'audit-event-action' as const, id: a.id, label: a.label })) }
      })
  )
}
