import { createFileRoute } from '@tanstack/react-router'
import { ScreenSkeleton } from '../../../features/common/Skeletons.tsx'
import { trashQuery } from '../../../features/content/queries.ts'
import { TrashScreen } from '../../../features/content/TrashScreen.tsx'

export const Route = createFileRoute('/orgs/$orgId/trash')({
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(trashQuery(params.orgId)),
  pendingComponent: () => <ScreenSkeleton rows={4} />,
  component: function Trash() {
    const { orgId } = Route.useParams()
    return <TrashScreen orgId={orgId} />
  }
})
