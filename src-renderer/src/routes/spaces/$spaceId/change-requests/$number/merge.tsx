import { createFileRoute } from '@tanstack/react-router'
import { MergeEditorScreen } from '../../../../../features/changeRequests/MergeEditor.tsx'
import { changeRequestChangesQuery, changeRequestQuery } from '../../../../../features/changeRequests/queries.ts'
import { PendingRows } from '../../../../../features/common/Skeletons.tsx'

// The merge editor of a change request: its pages in conflict with main, resolved and pulled in together.
export const Route = createFileRoute('/spaces/$spaceId/change-requests/$number/merge')({
  loader: ({ context: { queryClient }, params }) =>
    Promise.all([
      queryClient.ensureQueryData(changeRequestQuery(params.spaceId, params.number)),
      // The conflict flags must be main's as it is now, not a cached answer from before it moved.
      queryClient.fetchQuery({ ...changeRequestChangesQuery(params.spaceId, params.number), staleTime: 0 })
    ]),
  pendingComponent: () => <PendingRows rows={4} />,
  component: function ChangeRequestMerge() {
    const { spaceId, number } = Route.useParams()
    // Another change request is another screen: no resolution carries over.
    return <MergeEditorScreen key={`${spaceId}/${number}`} spaceId={spaceId} number={number} />
  }
})
