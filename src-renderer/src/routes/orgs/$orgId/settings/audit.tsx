import { createFileRoute } from '@tanstack/react-router'
import { AuditLogScreen } from '../../../../features/audit/AuditLogScreen.tsx'
import { readAuditFilters } from '../../../../features/audit/auditLog.ts'
import { auditActionsQuery, auditEventsQuery } from '../../../../features/audit/queries.ts'

// Filters live in the address, so a filtered log can be bookmarked and Back undoes a filter.
export const Route = createFileRoute('/orgs/$orgId/settings/audit')({
  validateSearch: readAuditFilters,
  // No loaderDeps: a filter change keeps the previous rows while the next ones load.
  loader: ({ context: { queryClient }, params, location }) => {
    void queryClient.prefetchInfiniteQuery(auditEventsQuery(params.orgId, readAuditFilters(location.search as Record<string, unknown>)))
    void queryClient.prefetchQuery(auditActionsQuery(params.orgId))
  },
  component: function AuditLog() {
    const { orgId } = Route.useParams()
    const filters = Route.useSearch()
    const navigate = Route.useNavigate()
    return <AuditLogScreen orgId={orgId} filters={filters} onFiltersChange={(next) => void navigate({ search: next, replace: true })} />
  }
})
