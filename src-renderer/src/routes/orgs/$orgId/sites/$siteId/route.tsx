import { createFileRoute } from '@tanstack/react-router'
import { ScreenSkeleton } from '../../../../../features/common/Skeletons.tsx'
import { siteQuery } from '../../../../../features/sites/queries.ts'
import { SiteScreen } from '../../../../../features/sites/SiteScreen.tsx'

// The address the API gives as a site's `urls.app` (`#/orgs/{orgId}/sites/{siteId}`).
export const Route = createFileRoute('/orgs/$orgId/sites/$siteId')({
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(siteQuery(params.orgId, params.siteId)),
  pendingComponent: () => <ScreenSkeleton rows={4} />,
  component: function Site() {
    const { orgId, siteId } = Route.useParams()
    return <SiteScreen orgId={orgId} siteId={siteId} />
  }
})
