import { createFileRoute } from '@tanstack/react-router'
import { PendingRows } from '../../../../../features/common/Skeletons.tsx'
import { siteStructureQuery } from '../../../../../features/sites/queries.ts'
import { SiteStructureScreen } from '../../../../../features/sites/SiteStructureScreen.tsx'

export const Route = createFileRoute('/orgs/$orgId/sites/$siteId/')({
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(siteStructureQuery(params.orgId, params.siteId)),
  pendingComponent: () => <PendingRows rows={4} />,
  component: function SiteStructure() {
    const { orgId, siteId } = Route.useParams()
    return <SiteStructureScreen orgId={orgId} siteId={siteId} />
  }
})
