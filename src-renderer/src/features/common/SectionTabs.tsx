import type { ReactNode } from 'react'
import { Tabs } from '@mantine/core'
import { useNavigate, useRouterState } from '@tanstack/react-router'

export interface SectionTab {
  /** A route path with `$param` placeholders filled from `params`. */
  to: string
  label: string
  icon: ReactNode
  testId: string
  /** Addresses under another tab's path that belong to this one (matched against the pathname first). */
  claims?: RegExp
}

/** Tabs that are routes: the active tab follows the address, and choosing one navigates. */
export function SectionTabs({ tabs, params }: { params: Record<string, string>; tabs: SectionTab[] }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const navigate = useNavigate()
  const fill = (to: string) => to.replace(/\$(\w+)/g, (whole, name: string) => params[name] ?? whole)
  const resolved = tabs.map((t) => ({ ...t, path: fill(t.to) }))
  // The longest matching path wins, so `/settings` does not also claim `/settings/sso`.
  const active =
    resolved.find((t) => t.claims?.test(pathname)) ??
    [...resolved].sort((a, b) => b.path.length - a.path.length).find((t) => pathname === t.path || pathname.startsWith(`${t.path}/`))
  return (
    <Tabs value={active?.to ?? null} onChange={(to) => to && void navigate({ to, params } as never)} mb="lg">
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
