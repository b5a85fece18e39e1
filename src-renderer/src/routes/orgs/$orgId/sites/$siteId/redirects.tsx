import { createFileRoute } from '@tanstack/react-router'
import { RedirectsScreen } from '../../../../../features/sites/RedirectsScreen.tsx'

export const Route = createFileRoute('/orgs/$orgId/sites/$siteId/redirects')({
  component: function SiteRedirects() {
    const { orgId, siteId } = Route.useParams()
    return <RedirectsScreen orgId={orgId} siteId={siteId} />
  }
})
