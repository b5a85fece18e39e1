import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { PendingRows } from '../../../../features/common/Skeletons.tsx'
import { orgQuery } from '../../../../features/orgs/queries.ts'
import { samlProvidersQuery } from '../../../../features/sso/queries.ts'
import { SamlProvidersScreen } from '../../../../features/sso/SamlProvidersScreen.tsx'

export const Route = createFileRoute('/orgs/$orgId/settings/sso')({
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(samlProvidersQuery(params.orgId)),
  pendingComponent: () => <PendingRows rows={3} />,
  component: function Sso() {
    const { orgId } = Route.useParams()
    const { data: org } = useSuspenseQuery(orgQuery(orgId))
    return <SamlProvidersScreen orgId={orgId} canAdmin={org.permissions.admin} />
  }
})
