import { createFileRoute } from '@tanstack/react-router'
import { parseLinkSearch } from '../../../features/links/links.ts'
import { linksQuery } from '../../../features/links/queries.ts'
import { LinksScreen } from '../../../features/links/LinksScreen.tsx'
import { filesQuery, pagesQuery } from '../../../features/pages/queries.ts'

// The space's links checked against its content; the status filter lives in the address (`?status=broken`).
export const Route = createFileRoute('/spaces/$spaceId/links')({
  validateSearch: parseLinkSearch,
  // No loaderDeps: a filter change keeps the rows on screen (dimmed) while the next ones load.
  loader: ({ context: { queryClient }, params, location }) => {
    const { status } = parseLinkSearch(location.search as Record<string, unknown>)
    void queryClient.prefetchQuery(pagesQuery({ spaceId: params.spaceId }))
    void queryClient.prefetchQuery(filesQuery({ spaceId: params.spaceId }))
    void queryClient.prefetchInfiniteQuery(linksQuery(params.spaceId, status))
  },
  component: function SpaceLinks() {
    const { spaceId } = Route.useParams()
    const { status } = Route.useSearch()
    const navigate = Route.useNavigate()
    return (
      <LinksScreen
        spaceId={spaceId}
        filter={status ?? 'all'}
        onFilterChange={(next) => void navigate({ search: next === 'all' ? {} : { status: next }, replace: true })}
      />
    )
  }
})
