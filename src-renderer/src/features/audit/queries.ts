import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import { fetchPage } from '../../api/lists.ts'
import type { AuditEvent, AuditEventAction, AuditEventDetails } from '../../api/types.ts'
import { auditQuery, type AuditFilters } from './auditLog.ts'

/** The API serves at most 100 events a page. */
const AUDIT_PAGE = 100

export const auditEventsQuery = (orgId: string, filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: ['orgs', orgId, 'audit-events', filters],
    queryFn: ({ pageParam }) =>
      fetchPage<AuditEvent>(`/v1/orgs/${orgId}/audit-events`, { ...auditQuery(filters), limit: AUDIT_PAGE }, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page
  })

export const auditEventQuery = (orgId: string, eventId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'audit-events', eventId],
    queryFn: () => api.request<AuditEventDetails>('GET', `/v1/orgs/${orgId}/audit-events/${encodeURIComponent(eventId)}`),
    // An event never changes once recorded.
    staleTime: Infinity
  })

export const auditActionsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'audit-event-actions'],
    queryFn: () => api.request<{ items: AuditEventAction[] }>('GET', `/v1/orgs/${orgId}/audit-event-actions`).then((r) => r.items),
    staleTime: Infinity
  })

/** Every event the filters select, newest first, walking the pages (the CSV export). */
export async function fetchAllAuditEvents(orgId: string, filters: AuditFilters): Promise<AuditEvent[]> {
  const events: AuditEvent[] = []
  let page: string | undefined
  do {
    const res = await fetchPage<AuditEvent>(`/v1/orgs/${orgId}/audit-events`, { ...auditQuery(filters), limit: AUDIT_PAGE }, page)
    events.push(...res.items)
    page = res.next?.page
  } while (page)
  return events
}
