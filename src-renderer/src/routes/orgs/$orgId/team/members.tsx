import { createFileRoute } from '@tanstack/react-router'
import type { Role } from '../../../../api/types.ts'
import { ROLES } from '../../../../api/types.ts'
import { MembersScreen } from '../../../../features/members/MembersScreen.tsx'
import { membersQuery, type MemberFilters } from '../../../../features/members/queries.ts'
import { orgQuery } from '../../../../features/orgs/queries.ts'
import { useSuspenseQuery } from '@tanstack/react-query'

// Filters live in the address, so a filtered list can be bookmarked and Back undoes a filter.
function validateSearch(search: Record<string, unknown>): MemberFilters {
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined)
  const role = str(search.role)
  return {
    search: str(search.search),
    role: role && (ROLES as readonly string[]).includes(role) ? (role as Role) : undefined,
    sort: search.sort === 'lastSeenAt' ? 'lastSeenAt' : undefined,
    order: search.order === 'asc' ? 'asc' : undefined
  }
}

export const Route = createFileRoute('/orgs/$orgId/team/members')({
  validateSearch,
  // No loaderDeps: a filter change must not swap the screen for a pending view (the table keeps the previous
  // rows while the next ones load). The first visit still starts the request before rendering.
  loader: ({ context: { queryClient }, params, location }) =>
    void queryClient.prefetchInfiniteQuery(membersQuery(params.orgId, validateSearch(location.search as Record<string, unknown>))),
  component: function Members() {
    const { orgId } = Route.useParams()
    const filters = Route.useSearch()
    const navigate = Route.useNavigate()
    const { data: org } = useSuspenseQuery(orgQuery(orgId))
    return (
      <MembersScreen
        orgId={orgId}
        filters={filters}
        canAdmin={org.permissions.admin}
        onFiltersChange={(next) => void navigate({ search: next, replace: true })}
      />
    )
  }
})
