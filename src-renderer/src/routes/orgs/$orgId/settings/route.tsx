import { IconBuilding, IconForms, IconShieldLock } from '@tabler/icons-react'
import { Outlet, createFileRoute } from '@tanstack/react-router'
import { PageHeader } from '../../../../features/common/PageHeader.tsx'
import { SectionTabs } from '../../../../features/common/SectionTabs.tsx'

const TABS = [
  { to: '/orgs/$orgId/settings', label: 'General', icon: <IconBuilding size={16} />, testId: 'tab-general' },
  { to: '/orgs/$orgId/settings/sso', label: 'Single sign-on', icon: <IconShieldLock size={16} />, testId: 'tab-sso' },
  { to: '/orgs/$orgId/settings/custom-fields', label: 'Custom fields', icon: <IconForms size={16} />, testId: 'tab-custom-fields' },
]

export const Route = createFileRoute('/orgs/$orgId/settings')({
  component: function SettingsLayout() {
    const { orgId } = Route.useParams()
    return (
      <>
        <PageHeader title="Settings" description="How the organization works: its identity, joining rules, sign-in and space metadata." />
        <SectionTabs params={{ orgId }} tabs={TABS} />
        <Outlet />
      </>
    )
  },
})
