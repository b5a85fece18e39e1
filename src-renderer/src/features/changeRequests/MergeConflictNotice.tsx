import { Alert, Group, Text } from '@mantine/core'
import { IconAlertTriangle, IconGitMerge } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import type { ChangeRequest } from '../../api/types.ts'
import { RouterButton } from '../common/links.tsx'
import { conflictCount, pages } from './changes.ts'
import { isActive } from './moves.ts'
import { changeRequestChangesQuery } from './queries.ts'

/** The way to the merge editor of a change request. */
export function MergeEditorButton({
  spaceId,
  number,
  size = 'xs'
}: {
  spaceId: string
  number: number | string
  size?: 'xs' | 'compact-sm'
}) {
  return (
    <RouterButton
      to="/spaces/$spaceId/change-requests/$number/merge"
      params={{ spaceId, number: String(number) }}
      size={size}
      color="red"
      variant="light"
      leftSection={<IconGitMerge size={14} />}
      style={{ flex: 'none' }}
      data-testid="open-merge-editor"
    >
      Resolve conflicts
    </RouterButton>
  )
}

/**
 * A bar for the page editor of a change request that conflicts with main: how many pages, whether this one is
 * among them, and the way to the merge editor. Nothing while the change request is up to date (no conflict is
 * possible then, and `/changes` is not asked).
 */
export function MergeConflictNotice({
  spaceId,
  cr,
  pageId,
  className
}: {
  spaceId: string
  cr: ChangeRequest
  pageId?: string
  className?: string
}) {
  const watch = cr.outdated && isActive(cr.status)
  const changes = useQuery({ ...changeRequestChangesQuery(spaceId, String(cr.number)), enabled: watch }).data
  const n = watch && changes ? conflictCount(changes) : 0
  if (!n) return null
  const here = !!pageId && changes!.some((c) => c.conflict && c.page.id === pageId)
  return (
    <Alert
      color="red"
      variant="light"
      radius={0}
      icon={<IconAlertTriangle size={18} />}
      className={className}
      data-testid="cr-conflict-notice"
    >
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm">
          This change request conflicts with main on {pages(n)}
          {here ? (n === 1 ? ': this one' : ', this one among them') : ''}. Updating and merging stop there until the conflicts are
          resolved.
        </Text>
        <MergeEditorButton spaceId={spaceId} number={cr.number} />
      </Group>
    </Alert>
  )
}
