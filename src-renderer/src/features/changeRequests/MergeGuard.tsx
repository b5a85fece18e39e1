import { useMemo, useState } from 'react'
import type { ContentPage } from '../../api/types.ts'
import { Alert, Code, Stack, Text } from '@mantine/core'
import { modals } from '@mantine/modals'
import { IconGitMerge, IconLinkOff } from '@tabler/icons-react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { RouterAnchor } from '../common/links.tsx'
import { pagesQuery } from '../pages/queries.ts'
import type { PageChange } from './changes.ts'
import { describeBrokenLink, links, type BrokenLinkRow, type PageNames } from './mergeGuard.ts'
import { introducedLinksQuery, type ChangeRequestLinkList } from './queries.ts'
import classes from './MergeGuard.module.css'

/** Titles and paths of the pages holding links: the change request's tree, else main's (a page only main has). */
function namesOf(inCr: ContentPage[] | undefined, onMain: ContentPage[] | undefined): PageNames {
  const names = new Map<string, { title: string; path: string }>()
  const walk = (pages: ContentPage[]) => pages.forEach((p) => (names.set(p.id, { title: p.title, path: p.path }), walk(p.pages)))
  walk(onMain ?? [])
  walk(inCr ?? [])
  return names
}

export interface MergeCheck {
  broken: ChangeRequestLinkList
  names: PageNames
}

/**
 * The links merging a change request would break (the server's `introduced` links), while it can still be merged.
 * `check()` asks again right before a merge, so the confirmation names what would merge now; it answers
 * undefined when the server cannot tell (an older server, offline), and the merge goes on as without the guard.
 */
export function useMergeGuard(spaceId: string, number: string, active: boolean) {
  const client = useQueryClient()
  const { data } = useQuery({ ...introducedLinksQuery(spaceId, number), enabled: active })
  const some = active && (data?.count ?? 0) > 0
  const crPages = pagesQuery({ spaceId, changeRequest: Number(number) })
  const mainPages = pagesQuery({ spaceId })
  const inCr = useQuery({ ...crPages, enabled: some }).data
  const onMain = useQuery({ ...mainPages, enabled: some }).data
  const names = useMemo(() => namesOf(inCr, onMain), [inCr, onMain])
  const [checking, setChecking] = useState(false)
  const check = async (): Promise<MergeCheck | undefined> => {
    setChecking(true)
    try {
      const broken = await client.fetchQuery({ ...introducedLinksQuery(spaceId, number), staleTime: 0 })
      if (!broken.count) return { broken, names }
      const [crTree, mainTree] = await Promise.all([client.ensureQueryData(crPages), client.ensureQueryData(mainPages)])
      return { broken, names: namesOf(crTree, mainTree) }
    } catch {
      return undefined
    } finally {
      setChecking(false)
    }
  }
  return { broken: active ? data : undefined, names, checking, check }
}

export type MergeGuardState = ReturnType<typeof useMergeGuard>

const rowsOf = (list: ChangeRequestLinkList, changes: readonly PageChange[], names: PageNames) =>
  list.items.map((l) => describeBrokenLink(l, changes, names))

/**
 * The broken links, one a line: the page holding it, the link, and why. On screen (`number` given) the page is a
 * link to it; a modal has no router, and shows the name only.
 */
function BrokenLinksList({ rows, more, spaceId, number }: { rows: BrokenLinkRow[]; more: number; spaceId: string; number?: string }) {
  return (
    <ul className={classes.list} aria-label="Broken links" data-testid="broken-links">
      {rows.map((row) => (
        <li key={row.key} className={classes.item} data-testid="broken-link">
          <Text size="sm" fw={500} className={classes.page} data-testid="broken-link-page">
            {number === undefined ? (
              row.page.title
            ) : row.page.inChangeRequest ? (
              <RouterAnchor
                to="/spaces/$spaceId/change-requests/$number/pages/$pageId"
                params={{ spaceId, number, pageId: row.page.id }}
                inherit
              >
                {row.page.title}
              </RouterAnchor>
            ) : (
              <RouterAnchor to="/spaces/$spaceId/pages/$pageId" params={{ spaceId, pageId: row.page.id }} inherit>
                {row.page.title}
              </RouterAnchor>
            )}
          </Text>
          <div className={classes.link}>
            <Code className={classes.href} data-testid="broken-link-href">
              {row.href}
            </Code>
            <Text size="sm" c={number === undefined ? 'dimmed' : undefined} data-testid="broken-link-why">
              {row.why}
            </Text>
          </div>
        </li>
      ))}
      {more > 0 && (
        <li>
          <Text size="sm" c="dimmed">
            and {links(more)} more
          </Text>
        </li>
      )}
    </ul>
  )
}

/** The notice above the changes: what merging would break, while there is anything. */
export function MergeGuard({
  spaceId,
  number,
  guard,
  changes
}: {
  spaceId: string
  number: string
  guard: MergeGuardState
  changes: readonly PageChange[]
}) {
  const { broken, names } = guard
  const count = broken?.count ?? 0
  if (!broken || count === 0) return null
  const rows = rowsOf(broken, changes, names)
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconLinkOff size={18} />}
      title={`Merging breaks ${links(count)}`}
      data-testid="merge-guard"
    >
      <Stack gap={8}>
        <Text size="sm">
          These links lead nowhere once this change request is merged: they work on main now, or they are new here. Fix them in the editor,
          or merge anyway and fix them later.
        </Text>
        <BrokenLinksList rows={rows} more={count - rows.length} spaceId={spaceId} number={number} />
      </Stack>
    </Alert>
  )
}

/** Asks before a merge that breaks links: the modal lists them (page names only), and only "Merge anyway" merges. */
export function confirmMergeBreakingLinks({
  crNumber,
  check,
  changes,
  onConfirm
}: {
  crNumber: number
  check: MergeCheck
  changes: readonly PageChange[]
  onConfirm(): void
}) {
  const { broken, names } = check
  const rows = rowsOf(broken, changes, names)
  modals.openConfirmModal({
    title: `Merge #${crNumber}? It breaks ${links(broken.count)}`,
    size: 'lg',
    children: (
      <Stack gap="sm" data-testid="merge-guard-confirm">
        <Text size="sm">
          After the merge, these links on main lead nowhere. You can merge anyway and fix them later, or cancel and fix them in this change
          request first.
        </Text>
        <div className={classes.scroll}>
          <BrokenLinksList rows={rows} more={broken.count - rows.length} spaceId="" />
        </div>
      </Stack>
    ),
    labels: { confirm: 'Merge anyway', cancel: 'Cancel' },
    confirmProps: { color: 'red', leftSection: <IconGitMerge size={16} />, 'data-testid': 'confirm-merge' } as Record<string, unknown>,
    onConfirm
  })
}
