import { IconBuilding, IconForms, IconHistory, IconShieldLock } from '@tabler/icons-react'
import { useSuspenseQuery } from '@tanstack/react-query'
import { Outlet, createFileRoute } from '@tanstack/react-router'
import { PageHeader } from '../../../../features/common/PageHeader.tsx'
import { SectionTabs } from '../../../../features/common/SectionTabs.tsx'
import { orgQuery } from '../../../../features/orgs/queries.ts'

const AUDIT_TAB = '/orgs/$orgId/settings/audit'

const TABS = [
  { to: '/orgs/$orgId/settings', label: 'General', icon: <IconBuilding size={16} />, testId: 'tab-general' },
  { to: '/orgs/$orgId/settings/sso', label: 'Single sign-on', icon: <IconShieldLock size={16} />, testId: 'tab-sso' },
  { to: '/orgs/$orgId/settings/custom-fields', label: 'Custom fields', icon: <IconForms size={16} />, testId: 'tab-custom-fields' },
  { to: AUDIT_TAB, label: 'Audit log', icon: <IconHistory size={16} />, testId: 'tab-audit' }
]

export const Route = createFileRoute('/orgs/$orgId/settings')({
  component: function SettingsLayout() {
    const { orgId } = Route.useParams()
    const { data: org } = useSuspenseQuery(orgQuery(orgId))
    // The audit log is for organization admins only (the API answers others 403).
    const tabs = org.permissions.admin ? TABS : TABS.filter((t) => t.to !== AUDIT_TAB)
    return (
      <>
        <PageHeader title="Settings" description="How the organization works: its identity, joining rules, sign-in and space metadata." />
        <SectionTabs params={{ orgId }} tabs={tabs} />
        <Outlet />
      </>
    )
  }
})
