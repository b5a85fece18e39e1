import { createFileRoute } from '@tanstack/react-router'
import { ScreenSkeleton } from '../../../../features/common/Skeletons.tsx'
import { integrationQuery, orgInstallationsQuery } from '../../../../features/integrations/queries.ts'
import { IntegrationScreen } from '../../../../features/integrations/IntegrationScreen.tsx'
import { orgQuery } from '../../../../features/orgs/queries.ts'

export const Route = createFileRoute('/orgs/$orgId/integrations/$integrationName')({
  loader: ({ context: { queryClient }, params }) =>
    Promise.all([
      queryClient.ensureQueryData(integrationQuery(params.integrationName)),
      queryClient.ensureQueryData(orgQuery(params.orgId)),
      queryClient.ensureQueryData(orgInstallationsQuery(params.orgId))
    ]),
  pendingComponent: () => <ScreenSkeleton rows={5} />,
  component: function IntegrationPage() {
    const { orgId, integrationName } = Route.useParams()
    return <IntegrationScreen orgId={orgId} name={integrationName} />
  }
})
