import { createFileRoute } from '@tanstack/react-router'
import { OrgSettingsScreen } from '../../../../features/settings/OrgSettingsScreen.tsx'

export const Route = createFileRoute('/orgs/$orgId/settings/')({
  component: function General() {
    const { orgId } = Route.useParams()
    return <OrgSettingsScreen orgId={orgId} />
  }
})
