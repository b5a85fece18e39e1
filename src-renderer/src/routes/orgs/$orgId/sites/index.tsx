import { createFileRoute } from '@tanstack/react-router'
import { ScreenSkeleton } from '../../../../features/common/Skeletons.tsx'
import { sitesQuery } from '../../../../features/sites/queries.ts'
import { SitesScreen } from '../../../../features/sites/SitesScreen.tsx'

export const Route = createFileRoute('/orgs/$orgId/sites/')({
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(sitesQuery(params.orgId)),
  pendingComponent: () => <ScreenSkeleton rows={5} />,
  component: function Sites() {
    const { orgId } = Route.useParams()
    return <SitesScreen orgId={orgId} />
  }
})
