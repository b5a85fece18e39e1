import { createFileRoute, redirect } from '@tanstack/react-router'

export const Route = createFileRoute('/orgs/$orgId/team/')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/orgs/$orgId/team/members', params, replace: true })
  }
})
