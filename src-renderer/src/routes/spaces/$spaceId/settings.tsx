import { createFileRoute } from '@tanstack/react-router'
import { customFieldsQuery } from '../../../features/customFields/queries.ts'
import { spaceQuery } from '../../../features/content/queries.ts'
import { spaceCustomFieldsQuery } from '../../../features/spaceSettings/queries.ts'
import { SpaceSettingsScreen } from '../../../features/spaceSettings/SpaceSettingsScreen.tsx'

// The space's settings: lock, audience, custom field values, transfer.
export const Route = createFileRoute('/spaces/$spaceId/settings')({
  loader: async ({ context: { queryClient }, params }) => {
    const space = await queryClient.ensureQueryData(spaceQuery(params.spaceId))
    void queryClient.prefetchQuery(customFieldsQuery(space.organization))
    void queryClient.prefetchQuery(spaceCustomFieldsQuery(params.spaceId))
  },
  component: function SpaceSettings() {
    const { spaceId } = Route.useParams()
    return <SpaceSettingsScreen spaceId={spaceId} />
  }
})
