import { IconLink, IconUser, IconUsersGroup } from '@tabler/icons-react'
import { Outlet, createFileRoute } from '@tanstack/react-router'
import { PageHeader } from '../../../../features/common/PageHeader.tsx'
import { SectionTabs } from '../../../../features/common/SectionTabs.tsx'

const TABS = [
  { to: '/orgs/$orgId/team/members', label: 'Members', icon: <IconUser size={16} />, testId: 'tab-members' },
  { to: '/orgs/$orgId/team/teams', label: 'Teams', icon: <IconUsersGroup size={16} />, testId: 'tab-teams' },
  { to: '/orgs/$orgId/team/invites', label: 'Invites', icon: <IconLink size={16} />, testId: 'tab-invites' }
]

export const Route = createFileRoute('/orgs/$orgId/team')({
  component: function TeamLayout() {
    const { orgId } = Route.useParams()
    return (
      <>
        <PageHeader title="Team" description="The people of the organization, their roles, teams and invitations." />
        <SectionTabs params={{ orgId }} tabs={TABS} />
        <Outlet />
      </>
    )
  }
})
