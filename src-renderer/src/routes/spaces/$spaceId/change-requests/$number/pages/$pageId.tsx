import { createFileRoute } from '@tanstack/react-router'
import { PendingRows } from '../../../../../../features/common/Skeletons.tsx'
import { PagesScreen } from '../../../../../../features/pages/PagesScreen.tsx'
import { changeRequestQuery, pageQuery, pagesQuery } from '../../../../../../features/pages/queries.ts'

// A page inside a change request: the API's `urls.app` for change-request pages. The same editor as on main,
// writing to this change request. As on main, the page itself loads behind the editor's skeleton.
export const Route = createFileRoute('/spaces/$spaceId/change-requests/$number/pages/$pageId')({
  loader: ({ context: { queryClient }, params: { spaceId, number, pageId } }) => {
    const scope = { spaceId, changeRequest: Number(number) }
    void queryClient.prefetchQuery(pageQuery(scope, pageId))
    return Promise.all([
      queryClient.ensureQueryData(changeRequestQuery(spaceId, Number(number))),
      queryClient.ensureQueryData(pagesQuery(scope))
    ])
  },
  pendingComponent: () => <PendingRows rows={6} />,
  component: function ChangeRequestPage() {
    const { spaceId, number, pageId } = Route.useParams()
    return <PagesScreen spaceId={spaceId} pageId={pageId} changeRequest={Number(number)} />
  }
})
