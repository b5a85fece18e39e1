import { createFileRoute } from '@tanstack/react-router'
import { PendingRows } from '../../../../../features/common/Skeletons.tsx'
import { CompareScreen } from '../../../../../features/history/CompareScreen.tsx'
import { COMPARE_LIMIT, revisionChangesQuery, revisionQuery } from '../../../../../features/history/queries.ts'

// What changed from a base revision (`?against=`, default the one before) to this one; `?change=` names the
// change shown.
export const Route = createFileRoute('/spaces/$spaceId/history/$revisionId/compare')({
  validateSearch: (search: Record<string, unknown>): { against?: string; change?: string } => ({
    against: typeof search.against === 'string' && search.against ? search.against : undefined,
    change: typeof search.change === 'string' && search.change ? search.change : undefined
  }),
  loaderDeps: ({ search }) => ({ against: search.against }),
  // Waits for the revision (an unknown one shows the error screen); the changes can be large: started now, shown
  // when they come.
  loader: ({ context: { queryClient }, params, deps }) => {
    void queryClient.prefetchQuery(revisionChangesQuery(params.spaceId, params.revisionId, { against: deps.against, limit: COMPARE_LIMIT }))
    return queryClient.ensureQueryData(revisionQuery(params.spaceId, params.revisionId))
  },
  pendingComponent: () => <PendingRows rows={6} />,
  component: function SpaceRevisionCompare() {
    const { spaceId, revisionId } = Route.useParams()
    const { against, change } = Route.useSearch()
    const navigate = Route.useNavigate()
    return (
      <CompareScreen
        key={`${spaceId}/${revisionId}`}
        spaceId={spaceId}
        revisionId={revisionId}
        against={against}
        selectedKey={change}
        onChange={(next) => void navigate({ search: next, replace: true })}
      />
    )
  }
})
