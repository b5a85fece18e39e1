import { createFileRoute } from '@tanstack/react-router'
import { ScreenSkeleton } from '../../../../features/common/Skeletons.tsx'
import { integrationsQuery, orgInstallationsQuery } from '../../../../features/integrations/queries.ts'
import { IntegrationsScreen } from '../../../../features/integrations/IntegrationsScreen.tsx'

export const Route = createFileRoute('/orgs/$orgId/integrations/')({
  loader: ({ context: { queryClient }, params }) =>
    Promise.all([queryClient.ensureQueryData(integrationsQuery()), queryClient.ensureQueryData(orgInstallationsQuery(params.orgId))]),
  pendingComponent: () => <ScreenSkeleton rows={4} />,
  component: function Integrations() {
    const { orgId } = Route.useParams()
    return <IntegrationsScreen orgId={orgId} />
  }
})
