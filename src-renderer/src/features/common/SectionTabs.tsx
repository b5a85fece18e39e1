import type { ReactNode } from 'react'
import { Tabs } from '@mantine/core'
import { useNavigate, useRouterState } from '@tanstack/react-router'

/** Tabs that are routes: the active tab follows the address, and choosing one navigates. */
export function SectionTabs({ tabs, orgId }: { orgId: string; tabs: { to: string; label: string; icon: ReactNode; testId: string }[] }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const navigate = useNavigate()
  const resolved = tabs.map((t) => ({ ...t, path: t.to.replace('$orgId', orgId) }))
  // The longest matching path wins, so `/settings` does not also claim `/settings/sso`.
  const active = [...resolved].sort((a, b) => b.path.length - a.path.length).find((t) => pathname === t.path || pathname.startsWith(`${t.path}/`))
  return (
    <Tabs value={active?.to ?? null} onChange={(to) => to && void navigate({ to, params: { orgId } } as never)} mb="lg">
      <Tabs.List>
        {resolved.map((t) => (
          <Tabs.Tab key={t.to} value={t.to} leftSection={t.icon} data-testid={t.testId}>
            {t.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  )
}
