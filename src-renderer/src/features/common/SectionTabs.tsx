import type { ReactNode } from 'react'
import { Tabs, Tooltip } from '@mantine/core'
import { useNavigate, useRouterState } from '@tanstack/react-router'
import classes from './SectionTabs.module.css'

export interface SectionTab {
  /** A route path with `$param` placeholders filled from `params`. */
  to: string
  label: string
  icon: ReactNode
  testId: string
  /** Addresses under another tab's path that belong to this one (matched against the pathname first). */
  claims?: RegExp
}

/** Tabs that are routes: the active tab follows the address, and choosing one navigates. `compact`: icons only, named by their tooltip and label. */
export function SectionTabs({ tabs, params, compact }: { params: Record<string, string>; tabs: SectionTab[]; compact?: boolean }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const navigate = useNavigate()
  const fill = (to: string) => to.replace(/\$(\w+)/g, (whole, name: string) => params[name] ?? whole)
  const resolved = tabs.map((t) => ({ ...t, path: fill(t.to) }))
  // The longest matching path wins, so `/settings` does not also claim `/settings/sso`.
  const active =
    resolved.find((t) => t.claims?.test(pathname)) ??
    [...resolved].sort((a, b) => b.path.length - a.path.length).find((t) => pathname === t.path || pathname.startsWith(`${t.path}/`))
  return (
    <Tabs
      value={active?.to ?? null}
      onChange={(to) => to && void navigate({ to, params } as never)}
      mb={compact ? 0 : 'lg'}
      classNames={
        compact ? { list: classes.compactList } : { root: classes.root, list: classes.list, tab: classes.tab, tabSection: classes.section }
      }
    >
      <Tabs.List grow={compact}>
        {resolved.map((t) =>
          compact ? (
            <Tooltip key={t.to} label={t.label}>
              <Tabs.Tab value={t.to} aria-label={t.label} data-testid={t.testId} px={4}>
                {t.icon}
              </Tabs.Tab>
            </Tooltip>
          ) : (
            <Tabs.Tab key={t.to} value={t.to} leftSection={t.icon} data-testid={t.testId}>
              {t.label}
            </Tabs.Tab>
          )
        )}
      </Tabs.List>
    </Tabs>
  )
}
