import { createFileRoute } from '@tanstack/react-router'
import { PendingRows } from '../../../../features/common/Skeletons.tsx'
import { InvitesScreen } from '../../../../features/members/InvitesScreen.tsx'
import { inviteLinksQuery } from '../../../../features/members/queries.ts'

export const Route = createFileRoute('/orgs/$orgId/team/invites')({
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(inviteLinksQuery(params.orgId)),
  pendingComponent: () => <PendingRows rows={4} />,
  component: function Invites() {
    const { orgId } = Route.useParams()
    return <InvitesScreen orgId={orgId} />
  }
})
