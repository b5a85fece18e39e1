// The keys every tree of the app shares (WAI-ARIA tree pattern); each tree adds its own (Enter, F2, Delete…).

export type TreeKeyAction = { type: 'focus'; index: number } | { type: 'expand' } | { type: 'collapse' } | null

export interface TreeKeyRow {
  /** The row can fold (a collection, a page with children, a section). */
  expandable: boolean
  expanded: boolean
  /** Index of the row's parent row, when it has one. */
  parentIndex?: number
}

/**
 * What ArrowUp/Down, Home/End and ArrowLeft/Right do on the row at `index` of `count` visible rows: move the
 * focus, or unfold / fold the row. Right on an open row goes to its first child; Left on a closed one to its
 * parent. Null when the key is not a navigation key or does nothing here.
 */
export function treeNavigation(key: string, index: number, count: number, row: TreeKeyRow | undefined): TreeKeyAction {
  if (!count) return null
  switch (key) {
    case 'ArrowDown':
      return { type: 'focus', index: Math.min(count - 1, index + 1) }
    case 'ArrowUp':
      return { type: 'focus', index: Math.max(0, index - 1) }
    case 'Home':
      return { type: 'focus', index: 0 }
    case 'End':
      return { type: 'focus', index: count - 1 }
    case 'ArrowRight':
      if (!row?.expandable) return null
      return row.expanded ? (index + 1 < count ? { type: 'focus', index: index + 1 } : null) : { type: 'expand' }
    case 'ArrowLeft':
      if (row?.expandable && row.expanded) return { type: 'collapse' }
      return row?.parentIndex !== undefined ? { type: 'focus', index: row.parentIndex } : null
    default:
      return null
  }
}
