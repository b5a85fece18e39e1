import { createFileRoute } from '@tanstack/react-router'
import { ScreenSkeleton } from '../../../features/common/Skeletons.tsx'
import { spaceQuery } from '../../../features/content/queries.ts'
import { SpaceScreen } from '../../../features/content/SpaceScreen.tsx'

// The address the API gives as a space's `urls.app` (`#/spaces/{id}`).
export const Route = createFileRoute('/spaces/$spaceId')({
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(spaceQuery(params.spaceId)),
  pendingComponent: () => <ScreenSkeleton rows={3} />,
  component: function Space() {
    const { spaceId } = Route.useParams()
    return <SpaceScreen spaceId={spaceId} />
  }
})
