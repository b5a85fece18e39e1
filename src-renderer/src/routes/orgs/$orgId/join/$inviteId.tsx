import { createFileRoute } from '@tanstack/react-router'
import { JoinScreen } from '../../../../features/members/JoinScreen.tsx'

export const Route = createFileRoute('/orgs/$orgId/join/$inviteId')({
  component: function Join() {
    const { orgId, inviteId } = Route.useParams()
    return <JoinScreen orgId={orgId} inviteId={inviteId} />
  }
})
