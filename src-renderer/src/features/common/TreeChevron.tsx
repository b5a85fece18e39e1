import { UnstyledButton } from '@mantine/core'
import { IconChevronRight } from '@tabler/icons-react'
import type { MouseEvent, PointerEvent } from 'react'
import classes from './treeRow.module.css'

/**
 * Props for a control inside a tree row (a button, a menu, a popover's anchor): a press on it neither starts the
 * row's drag nor reaches the row's own click, which opens or selects the row. Popovers need it too: React events
 * bubble out of portals to the row.
 */
export const stopRowEvents = {
  onPointerDown: (e: PointerEvent) => e.stopPropagation(),
  onClick: (e: MouseEvent) => e.stopPropagation()
}

/**
 * A tree row's expand/collapse toggle, turned a quarter when expanded. A row with nothing to expand gets the same
 * blank width, so the titles of a level line up. Out of the tab order: the tree's arrow keys expand and collapse.
 */
export function TreeChevron({
  expandable,
  expanded,
  title,
  onToggle
}: {
  expandable: boolean
  expanded: boolean
  title: string
  onToggle(): void
}) {
  if (!expandable) return <span className={classes.chevron} aria-hidden />
  return (
    <UnstyledButton
      className={classes.chevron}
      data-expanded={expanded || undefined}
      aria-label={expanded ? `Collapse ${title}` : `Expand ${title}`}
      tabIndex={-1}
      {...stopRowEvents}
      onClick={(e) => {
        e.stopPropagation()
        onToggle()
      }}
    >
      <IconChevronRight size={14} stroke={2} />
    </UnstyledButton>
  )
}
