import { createFileRoute, redirect } from '@tanstack/react-router'
import { PendingRows } from '../../../features/common/Skeletons.tsx'
import { PagesScreen } from '../../../features/pages/PagesScreen.tsx'
import { pagesQuery } from '../../../features/pages/queries.ts'

// The space's Pages tab: opens its first page (the editor's address), or shows the empty tree.
export const Route = createFileRoute('/spaces/$spaceId/')({
  loader: async ({ context: { queryClient }, params: { spaceId } }) => {
    const pages = await queryClient.ensureQueryData(pagesQuery({ spaceId }))
    const first = pages[0]
    if (first) throw redirect({ to: '/spaces/$spaceId/pages/$pageId', params: { spaceId, pageId: first.id }, replace: true })
  },
  pendingComponent: () => <PendingRows rows={6} />,
  component: function SpacePages() {
    const { spaceId } = Route.useParams()
    return <PagesScreen spaceId={spaceId} />
  }
})
