import { memo, useCallback, useMemo, type KeyboardEvent } from 'react'
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
import { ActionIcon, Badge, Menu, Tooltip } from '@mantine/core'
import {
  IconArrowDown,
  IconArrowUp,
  IconDots,
  IconFileText,
  IconFilter,
  IconFolders,
  IconGripVertical,
  IconLayoutList,
  IconPencil,
  IconPlus,
  IconStar,
  IconStarFilled,
  IconTrash,
  IconFolderMinus,
  IconFolderPlus
} from '@tabler/icons-react'
import type { SiteSection, SiteSectionGroup, SiteSpace } from '../../api/types.ts'
import { stopRowEvents, TreeChevron } from '../common/TreeChevron.tsx'
import { treeNavigation } from '../common/treeKeys.ts'
import { useTreeDrag } from '../common/useTreeDrag.ts'
import { usePageVirtualizer } from '../common/usePageVirtualizer.ts'
import { dropMove, dropZoneAt, stepMove, type DropZone, type MoveRequest, type StructureRow } from './siteTree.ts'
import classes from './Sites.module.css'
import { emojiText } from '../common/emoji.ts'

const ROW_HEIGHT = 40
const INDENT = 22

/** What the rows' buttons and menus do; the screen owns the mutations and dialogs. */
export interface StructureActions {
  move(row: StructureRow, move: MoveRequest, how: string): void
  makeDefaultSiteSpace(siteSpace: SiteSpace): void
  makeDefaultSection(section: SiteSection): void
  removeSiteSpace(siteSpace: SiteSpace): void
  deleteSection(section: SiteSection): void
  deleteGroup(group: SiteSectionGroup): void
  addSpaceTo(sectionId: string): void
  addToGroup(section: SiteSection, group: SiteSectionGroup): void
  removeFromGroup(section: SiteSection): void
  newGroupFrom(section: SiteSection): void
  edit(row: StructureRow): void
}

type DropState = { key: string; zone: DropZone } | null

/**
 * The site's structure as a virtualized tree: section groups, sections, site spaces. Rows reorder among
 * their siblings by dragging the grip, with the arrow buttons, or with Alt+↑/↓; ↑/↓ select, ←/→ fold.
 */
export function StructureTree({
  rows,
  groups,
  selectedKey,
  canManage,
  actions,
  onSelect,
  onToggle
}: {
  rows: StructureRow[]
  groups: SiteSectionGroup[]
  selectedKey: string | null
  canManage: boolean
  actions: StructureActions
  onSelect(key: string): void
  onToggle(key: string, expanded: boolean): void
}) {
  const indexByKey = useMemo(() => new Map(rows.map((r, i) => [r.key, i])), [rows])
  const { listRef, list, virtualizer, scrollMargin } = usePageVirtualizer({
    count: rows.length,
    rowHeight: ROW_HEIGHT,
    getItemKey: (i) => rows[i]!.key
  })

  // --- drag and drop (among siblings only) ------------------------------------------------------------------
  const { sensors, dragged, setDragged, drop, setDrop, pointer } = useTreeDrag<StructureRow, NonNullable<DropState>>(4)

  const targetOf = useCallback(
    (overId: string | undefined, item: StructureRow): { target: StructureRow; zone: DropZone; move: MoveRequest } | null => {
      if (!overId) return null
      const index = indexByKey.get(overId)
      const node = list?.querySelector<HTMLElement>(`[data-row-key="${CSS.escape(overId)}"]`)
      if (index === undefined || !node) return null
      const target = rows[index]!
      const rect = node.getBoundingClientRect()
      const zone = dropZoneAt(pointer.current.y - rect.top, rect.height)
      const move = dropMove(item, target, zone)
      return move ? { target, zone, move } : null
    },
    // `pointer` is a ref (the same object for the tree's life).
    [indexByKey, rows, list, pointer]
  )
  const onDragStart = (event: DragStartEvent) => {
    const row = event.active.data.current?.row as StructureRow | undefined
    const start = event.activatorEvent as PointerEvent
    pointer.current = { x: start.clientX, y: start.clientY }
    setDragged(row ?? null)
    if (row) onSelect(row.key)
  }
  const onDragMove = (event: DragMoveEvent | DragOverEvent) => {
    const item = (event.active.data.current?.row as StructureRow | undefined) ?? dragged
    const found = item ? targetOf(event.over ? String(event.over.id) : undefined, item) : null
    const next = found ? { key: found.target.key, zone: found.zone } : null
    setDrop((prev) => (prev?.key === next?.key && prev?.zone === next?.zone ? prev : next))
  }
  const onDragEnd = (event: DragEndEvent) => {
    const item = (event.active.data.current?.row as StructureRow | undefined) ?? dragged
    const found = item ? targetOf(event.over ? String(event.over.id) : undefined, item) : null
    setDragged(null)
    setDrop(null)
    if (item && found) actions.move(item, found.move, `${found.zone} “${found.target.title}”`)
  }

  // --- keyboard ----------------------------------------------------------------------------------------------
  const focusRow = (index: number) => {
    const row = rows[index]
    if (!row) return
    onSelect(row.key)
    virtualizer.scrollToIndex(index, { align: 'auto' })
    requestAnimationFrame(() => list?.querySelector<HTMLElement>(`[data-row-key="${CSS.escape(row.key)}"]`)?.focus())
  }
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!(e.target as HTMLElement).dataset.rowKey) return
    const index = selectedKey ? (indexByKey.get(selectedKey) ?? -1) : -1
    const row = rows[index]
    const handled = () => {
      e.preventDefault()
      e.stopPropagation()
    }
    if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown') && row && canManage) {
      handled()
      const move = stepMove(row, e.key === 'ArrowUp' ? 'up' : 'down')
      if (move) actions.move(row, move, e.key === 'ArrowUp' ? 'up' : 'down')
      return
    }
    const nav = treeNavigation(
      e.key,
      index,
      rows.length,
      row && {
        expandable: row.kind !== 'site-space',
        expanded: !!row.expanded,
        parentIndex: row.parentKey ? indexByKey.get(row.parentKey) : undefined
      }
    )
    if (nav) {
      handled()
      if (nav.type === 'focus') focusRow(nav.index)
      else onToggle(row!.key, nav.type === 'expand')
      return
    }
    switch (e.key) {
      case 'Enter':
      case 'F2':
        if (row && canManage) {
          handled()
          actions.edit(row)
        }
        break
    }
  }

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={pointerWithin}
      measuring={{ droppable: { strategy: MeasuringStrategy.Always } }}
      onDragStart={onDragStart}
      onDragMove={onDragMove}
      onDragOver={onDragMove}
      onDragEnd={onDragEnd}
      onDragCancel={() => (setDragged(null), setDrop(null))}
    >
      <div
        ref={listRef}
        role="tree"
        aria-label="Site structure"
        className={classes.tree}
        style={{ height: virtualizer.getTotalSize() }}
        onKeyDown={onKeyDown}
        data-testid="structure-tree"
      >
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!
          return (
            <StructureRowView
              key={row.key}
              row={row}
              groups={groups}
              top={item.start - scrollMargin}
              selected={selectedKey === row.key}
              focusable={selectedKey ? selectedKey === row.key : item.index === 0}
              dropZone={drop?.key === row.key ? drop.zone : null}
              canManage={canManage}
              actions={actions}
              onSelect={onSelect}
              onToggle={onToggle}
            />
          )
        })}
      </div>
      <DragOverlay dropAnimation={null}>
        {dragged && (
          <div className={classes.overlay}>
            <RowIcon row={dragged} />
            {dragged.title}
          </div>
        )}
      </DragOverlay>
    </DndContext>
  )
}

function RowIcon({ row }: { row: StructureRow }) {
  if (row.kind === 'group') return <IconFolders size={17} stroke={1.6} color="var(--mantine-color-indigo-5)" />
  if (row.kind === 'section') return <IconLayoutList size={17} stroke={1.6} color="var(--mantine-color-indigo-5)" />
  const emoji = emojiText(row.siteSpace.space?.emoji)
  return emoji ? <span>{emoji}</span> : <IconFileText size={17} stroke={1.6} color="var(--mantine-color-dimmed)" />
}

interface RowProps {
  row: StructureRow
  groups: SiteSectionGroup[]
  top: number
  selected: boolean
  focusable: boolean
  dropZone: DropZone | null
  canManage: boolean
  actions: StructureActions
  onSelect(key: string): void
  onToggle(key: string, expanded: boolean): void
}

const StructureRowView = memo(function StructureRowView({
  row,
  groups,
  top,
  selected,
  focusable,
  dropZone,
  canManage,
  actions,
  onSelect,
  onToggle
}: RowProps) {
  // Rows are placed with `top`, not a transform: dnd-kit measures rows without their transforms, so a
  // translated row would be found at the top of the list.
  const draggable = useDraggable({ id: row.key, data: { row }, disabled: !canManage || row.siblings < 2 })
  const droppable = useDroppable({ id: row.key, data: { row } })
  const { setNodeRef: setDragRef } = draggable
  const { setNodeRef: setDropRef } = droppable
  const setRef = useCallback(
    (node: HTMLDivElement | null) => {
      setDragRef(node)
      setDropRef(node)
    },
    [setDragRef, setDropRef]
  )
  const indent = 4 + row.depth * INDENT
  const up = stepMove(row, 'up')
  const down = stepMove(row, 'down')
  const condition = row.kind === 'site-space' ? row.siteSpace.condition : row.kind === 'section' ? row.section.condition : undefined
  const path = row.kind === 'site-space' ? row.siteSpace.path : row.kind === 'section' ? row.section.path : undefined
  const isDefault = row.kind === 'site-space' ? !!row.siteSpace.default : row.kind === 'section' ? row.section.default : false

  return (
    <div
      ref={setRef}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-expanded={row.kind === 'site-space' ? undefined : row.expanded}
      aria-selected={selected}
      aria-label={row.title}
      tabIndex={focusable ? 0 : -1}
      className={classes.row}
      data-row-key={row.key}
      data-kind={row.kind}
      data-selected={selected || undefined}
      data-dragging={draggable.isDragging || undefined}
      data-drop={dropZone ?? undefined}
      data-testid="structure-row"
      style={{ top, paddingLeft: indent, ['--row-indent' as string]: `${indent + 20}px` }}
      onFocus={(e) => {
        if (e.target === e.currentTarget) onSelect(row.key)
      }}
      onClick={() => onSelect(row.key)}
    >
      <span
        className={classes.grip}
        {...draggable.attributes}
        {...draggable.listeners}
        role="button"
        tabIndex={-1}
        aria-label={`Drag ${row.title}`}
        aria-hidden={!canManage || row.siblings < 2}
        style={!canManage || row.siblings < 2 ? { visibility: 'hidden' } : undefined}
      >
        <IconGripVertical size={14} />
      </span>
      <TreeChevron
        expandable={row.kind !== 'site-space'}
        expanded={row.expanded}
        title={row.title}
        onToggle={() => onToggle(row.key, !row.expanded)}
      />
      <span className={classes.icon} aria-hidden>
        <RowIcon row={row} />
      </span>
      <span className={classes.title} data-testid="structure-row-title">
        {row.title || 'Untitled'}
      </span>
      <span className={classes.path} data-testid="structure-row-path">
        {path !== undefined ? `/${path}` : ''}
      </span>
      {row.kind === 'group' && (
        <Badge size="sm" variant="default" radius="xl">
          {row.childCount} {row.childCount === 1 ? 'section' : 'sections'}
        </Badge>
      )}
      {row.kind === 'section' && isDefault && (
        <Badge size="sm" color="indigo" data-testid="default-section-badge">
          Default
        </Badge>
      )}
      {condition && (
        <Tooltip label={`Shown when: ${condition}`}>
          <IconFilter size={15} color="var(--mantine-color-orange-6)" aria-label="Has a condition" data-testid="row-condition" />
        </Tooltip>
      )}
      {row.kind === 'site-space' && (
        <Tooltip label={isDefault ? `Default space of its ${row.siteSpace.section ? 'section' : 'site'}` : 'Make this the default space'}>
          <ActionIcon
            size="sm"
            className={classes.star}
            data-default={isDefault || undefined}
            aria-label={isDefault ? 'Default space' : `Make ${row.title} the default space`}
            aria-pressed={isDefault}
            disabled={!canManage && !isDefault}
            data-testid="make-default"
            {...stopRowEvents}
            onClick={(e) => {
              e.stopPropagation()
              if (!isDefault && canManage) actions.makeDefaultSiteSpace(row.siteSpace)
            }}
          >
            {isDefault ? <IconStarFilled size={15} /> : <IconStar size={15} />}
          </ActionIcon>
        </Tooltip>
      )}
      {canManage && (
        <div className={classes.rowActions} {...stopRowEvents}>
          <Tooltip label="Move up (Alt+↑)">
            <ActionIcon
              size="sm"
              aria-label={`Move ${row.title} up`}
              disabled={!up}
              onClick={() => up && actions.move(row, up, 'up')}
              data-testid="move-up"
            >
              <IconArrowUp size={15} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Move down (Alt+↓)">
            <ActionIcon
              size="sm"
              aria-label={`Move ${row.title} down`}
              disabled={!down}
              onClick={() => down && actions.move(row, down, 'down')}
              data-testid="move-down"
            >
              <IconArrowDown size={15} />
            </ActionIcon>
          </Tooltip>
          <RowMenu row={row} groups={groups} actions={actions} />
        </div>
      )}
      {!canManage && <span aria-hidden style={{ width: 4 }} />}
    </div>
  )
})

function RowMenu({ row, groups, actions }: { row: StructureRow; groups: SiteSectionGroup[]; actions: StructureActions }) {
  return (
    <Menu position="bottom-end" width={230}>
      <Menu.Target>
        <ActionIcon size="sm" aria-label={`Actions for ${row.title}`} data-testid="structure-row-menu" tabIndex={-1}>
          <IconDots size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => actions.edit(row)}>
          Edit details
        </Menu.Item>
        {row.kind === 'site-space' && (
          <>
            {!row.siteSpace.default && (
              <Menu.Item leftSection={<IconStar size={16} />} onClick={() => actions.makeDefaultSiteSpace(row.siteSpace)}>
                Make default
              </Menu.Item>
            )}
            <Menu.Divider />
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={() => actions.removeSiteSpace(row.siteSpace)}
              data-testid="remove-site-space"
            >
              Remove from site…
            </Menu.Item>
          </>
        )}
        {row.kind === 'section' && (
          <>
            <Menu.Item leftSection={<IconPlus size={16} />} onClick={() => actions.addSpaceTo(row.id)}>
              Add a space to this section…
            </Menu.Item>
            {!row.section.default && (
              <Menu.Item leftSection={<IconStar size={16} />} onClick={() => actions.makeDefaultSection(row.section)}>
                Make default section
              </Menu.Item>
            )}
            <Menu.Divider />
            {row.section.sectionGroup ? (
              <Menu.Item leftSection={<IconFolderMinus size={16} />} onClick={() => actions.removeFromGroup(row.section)}>
                Take out of its group
              </Menu.Item>
            ) : (
              <>
                {groups.map((g) => (
                  <Menu.Item key={g.id} leftSection={<IconFolderPlus size={16} />} onClick={() => actions.addToGroup(row.section, g)}>
                    Move into “{g.title}”
                  </Menu.Item>
                ))}
                <Menu.Item leftSection={<IconFolders size={16} />} onClick={() => actions.newGroupFrom(row.section)}>
                  New group from this section…
                </Menu.Item>
              </>
            )}
            <Menu.Divider />
            <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => actions.deleteSection(row.section)}>
              Delete section…
            </Menu.Item>
          </>
        )}
        {row.kind === 'group' && (
          <>
            <Menu.Divider />
            <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => actions.deleteGroup(row.group)}>
              Delete group…
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  )
}
