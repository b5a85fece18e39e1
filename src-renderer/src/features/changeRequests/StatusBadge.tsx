import { Badge, Tooltip, type BadgeProps } from '@mantine/core'
import type { ChangeRequestStatus } from '../../api/types.ts'
import { STATUS_COLORS, STATUS_LABELS } from './moves.ts'

export function StatusBadge({ status, ...props }: { status: ChangeRequestStatus } & BadgeProps) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" data-testid="cr-status" data-status={status} {...props}>
      {STATUS_LABELS[status]}
    </Badge>
  )
}

/** Main has revisions the change request has not pulled in. */
export function OutdatedBadge(props: BadgeProps) {
  return (
    <Tooltip label="Main changed since this change request last pulled it in">
      <Badge color="yellow" variant="light" data-testid="cr-outdated" {...props}>
        Outdated
      </Badge>
    </Tooltip>
  )
}
