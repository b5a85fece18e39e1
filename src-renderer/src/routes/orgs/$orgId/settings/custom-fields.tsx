import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { PendingRows } from '../../../../features/common/Skeletons.tsx'
import { CustomFieldsScreen } from '../../../../features/customFields/CustomFieldsScreen.tsx'
import { customFieldsQuery } from '../../../../features/customFields/queries.ts'
import { orgQuery } from '../../../../features/orgs/queries.ts'

export const Route = createFileRoute('/orgs/$orgId/settings/custom-fields')({
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(customFieldsQuery(params.orgId)),
  pendingComponent: () => <PendingRows rows={4} />,
  component: function CustomFields() {
    const { orgId } = Route.useParams()
    const { data: org } = useSuspenseQuery(orgQuery(orgId))
    return <CustomFieldsScreen orgId={orgId} canAdmin={org.permissions.admin} />
  }
})
