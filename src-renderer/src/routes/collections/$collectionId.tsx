import { createFileRoute } from '@tanstack/react-router'
import { ScreenSkeleton } from '../../features/common/Skeletons.tsx'
import { CollectionScreen } from '../../features/content/CollectionScreen.tsx'
import { collectionQuery, collectionSpacesQuery, collectionsQuery } from '../../features/content/queries.ts'

// The address the API gives as a collection's `urls.app` (`#/collections/{id}`).
export const Route = createFileRoute('/collections/$collectionId')({
  // The organization's collections give the breadcrumbs and the collections inside this one.
  loader: async ({ context: { queryClient }, params }) => {
    const [collection] = await Promise.all([
      queryClient.ensureQueryData(collectionQuery(params.collectionId)),
      queryClient.ensureQueryData(collectionSpacesQuery(params.collectionId))
    ])
    await queryClient.ensureQueryData(collectionsQuery(collection.organization))
  },
  pendingComponent: () => <ScreenSkeleton rows={4} />,
  component: function CollectionRoute() {
    const { collectionId } = Route.useParams()
    return <CollectionScreen collectionId={collectionId} />
  }
})
