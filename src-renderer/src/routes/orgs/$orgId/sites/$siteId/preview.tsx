import { createFileRoute } from '@tanstack/react-router'
import { PendingRows } from '../../../../../features/common/Skeletons.tsx'
import { adaptiveSchemaQuery } from '../../../../../features/sites/queries.ts'
import { SitePreviewScreen } from '../../../../../features/sites/SitePreviewScreen.tsx'

export const Route = createFileRoute('/orgs/$orgId/sites/$siteId/preview')({
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(adaptiveSchemaQuery(params.orgId, params.siteId)),
  pendingComponent: () => <PendingRows rows={6} />,
  component: function SitePreview() {
    const { orgId, siteId } = Route.useParams()
    return <SitePreviewScreen orgId={orgId} siteId={siteId} />
  }
})
