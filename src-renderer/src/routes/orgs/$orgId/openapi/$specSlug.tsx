import { createFileRoute } from '@tanstack/react-router'
import { ScreenSkeleton } from '../../../../features/common/Skeletons.tsx'
import { specQuery } from '../../../../features/openapi/queries.ts'
import { OpenAPISpecScreen } from '../../../../features/openapi/OpenAPISpecScreen.tsx'

export const Route = createFileRoute('/orgs/$orgId/openapi/$specSlug')({
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(specQuery(params.orgId, params.specSlug)),
  pendingComponent: () => <ScreenSkeleton rows={4} />,
  component: function OpenAPISpec() {
    const { orgId, specSlug } = Route.useParams()
    return <OpenAPISpecScreen orgId={orgId} specSlug={specSlug} />
  }
})
