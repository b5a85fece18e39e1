import { createFileRoute } from '@tanstack/react-router'
import { OrgHomeScreen } from '../../../features/content/OrgHomeScreen.tsx'
import { collectionsQuery, spacesQuery } from '../../../features/content/queries.ts'
import { ScreenSkeleton } from '../../../features/common/Skeletons.tsx'

export const Route = createFileRoute('/orgs/$orgId/')({
  loader: ({ context: { queryClient }, params }) =>
    Promise.all([queryClient.ensureQueryData(spacesQuery(params.orgId)), queryClient.ensureQueryData(collectionsQuery(params.orgId))]),
  pendingComponent: () => <ScreenSkeleton rows={10} />,
  component: function OrgHome() {
    const { orgId } = Route.useParams()
    return <OrgHomeScreen orgId={orgId} />
  }
})
