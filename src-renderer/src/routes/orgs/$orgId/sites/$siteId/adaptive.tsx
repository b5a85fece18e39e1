import { createFileRoute } from '@tanstack/react-router'
import { PendingRows } from '../../../../../features/common/Skeletons.tsx'
import { adaptiveSchemaQuery } from '../../../../../features/sites/queries.ts'
import { AdaptiveContentScreen } from '../../../../../features/sites/AdaptiveContentScreen.tsx'

export const Route = createFileRoute('/orgs/$orgId/sites/$siteId/adaptive')({
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(adaptiveSchemaQuery(params.orgId, params.siteId)),
  pendingComponent: () => <PendingRows rows={6} />,
  component: function SiteAdaptiveContent() {
    const { orgId, siteId } = Route.useParams()
    return <AdaptiveContentScreen orgId={orgId} siteId={siteId} />
  }
})
