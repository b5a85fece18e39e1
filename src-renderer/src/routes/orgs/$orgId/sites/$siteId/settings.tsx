import { createFileRoute } from '@tanstack/react-router'
import { PendingRows } from '../../../../../features/common/Skeletons.tsx'
import { siteStructureQuery } from '../../../../../features/sites/queries.ts'
import { SiteSettingsScreen } from '../../../../../features/sites/SiteSettingsScreen.tsx'

export const Route = createFileRoute('/orgs/$orgId/sites/$siteId/settings')({
  // The default-section picker needs the sections.
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(siteStructureQuery(params.orgId, params.siteId)),
  pendingComponent: () => <PendingRows rows={4} />,
  component: function SiteSettings() {
    const { orgId, siteId } = Route.useParams()
    return <SiteSettingsScreen orgId={orgId} siteId={siteId} />
  }
})
