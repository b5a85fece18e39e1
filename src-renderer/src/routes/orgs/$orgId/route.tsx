import { Outlet, createFileRoute } from '@tanstack/react-router'
import { ScreenSkeleton } from '../../../features/common/Skeletons.tsx'
import { orgQuery } from '../../../features/orgs/queries.ts'

// Every screen of an organization needs the organization itself (title, permissions).
export const Route = createFileRoute('/orgs/$orgId')({
  loader: ({ context: { queryClient }, params }) => queryClient.ensureQueryData(orgQuery(params.orgId)),
  pendingComponent: () => <ScreenSkeleton />,
  component: Outlet
})
