import { createFileRoute } from '@tanstack/react-router'
import { reusableContentListQuery } from '../../../features/reusableContents/queries.ts'
import { ReusableContentsScreen } from '../../../features/reusableContents/ReusableContentsScreen.tsx'

/** `?cr=N`: the reusable contents of change request N (where the screen's edits went), else the main content's. */
function parseSearch(search: Record<string, unknown>): { cr?: number } {
  const cr = Number(search.cr)
  return Number.isInteger(cr) && cr > 0 ? { cr } : {}
}

// The space's reusable contents, made and edited inside a change request.
export const Route = createFileRoute('/spaces/$spaceId/reusable-contents')({
  validateSearch: parseSearch,
  loaderDeps: ({ search }) => ({ cr: search.cr }),
  loader: ({ context: { queryClient }, params, deps }) => {
    void queryClient.prefetchQuery(reusableContentListQuery({ spaceId: params.spaceId, changeRequest: deps.cr }))
  },
  component: function SpaceReusableContents() {
    const { spaceId } = Route.useParams()
    const { cr } = Route.useSearch()
    return <ReusableContentsScreen spaceId={spaceId} changeRequest={cr} />
  }
})
