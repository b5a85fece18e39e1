// The organization's content as a tree (collections hold collections and spaces), flattened into the rows a
// virtualized list draws, and the rules for where a dragged row may land. Pure functions: tested in Node.
import type { Collection, Space } from '../../api/types.ts'
import type { MoveBody } from './queries.ts'
import { emojiText } from '../common/emoji.ts'

export type TreeItemKind = 'space' | 'collection'

export interface TreeRow {
  kind: TreeItemKind
  id: string
  title: string
  emoji: string
  depth: number
  parent: string | null
  /** Collections only: how many spaces and collections it holds directly. */
  childCount: number
  expanded: boolean
}

interface Node {
  kind: TreeItemKind
  id: string
  title: string
  emoji: string
  parent: string | null
  children: Node[]
}

/**
 * Sibling order: collections first, then spaces, each in the order the API lists them. The API does not
 * expose sibling positions yet (see the report), so a `before`/`after` move is sent but not shown.
 */
export function buildForest(collections: Collection[], spaces: Space[]): Node[] {
  const byId = new Map<string, Node>()
  for (const c of collections)
    byId.set(c.id, { kind: 'collection', id: c.id, title: c.title, emoji: '', parent: c.parent ?? null, children: [] })
  const roots: Node[] = []
  const attach = (node: Node) => {
    const parent = node.parent ? byId.get(node.parent) : undefined
    // A parent we cannot see (no access, or deleted meanwhile) puts the item at the top level.
    if (parent && parent.kind === 'collection') parent.children.push(node)
    else roots.push(node)
  }
  for (const c of collections) attach(byId.get(c.id)!)
  for (const s of spaces)
    attach({ kind: 'space', id: s.id, title: s.title, emoji: emojiText(s.emoji), parent: s.parent ?? null, children: [] })
  return roots
}

/** The rows to draw: a depth-first walk that skips the children of collapsed collections. */
export function flattenTree(roots: Node[], isCollapsed: (collectionId: string) => boolean): TreeRow[] {
  const rows: TreeRow[] = []
  const walk = (nodes: Node[], depth: number) => {
    for (const node of nodes) {
      const expanded = node.kind === 'collection' && !isCollapsed(node.id)
      rows.push({
        kind: node.kind,
        id: node.id,
        title: node.title,
        emoji: node.emoji,
        depth,
        parent: node.parent,
        childCount: node.children.length,
        expanded
      })
      if (expanded) walk(node.children, depth + 1)
    }
  }
  walk(roots, 0)
  return rows
}

/** Ids of a collection's nested collections (a collection cannot move into one of them). */
export function descendantCollections(collections: Collection[], collectionId: string): Set<string> {
  const children = new Map<string, string[]>()
  for (const c of collections) if (c.parent) children.set(c.parent, [...(children.get(c.parent) ?? []), c.id])
  const found = new Set<string>()
  const stack = [...(children.get(collectionId) ?? [])]
  while (stack.length) {
    const id = stack.pop()!
    if (found.has(id)) continue
    found.add(id)
    stack.push(...(children.get(id) ?? []))
  }
  return found
}

export type DropZone = 'before' | 'inside' | 'after'

/** Which part of a row the pointer is over: the middle half of a collection means "into it". */
export function dropZoneAt(row: Pick<TreeRow, 'kind'>, offsetY: number, height: number): DropZone {
  const ratio = height > 0 ? offsetY / height : 0.5
  if (row.kind === 'collection') return ratio < 0.25 ? 'before' : ratio > 0.75 ? 'after' : 'inside'
  return ratio < 0.5 ? 'before' : 'after'
}

export interface DragItem {
  kind: TreeItemKind
  id: string
  parent: string | null
}

/**
 * The move request for dropping `item` on `target` (a row, or `null` for the top level), or null when the
 * drop would do nothing or is not allowed (onto itself, a collection into its own subtree).
 */
export function moveRequest(
  item: DragItem,
  target: { row: Pick<TreeRow, 'kind' | 'id' | 'parent'>; zone: DropZone } | null,
  collections: Collection[]
): MoveBody | null {
  if (!target) return item.parent === null ? null : { parent: null }
  const { row, zone } = target
  if (row.kind === item.kind && row.id === item.id) return null
  const parent = zone === 'inside' ? row.id : row.parent
  if (item.kind === 'collection' && parent !== null) {
    if (parent === item.id || descendantCollections(collections, item.id).has(parent)) return null
  }
  if (zone === 'inside') return parent === item.parent ? null : { parent }
  const anchor = row.kind === 'space' ? { type: 'space' as const, space: row.id } : { type: 'collection' as const, collection: row.id }
  return { parent, position: zone === 'before' ? { before: anchor } : { after: anchor } }
}

/** Select value of "Top level" (Select values are strings; collection ids never look like this). */
export const TOP_LEVEL = 'top-level'

/** Where a row can be moved with the keyboard-friendly "Move to…" dialog: the top level and collections. */
export function moveDestinations(item: DragItem, collections: Collection[]): { value: string; label: string }[] {
  const blocked = item.kind === 'collection' ? new Set([item.id, ...descendantCollections(collections, item.id)]) : new Set<string>()
  const byId = new Map(collections.map((c) => [c.id, c]))
  const path = (c: Collection): string => {
    const seen = new Set<string>()
    const parts: string[] = []
    let cur: Collection | undefined = c
    while (cur && !seen.has(cur.id)) {
      seen.add(cur.id)
      parts.unshift(cur.title || 'Untitled collection')
      cur = cur.parent ? byId.get(cur.parent) : undefined
    }
    return parts.join(' / ')
  }
  return [
    { value: TOP_LEVEL, label: 'Top level' },
    ...collections
      .filter((c) => !blocked.has(c.id))
      .map((c) => ({ value: c.id, label: path(c) }))
      .sort((a, b) => a.label.localeCompare(b.label))
  ]
}
