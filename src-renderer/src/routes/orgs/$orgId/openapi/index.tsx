import { createFileRoute } from '@tanstack/react-router'
import { ScreenSkeleton } from '../../../../features/common/Skeletons.tsx'
import { specsQuery } from '../../../../features/openapi/queries.ts'
import { OpenAPISpecsScreen } from '../../../../features/openapi/OpenAPISpecsScreen.tsx'

export const Route = createFileRoute('/orgs/$orgId/openapi/')({
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(specsQuery(params.orgId)),
  pendingComponent: () => <ScreenSkeleton rows={4} />,
  component: function OpenAPISpecs() {
    const { orgId } = Route.useParams()
    return <OpenAPISpecsScreen orgId={orgId} />
  }
})
