import { createFileRoute } from '@tanstack/react-router'
import { SpaceCommentsScreen } from '../../../features/comments/SpaceCommentsScreen.tsx'
import { listFilters, ME, parseCommentSearch } from '../../../features/comments/filters.ts'
import { commentsQuery } from '../../../features/comments/queries.ts'
import { pagesQuery } from '../../../features/pages/queries.ts'

// Filters live in the address, so a filtered list can be bookmarked and Back undoes a filter.
export const Route = createFileRoute('/spaces/$spaceId/comments')({
  validateSearch: parseCommentSearch,
  // No loaderDeps: a filter change keeps the rows on screen (dimmed) while the next ones load, instead of a
  // pending view. The first visit still starts the requests before rendering.
  loader: ({ context: { queryClient }, params, location }) => {
    const search = parseCommentSearch(location.search as Record<string, unknown>)
    void queryClient.prefetchQuery(pagesQuery({ spaceId: params.spaceId }))
    if (search.author !== ME) void queryClient.prefetchInfiniteQuery(commentsQuery(params.spaceId, listFilters({ ...search })))
  },
  component: function SpaceComments() {
    const { spaceId } = Route.useParams()
    const search = Route.useSearch()
    const navigate = Route.useNavigate()
    return (
      <SpaceCommentsScreen spaceId={spaceId} search={search} onSearchChange={(next) => void navigate({ search: next, replace: true })} />
    )
  }
})
