import { createFileRoute } from '@tanstack/react-router'
import { FilesScreen } from '../../../features/files/FilesScreen.tsx'
import { filesQuery, pagesQuery } from '../../../features/pages/queries.ts'

// The files of the space's main content, with the pages that use each one.
export const Route = createFileRoute('/spaces/$spaceId/files')({
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(pagesQuery({ spaceId: params.spaceId }))
    void queryClient.prefetchQuery(filesQuery({ spaceId: params.spaceId }))
  },
  component: function SpaceFiles() {
    const { spaceId } = Route.useParams()
    return <FilesScreen spaceId={spaceId} />
  }
})
