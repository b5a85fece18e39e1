import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { PendingRows } from '../../../../features/common/Skeletons.tsx'
import { orgQuery } from '../../../../features/orgs/queries.ts'
import { teamsQuery } from '../../../../features/teams/queries.ts'
import { TeamsScreen } from '../../../../features/teams/TeamsScreen.tsx'

export const Route = createFileRoute('/orgs/$orgId/team/teams')({
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(teamsQuery(params.orgId)),
  pendingComponent: () => <PendingRows rows={5} />,
  component: function Teams() {
    const { orgId } = Route.useParams()
    const { data: org } = useSuspenseQuery(orgQuery(orgId))
    return <TeamsScreen orgId={orgId} canAdmin={org.permissions.admin} />
  }
})
