import { createFileRoute } from '@tanstack/react-router'
import { PendingRows } from '../../../../../features/common/Skeletons.tsx'
import { customizationQuery } from '../../../../../features/sites/queries.ts'
import { CustomizationScreen } from '../../../../../features/sites/CustomizationScreen.tsx'

export const Route = createFileRoute('/orgs/$orgId/sites/$siteId/customization')({
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(customizationQuery(params.orgId, params.siteId)),
  pendingComponent: () => <PendingRows rows={6} />,
  component: function SiteCustomization() {
    const { orgId, siteId } = Route.useParams()
    return <CustomizationScreen orgId={orgId} siteId={siteId} />
  }
})
