import { createFileRoute } from '@tanstack/react-router'
import { PendingRows } from '../../../../features/common/Skeletons.tsx'
import { PagesScreen } from '../../../../features/pages/PagesScreen.tsx'
import { pageQuery, pagesQuery } from '../../../../features/pages/queries.ts'

// A page of the space's main content: the API's page `urls.app` (`#/spaces/{spaceId}/pages/{pageId}`).
// Only the page tree is waited for: the page itself loads behind the editor's own skeleton, so moving between
// pages never replaces the tree and the search beside it (nor takes the keyboard focus from them).
export const Route = createFileRoute('/spaces/$spaceId/pages/$pageId')({
  loader: ({ context: { queryClient }, params: { spaceId, pageId } }) => {
    void queryClient.prefetchQuery(pageQuery({ spaceId }, pageId))
    return queryClient.ensureQueryData(pagesQuery({ spaceId }))
  },
  pendingComponent: () => <PendingRows rows={6} />,
  component: function SpacePage() {
    const { spaceId, pageId } = Route.useParams()
    return <PagesScreen spaceId={spaceId} pageId={pageId} />
  }
})
