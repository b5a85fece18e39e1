import { memo, useCallback, useEffect, useMemo, useRef, type KeyboardEvent } from 'react'
import {
  DndContext,
  DragOverlay,
  MeasuringStrategy,
  pointerWithin,
  useDraggable,
  useDroppable,
  type DragEndEvent,
  type DragMoveEvent,
  type DragOverEvent,
  type DragStartEvent
} from '@dnd-kit/core'
import { ActionIcon, Badge, Menu, Text, Tooltip, UnstyledButton } from '@mantine/core'
import {
  IconArrowsExchange,
  IconArrowsMove,
  IconCopy,
  IconDots,
  IconFileText,
  IconFolder,
  IconFolderOpen,
  IconFolderPlus,
  IconPencil,
  IconPlus,
  IconTrash,
  IconArrowBarToUp
} from '@tabler/icons-react'
import type { Collection, Space } from '../../api/types.ts'
import { notifySuccess } from '../../app/notify.ts'
import { useUiStore } from '../../stores/uiStore.ts'
import { stopRowEvents, TreeChevron } from '../common/TreeChevron.tsx'
import { treeNavigation } from '../common/treeKeys.ts'
import { useTreeDrag } from '../common/useTreeDrag.ts'
import { usePageVirtualizer } from '../common/usePageVirtualizer.ts'
import { useContentActions, type ContentActions } from './contentActions.tsx'
import { EmojiPicker } from './EmojiPicker.tsx'
import { useMoveItem } from './queries.ts'
import { buildForest, dropZoneAt, flattenTree, moveRequest, type DropZone, type TreeRow } from './treeModel.ts'
import classes from './ContentTree.module.css'

const ROW_HEIGHT = 38
const INDENT = 20
const ROOT_DROP = 'drop:top-level'

const rowKey = (row: Pick<TreeRow, 'kind' | 'id'>) => `${row.kind}:${row.id}`

type DropState = { key: string; zone: DropZone } | { key: typeof ROOT_DROP } | null

/**
 * The organization's collections and spaces as one virtualized tree. Rows drag onto a collection (into it),
 * onto the upper or lower edge of a row (beside it), or onto the "top level" strip; the same moves are in
 * each row's menu ("Move to…") and on the keyboard.
 */
export function ContentTree({ orgId, collections, spaces }: { orgId: string; collections: Collection[]; spaces: Space[] }) {
  const collapsed = useUiStore((s) => s.collapsed)
  const setCollapsed = useUiStore((s) => s.setCollapsed)
  const selectedKey = useUiStore((s) => s.selectedTreeId)
  const select = useUiStore((s) => s.select)
  const actions = useContentActions(orgId)
  const move = useMoveItem(orgId)

  const rows = useMemo(() => flattenTree(buildForest(collections, spaces), (id) => !!collapsed[id]), [collections, spaces, collapsed])
  const indexByKey = useMemo(() => new Map(rows.map((r, i) => [rowKey(r), i])), [rows])

  // The page's own scroll area scrolls the tree, so the tree needs no inner scrollbar.
  const { listRef, list, virtualizer, scrollMargin } = usePageVirtualizer({
    count: rows.length,
    rowHeight: ROW_HEIGHT,
    overscan: 12,
    getItemKey: (index) => rowKey(rows[index]!)
  })

  // A row selected from elsewhere (just created, restored) scrolls into view once it is in the tree; rows
  // changing under an old selection must not pull the page back to it.
  const selectedIndex = selectedKey ? indexByKey.get(selectedKey) : undefined
  const revealed = useRef<string | null>(null)
  useEffect(() => {
    if (selectedIndex === undefined || !list || revealed.current === selectedKey) return
    revealed.current = selectedKey
    virtualizer.scrollToIndex(selectedIndex, { align: 'auto' })
  }, [selectedKey, selectedIndex, list, virtualizer])

  // --- drag and drop ---------------------------------------------------------------------------------------
  const { sensors, dragged, setDragged, drop, setDrop, pointer, justDragged, endDrag } = useTreeDrag<TreeRow, NonNullable<DropState>>()

  const targetOf = useCallback(
    (overId: string | undefined, item: TreeRow): DropState => {
      if (!overId) return null
      if (overId === ROOT_DROP) return moveRequest(item, null, collections) ? { key: ROOT_DROP } : null
      const index = indexByKey.get(overId)
      const node = list?.querySelector<HTMLElement>(`[data-tree-key="${CSS.escape(overId)}"]`)
      if (index === undefined || !node) return null
      const row = rows[index]!
      const rect = node.getBoundingClientRect()
      const zone = dropZoneAt(row, pointer.current.y - rect.top, rect.height)
      return moveRequest(item, { row, zone }, collections) ? { key: overId, zone } : null
    },
    // `pointer` is a ref (the same object for the tree's life).
    [collections, indexByKey, rows, list, pointer]
  )

  const onDragStart = (event: DragStartEvent) => {
    const row = event.active.data.current?.row as TreeRow | undefined
    const start = event.activatorEvent as PointerEvent
    pointer.current = { x: start.clientX, y: start.clientY }
    setDragged(row ?? null)
    if (row) select(rowKey(row))
  }

  const onDragMove = (event: DragMoveEvent | DragOverEvent) => {
    const item = (event.active.data.current?.row as TreeRow | undefined) ?? dragged
    if (!item) return
    const next = targetOf(event.over ? String(event.over.id) : undefined, item)
    setDrop((prev) => (sameDrop(prev, next) ? prev : next))
  }

  const onDragEnd = (event: DragEndEvent) => {
    const item = (event.active.data.current?.row as TreeRow | undefined) ?? dragged
    const target = item ? targetOf(event.over ? String(event.over.id) : undefined, item) : null
    endDrag()
    if (!item || !target) return
    const targetRow = target.key === ROOT_DROP ? null : rows[indexByKey.get(target.key)!]!
    const body = moveRequest(item, targetRow && 'zone' in target ? { row: targetRow, zone: target.zone } : null, collections)
    if (!body) return
    if (targetRow && 'zone' in target && target.zone === 'inside') setCollapsed(targetRow.id, false)
    const where = body.parent ? `into “${collections.find((c) => c.id === body.parent)?.title ?? 'the collection'}”` : 'to the top level'
    move.mutate({ kind: item.kind, id: item.id, body }, { onSuccess: () => notifySuccess(`Moved “${item.title}” ${where}`) })
  }

  // --- keyboard ----------------------------------------------------------------------------------------------
  const focusRow = (index: number) => {
    const row = rows[index]
    if (!row) return
    select(rowKey(row))
    virtualizer.scrollToIndex(index, { align: 'auto' })
    requestAnimationFrame(() => list?.querySelector<HTMLElement>(`[data-tree-key="${CSS.escape(rowKey(row))}"]`)?.focus())
  }
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // Keys typed in a row's popovers (emoji field, menus) are theirs.
    if (!(e.target as HTMLElement).dataset.treeKey) return
    const index = selectedKey ? (indexByKey.get(selectedKey) ?? -1) : -1
    const row = rows[index]
    const handled = () => {
      e.preventDefault()
      e.stopPropagation()
    }
    const nav = treeNavigation(
      e.key,
      index,
      rows.length,
      row && {
        expandable: row.kind === 'collection',
        expanded: !!row.expanded,
        parentIndex: row.parent ? indexByKey.get(`collection:${row.parent}`) : undefined
      }
    )
    if (nav) {
      handled()
      if (nav.type === 'focus') focusRow(nav.index)
      else setCollapsed(row!.id, nav.type === 'collapse')
      return
    }
    switch (e.key) {
      case 'Enter':
        if (row) {
          handled()
          actions.open(row)
        }
        break
      case 'F2':
        if (row) {
          handled()
          actions.rename(row)
        }
        break
      case 'Delete':
        if (row) {
          handled()
          actions.remove(row)
        }
        break
    }
  }

  const items = virtualizer.getVirtualItems()
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={pointerWithin}
      measuring={{ droppable: { strategy: MeasuringStrategy.Always } }}
      onDragStart={onDragStart}
      onDragMove={onDragMove}
      onDragOver={onDragMove}
      onDragEnd={onDragEnd}
      onDragCancel={endDrag}
    >
      {dragged?.parent && <TopLevelDrop over={drop?.key === ROOT_DROP} />}
      <div
        ref={listRef}
        role="tree"
        aria-label="Spaces and collections"
        className={classes.tree}
        data-testid="content-tree"
        style={{ height: virtualizer.getTotalSize() }}
        onKeyDown={onKeyDown}
      >
        {items.map((item) => {
          const row = rows[item.index]!
          const key = rowKey(row)
          return (
            <TreeRowView
              key={key}
              row={row}
              top={item.start - scrollMargin}
              selected={selectedKey === key}
              focusable={selectedKey ? selectedKey === key : item.index === 0}
              dropZone={drop && drop.key === key && 'zone' in drop ? drop.zone : null}
              actions={actions}
              onSelect={select}
              ignoreClick={() => justDragged.current}
            />
          )
        })}
      </div>
      <DragOverlay dropAnimation={null}>
        {dragged && (
          <div className={classes.overlay}>
            {dragged.kind === 'collection' ? <IconFolder size={16} /> : <span>{dragged.emoji || '📄'}</span>}
            {dragged.title || 'Untitled'}
          </div>
        )}
      </DragOverlay>
    </DndContext>
  )
}

function sameDrop(a: DropState, b: DropState): boolean {
  if (a === null || b === null) return a === b
  return a.key === b.key && ('zone' in a ? a.zone : null) === ('zone' in b ? b.zone : null)
}

function TopLevelDrop({ over }: { over: boolean }) {
  const { setNodeRef } = useDroppable({ id: ROOT_DROP })
  return (
    <div ref={setNodeRef} className={classes.rootDrop} data-over={over || undefined} data-testid="drop-top-level">
      <IconArrowBarToUp size={16} /> Move to the top level
    </div>
  )
}

interface RowProps {
  row: TreeRow
  top: number
  selected: boolean
  focusable: boolean
  dropZone: DropZone | null
  actions: ContentActions
  onSelect(key: string): void
  ignoreClick(): boolean
}

const TreeRowView = memo(function TreeRowView({ row, top, selected, focusable, dropZone, actions, onSelect, ignoreClick }: RowProps) {
  const key = rowKey(row)
  const draggable = useDraggable({ id: key, data: { row } })
  const droppable = useDroppable({ id: key, data: { row } })
  const { setNodeRef: setDragRef } = draggable
  const { setNodeRef: setDropRef } = droppable
  const setRef = useCallback(
    (node: HTMLDivElement | null) => {
      setDragRef(node)
      setDropRef(node)
    },
    [setDragRef, setDropRef]
  )
  const indent = 8 + row.depth * INDENT
  const title = row.title || (row.kind === 'space' ? 'Untitled space' : 'Untitled collection')

  return (
    <div
      ref={setRef}
      {...draggable.attributes}
      {...draggable.listeners}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-expanded={row.kind === 'collection' ? row.expanded : undefined}
      aria-selected={selected}
      aria-label={title}
      tabIndex={focusable ? 0 : -1}
      className={classes.row}
      data-tree-key={key}
      data-testid="tree-row"
      data-kind={row.kind}
      data-selected={selected || undefined}
      data-dragging={draggable.isDragging || undefined}
      data-drop={dropZone ?? undefined}
      style={{ top, paddingLeft: indent, ['--row-indent' as string]: `${indent}px` }}
      onFocus={(e) => {
        if (e.target === e.currentTarget) onSelect(key)
      }}
      onClick={() => {
        if (ignoreClick()) return
        onSelect(key)
        actions.open(row)
      }}
    >
      <TreeChevron expandable={row.kind === 'collection'} expanded={row.expanded} title={title} onToggle={() => actions.open(row)} />
      {row.kind === 'collection' ? (
        <span className={classes.icon} aria-hidden>
          {row.expanded ? (
            <IconFolderOpen size={18} stroke={1.6} color="var(--mantine-color-indigo-5)" />
          ) : (
            <IconFolder size={18} stroke={1.6} color="var(--mantine-color-indigo-5)" />
          )}
        </span>
      ) : (
        <span {...stopRowEvents}>
          <EmojiPicker value={row.emoji} onChange={(emoji) => actions.setEmoji(row.id, emoji)}>
            <Tooltip label="Change emoji">
              <UnstyledButton className={classes.icon} aria-label={`Change emoji of ${title}`} tabIndex={-1} data-testid="space-emoji">
                {row.emoji || <IconFileText size={17} stroke={1.6} color="var(--mantine-color-dimmed)" />}
              </UnstyledButton>
            </Tooltip>
          </EmojiPicker>
        </span>
      )}
      <span className={classes.title} data-testid="tree-row-title">
        {title}
      </span>
      {row.kind === 'collection' && (
        <Badge size="sm" variant="default" color="gray" radius="xl">
          {row.childCount}
        </Badge>
      )}
      <div className={classes.actions} {...stopRowEvents}>
        <RowMenu row={row} title={title} actions={actions} />
      </div>
    </div>
  )
})

function RowMenu({ row, title, actions }: { row: TreeRow; title: string; actions: ContentActions }) {
  return (
    <Menu position="bottom-end" width={210}>
      <Menu.Target>
        <ActionIcon size="sm" aria-label={`Actions for ${title}`} data-testid="row-menu" tabIndex={-1}>
          <IconDots size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {row.kind === 'collection' && (
          <>
            <Menu.Item leftSection={<IconPlus size={16} />} onClick={() => actions.createSpaceIn(row.id)}>
              New space here
            </Menu.Item>
            <Menu.Item leftSection={<IconFolderPlus size={16} />} onClick={() => actions.createCollectionIn(row.id)}>
              New collection here
            </Menu.Item>
            <Menu.Divider />
          </>
        )}
        <Menu.Item
          leftSection={<IconPencil size={16} />}
          rightSection={
            <Text size="xs" c="dimmed">
              F2
            </Text>
          }
          onClick={() => actions.rename(row)}
        >
          Rename…
        </Menu.Item>
        {row.kind === 'space' && (
          <Menu.Item leftSection={<IconCopy size={16} />} onClick={() => actions.duplicate({ id: row.id, title })}>
            Duplicate
          </Menu.Item>
        )}
        <Menu.Item leftSection={<IconArrowsMove size={16} />} onClick={() => actions.move(row)}>
          Move to…
        </Menu.Item>
        <Menu.Item leftSection={<IconArrowsExchange size={16} />} onClick={() => actions.transfer(row)}>
          Transfer to organization…
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => actions.remove(row)}>
          Delete
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  )
}
