import { createFileRoute } from '@tanstack/react-router'
import { GitScreen } from '../../../features/git/GitScreen.tsx'
import { gitInfoQuery } from '../../../features/git/queries.ts'

// The space's Git sync: its repository connection, import and export, and the last sync's state.
export const Route = createFileRoute('/spaces/$spaceId/git')({
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(gitInfoQuery(params.spaceId))
  },
  component: function SpaceGit() {
    const { spaceId } = Route.useParams()
    return <GitScreen spaceId={spaceId} />
  }
})
