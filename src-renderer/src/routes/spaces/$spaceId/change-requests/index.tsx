import { createFileRoute } from '@tanstack/react-router'
import { ChangeRequestsScreen } from '../../../../features/changeRequests/ChangeRequestsScreen.tsx'
import { parseListStatus, type ListStatus } from '../../../../features/changeRequests/listFilters.ts'

// Filters live in the address (`?status=draft&mine=true`), so Back undoes a filter; `active` (the user's drafts
// and the open ones) is the default.
interface ListSearch {
  status?: Exclude<ListStatus, 'active'>
  mine?: true
}

function validateSearch(search: Record<string, unknown>): ListSearch {
  const status = parseListStatus(search.status)
  return {
    status: status === 'active' ? undefined : status,
    mine: search.mine === true || search.mine === 'true' ? true : undefined
  }
}

export const Route = createFileRoute('/spaces/$spaceId/change-requests/')({
  validateSearch,
  component: function SpaceChangeRequests() {
    const { spaceId } = Route.useParams()
    const search = Route.useSearch()
    const navigate = Route.useNavigate()
    return (
      <ChangeRequestsScreen
        spaceId={spaceId}
        filters={{ status: search.status ?? 'active', mine: !!search.mine }}
        onFiltersChange={(f) =>
          void navigate({ search: { status: f.status === 'active' ? undefined : f.status, mine: f.mine || undefined }, replace: true })
        }
      />
    )
  }
})
