import { createFileRoute } from '@tanstack/react-router'
import type { ChangeRequestStatus } from '../../../../api/types.ts'
import { ChangeRequestsScreen } from '../../../../features/changeRequests/ChangeRequestsScreen.tsx'
import { STATUS_FILTERS } from '../../../../features/changeRequests/moves.ts'

// Filters live in the address (`?status=draft&mine=true`), so Back undoes a filter; `open` is the default.
interface ListSearch {
  status?: Exclude<ChangeRequestStatus, 'open'>
  mine?: true
}

function validateSearch(search: Record<string, unknown>): ListSearch {
  const status = typeof search.status === 'string' && (STATUS_FILTERS as readonly string[]).includes(search.status) ? search.status : undefined
  return {
    status: status && status !== 'open' ? (status as ListSearch['status']) : undefined,
    mine: search.mine === true || search.mine === 'true' ? true : undefined,
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
        filters={{ status: search.status ?? 'open', mine: !!search.mine }}
        onFiltersChange={(f) =>
          void navigate({ search: { status: f.status === 'open' ? undefined : f.status, mine: f.mine || undefined }, replace: true })
        }
      />
    )
  },
})
