import { createFileRoute } from '@tanstack/react-router'
import { PendingRows } from '../../../../features/common/Skeletons.tsx'
import { HistoryScreen } from '../../../../features/history/HistoryScreen.tsx'
import { revisionsQuery } from '../../../../features/history/queries.ts'

// The space's history: its revisions, newest first. The loader waits for the first page, so a history the
// workspace cannot read (offline: the copy keeps no history) shows the shell's error screen.
export const Route = createFileRoute('/spaces/$spaceId/history/')({
  loader: ({ context: { queryClient }, params }) => queryClient.ensureInfiniteQueryData(revisionsQuery(params.spaceId)),
  pendingComponent: () => <PendingRows rows={6} />,
  component: function SpaceHistory() {
    const { spaceId } = Route.useParams()
    return <HistoryScreen spaceId={spaceId} />
  }
})
