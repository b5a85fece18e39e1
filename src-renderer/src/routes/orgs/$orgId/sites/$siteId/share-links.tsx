import { createFileRoute } from '@tanstack/react-router'
import { ShareLinksScreen } from '../../../../../features/sites/ShareLinksScreen.tsx'

export const Route = createFileRoute('/orgs/$orgId/sites/$siteId/share-links')({
  component: function SiteShareLinks() {
    const { orgId, siteId } = Route.useParams()
    return <ShareLinksScreen orgId={orgId} siteId={siteId} />
  }
})
