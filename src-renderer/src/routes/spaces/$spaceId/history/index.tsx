import { createFileRoute } from '@tanstack/react-router'
import { HistoryScreen } from '../../../../features/history/HistoryScreen.tsx'
import { revisionsQuery } from '../../../../features/history/queries.ts'

// The space's history: its revisions, newest first.
export const Route = createFileRoute('/spaces/$spaceId/history/')({
  loader: ({ context: { queryClient }, params }) => void queryClient.prefetchInfiniteQuery(revisionsQuery(params.spaceId)),
  component: function SpaceHistory() {
    const { spaceId } = Route.useParams()
    return <HistoryScreen spaceId={spaceId} />
  },
})
