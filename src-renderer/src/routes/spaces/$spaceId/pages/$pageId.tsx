import { createFileRoute } from '@tanstack/react-router'
import { PendingRows } from '../../../../features/common/Skeletons.tsx'
import { PagesScreen } from '../../../../features/pages/PagesScreen.tsx'
import { pageQuery, pagesQuery } from '../../../../features/pages/queries.ts'

// A page of the space's main content: the API's page `urls.app` (`#/spaces/{spaceId}/pages/{pageId}`).
export const Route = createFileRoute('/spaces/$spaceId/pages/$pageId')({
  loader: ({ context: { queryClient }, params: { spaceId, pageId } }) =>
    Promise.all([queryClient.ensureQueryData(pagesQuery({ spaceId })), queryClient.ensureQueryData(pageQuery({ spaceId }, pageId))]),
  pendingComponent: () => <PendingRows rows={6} />,
  component: function SpacePage() {
    const { spaceId, pageId } = Route.useParams()
    return <PagesScreen spaceId={spaceId} pageId={pageId} />
  }
})
