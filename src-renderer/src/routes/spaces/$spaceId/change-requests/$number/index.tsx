import { createFileRoute } from '@tanstack/react-router'
import { ChangeRequestScreen } from '../../../../../features/changeRequests/ChangeRequestScreen.tsx'
import { changeRequestChangesQuery, changeRequestQuery } from '../../../../../features/changeRequests/queries.ts'
import { PendingRows } from '../../../../../features/common/Skeletons.tsx'

// The API's `urls.app` of a change request: `#/spaces/{spaceId}/change-requests/{number}`. `?change=` names
// the page change shown (`edited:<pageId>`), so Back and shared links return to it.
export const Route = createFileRoute('/spaces/$spaceId/change-requests/$number/')({
  validateSearch: (search: Record<string, unknown>): { change?: string } => ({
    change: typeof search.change === 'string' && search.change ? search.change : undefined
  }),
  loader: ({ context: { queryClient }, params }) => {
    // The diffs can be large: start them now, but show the header without waiting for them.
    void queryClient.prefetchQuery(changeRequestChangesQuery(params.spaceId, params.number))
    return queryClient.ensureQueryData(changeRequestQuery(params.spaceId, params.number))
  },
  pendingComponent: () => <PendingRows rows={4} />,
  component: function SpaceChangeRequest() {
    const { spaceId, number } = Route.useParams()
    const { change } = Route.useSearch()
    const navigate = Route.useNavigate()
    return (
      <ChangeRequestScreen
        // Another change request is another screen: no conflict answer or edit state carries over.
        key={`${spaceId}/${number}`}
        spaceId={spaceId}
        number={number}
        selected={change}
        onSelect={(key) => void navigate({ search: { change: key }, replace: true })}
      />
    )
  }
})
