import { createFileRoute } from '@tanstack/react-router'
import { PendingRows } from '../../../../../features/common/Skeletons.tsx'
import { revisionQuery } from '../../../../../features/history/queries.ts'
import { RevisionScreen, type RevisionView } from '../../../../../features/history/RevisionScreen.tsx'

// One revision, read-only. `?page=` names the page shown and `?view=source` shows its markdown, so Back and
// shared links return to them.
export const Route = createFileRoute('/spaces/$spaceId/history/$revisionId/')({
  validateSearch: (search: Record<string, unknown>): { page?: string; view?: 'source' } => ({
    page: typeof search.page === 'string' && search.page ? search.page : undefined,
    view: search.view === 'source' ? 'source' : undefined
  }),
  // Waits for the revision: an unknown one (or one the workspace cannot read offline) shows the error screen.
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(revisionQuery(params.spaceId, params.revisionId)),
  pendingComponent: () => <PendingRows rows={6} />,
  component: function SpaceRevision() {
    const { spaceId, revisionId } = Route.useParams()
    const { page, view } = Route.useSearch()
    const navigate = Route.useNavigate()
    return (
      <RevisionScreen
        key={`${spaceId}/${revisionId}`}
        spaceId={spaceId}
        revisionId={revisionId}
        pageId={page}
        view={view ?? 'preview'}
        onSelect={(next: { page?: string; view: RevisionView }) =>
          void navigate({ search: { page: next.page, view: next.view === 'source' ? 'source' : undefined }, replace: true })
        }
      />
    )
  }
})
