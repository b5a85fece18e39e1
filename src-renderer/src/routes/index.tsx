import { Button, EmptyState } from '@mantine/core'
import { IconBuildingPlus } from '@tabler/icons-react'
import { createFileRoute, redirect } from '@tanstack/react-router'
import { api } from '../api/client.ts'
import { useScreenReady } from '../features/common/screen.ts'
import { orgsQuery } from '../features/orgs/queries.ts'
import { useUiStore } from '../stores/uiStore.ts'

// `/` leads to the organization looked at last (or the first one); it only renders when there is none.
export const Route = createFileRoute('/')({
  loader: async ({ context: { queryClient } }) => {
    if (!api.hasCredentials) return
    const orgs = await queryClient.ensureQueryData(orgsQuery())
    const last = useUiStore.getState().lastOrgId
    const target = orgs.find((o) => o.id === last) ?? orgs[0]
    if (target) throw redirect({ to: '/orgs/$orgId', params: { orgId: target.id }, replace: true })
  },
  component: NoOrganization
})

function NoOrganization() {
  useScreenReady()
  if (!api.hasCredentials) return null
  return (
    <EmptyState
      mt={96}
      variant="light"
      icon={<IconBuildingPlus size={28} stroke={1.6} />}
      title="You are not in an organization yet"
      description="Create one from the organization menu in the sidebar, or open an invite link you were sent."
    >
      <EmptyState.Actions>
        <Button variant="default" onClick={() => document.querySelector<HTMLElement>('[data-testid="org-switcher"]')?.click()}>
          Open the organization menu
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  )
}
