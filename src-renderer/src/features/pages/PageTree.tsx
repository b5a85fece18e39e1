import { memo, useCallback, useEffect, useEffectEvent, useLayoutEffect, useMemo, useState, type KeyboardEvent } from 'react'
import {
  DndContext,
  DragOverlay,
  getClientRect,
  MeasuringStrategy,
  pointerWithin,
  useDraggable,
  useDroppable,
  type DragEndEvent,
  type DragMoveEvent,
  type DragOverEvent,
  type DragStartEvent
} from '@dnd-kit/core'
import { ActionIcon, Menu, Text, Tooltip } from '@mantine/core'
import { IconDots, IconEyeOff, IconFileText, IconLink, IconFolder, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react'
import { useVirtualizer } from '@tanstack/react-virtual'
import type { ContentPage } from '../../api/types.ts'
import { stopRowEvents, TreeChevron } from '../common/TreeChevron.tsx'
import { treeNavigation } from '../common/treeKeys.ts'
import { useTreeDrag } from '../common/useTreeDrag.ts'
import type { PageActions } from './pageActions.tsx'
import { ancestorsOf, dropZoneAt, flattenPages, indexPages, pageMove, type DropZone, type PageRow } from './pageTreeModel.ts'
import { treeScroll, usePagesUi } from './pagesUiStore.ts'
import classes from './PageTree.module.css'

const ROW_HEIGHT = 32
const INDENT = 16

type DropState = { id: string; zone: DropZone; expanded?: boolean } | null

// Rows sit at `translateY(start)` (virtualized); dnd-kit's default measuring ignores transforms, which would put
// every row at the top of the list. Measure them where they are drawn.
const MEASURING = {
  draggable: { measure: getClientRect },
  droppable: { measure: getClientRect, strategy: MeasuringStrategy.Always }
}

/**
 * The space's pages as a virtualized tree in its own scroll pane. Drag a row onto the upper or lower edge of
 * another (beside it) or onto its middle (into it); keys: arrows, Home/End, Enter opens, F2 renames, Delete.
 */
export function PageTree({
  spaceId,
  pages,
  openPageId,
  canEdit,
  actions,
  onOpen,
  onRename
}: {
  spaceId: string
  pages: ContentPage[]
  openPageId: string | undefined
  canEdit: boolean
  actions: PageActions
  onOpen(pageId: string): void
  onRename(page: ContentPage): void
}) {
  const collapsed = usePagesUi((s) => s.collapsed)
  const setCollapsed = usePagesUi((s) => s.setCollapsed)
  const index = useMemo(() => indexPages(pages), [pages])
  const rows = useMemo(() => flattenPages(pages, (id) => !!collapsed[id]), [pages, collapsed])
  const rowIndex = useMemo(() => new Map(rows.map((r, i) => [r.id, i])), [rows])
  const pageOf = useCallback((id: string) => index.get(id)?.page as ContentPage | undefined, [index])

  // The open page's ancestors unfold, so it is always visible.
  useEffect(() => {
    if (openPageId) for (const id of ancestorsOf(index, openPageId)) setCollapsed(id, false)
  }, [openPageId, index, setCollapsed])

  const [scroller, setScroller] = useState<HTMLDivElement | null>(null)
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    getItemKey: (i) => rows[i]!.id
  })

  // The tree remounts when the address moves from main to a change request: keep its scroll position. It is
  // placed once, when its scroller mounts (an effect event reads the open page then): a later navigation does not
  // move it.
  const placeAtStart = useEffectEvent((scroller: HTMLDivElement) => {
    const saved = treeScroll.get(spaceId)
    if (saved !== undefined) scroller.scrollTop = saved
    else if (openPageId && rowIndex.has(openPageId)) virtualizer.scrollToIndex(rowIndex.get(openPageId)!, { align: 'center' })
  })
  useLayoutEffect(() => {
    if (!scroller) return
    placeAtStart(scroller)
    const onScroll = () => treeScroll.set(spaceId, scroller.scrollTop)
    scroller.addEventListener('scroll', onScroll, { passive: true })
    return () => scroller.removeEventListener('scroll', onScroll)
  }, [scroller, spaceId])

  // Keyboard focus (a row, not necessarily the open page).
  const [focusedId, setFocusedId] = useState<string | undefined>(openPageId)
  useEffect(() => setFocusedId(openPageId), [openPageId])
  const focusRow = (i: number) => {
    const row = rows[i]
    if (!row) return
    setFocusedId(row.id)
    virtualizer.scrollToIndex(i, { align: 'auto' })
    requestAnimationFrame(() => scroller?.querySelector<HTMLElement>(`[data-page-id="${CSS.escape(row.id)}"]`)?.focus())
  }
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!(e.target as HTMLElement).dataset.pageId) return
    const i = focusedId ? (rowIndex.get(focusedId) ?? -1) : -1
    const row = rows[i]
    const page = row ? pageOf(row.id) : undefined
    const handled = () => {
      e.preventDefault()
      e.stopPropagation()
    }
    const nav = treeNavigation(
      e.key,
      i,
      rows.length,
      row && {
        expandable: row.childCount > 0,
        expanded: !!row.expanded,
        parentIndex: row.parent ? rowIndex.get(row.parent) : undefined
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
          onOpen(row.id)
        }
        break
      case 'F2':
        if (page && canEdit) {
          handled()
          onRename(page)
        }
        break
      case 'Delete':
        if (page && canEdit) {
          handled()
          actions.remove(page)
        }
        break
    }
  }

  // --- drag and drop -------------------------------------------------------------------------------------------
  const { sensors, dragged, setDragged, drop, setDrop, pointer, justDragged, endDrag } = useTreeDrag<PageRow, NonNullable<DropState>>()
  const targetOf = useCallback(
    (overId: string | undefined, item: PageRow): DropState => {
      if (!overId) return null
      const node = scroller?.querySelector<HTMLElement>(`[data-page-id="${CSS.escape(overId)}"]`)
      if (!node) return null
      const rect = node.getBoundingClientRect()
      const zone = dropZoneAt(pointer.current.y - rect.top, rect.height)
      const expanded = rows[rowIndex.get(overId) ?? -1]?.expanded
      return pageMove(index, item.id, { id: overId, zone, expanded }) ? { id: overId, zone, expanded } : null
    },
    // `pointer` is a ref (the same object for the tree's life).
    [index, scroller, rows, rowIndex, pointer]
  )
  const onDragStart = (event: DragStartEvent) => {
    const row = event.active.data.current?.row as PageRow | undefined
    const start = event.activatorEvent as PointerEvent
    pointer.current = { x: start.clientX, y: start.clientY }
    setDragged(row ?? null)
  }
  const onDragMove = (event: DragMoveEvent | DragOverEvent) => {
    const item = (event.active.data.current?.row as PageRow | undefined) ?? dragged
    if (!item) return
    const next = targetOf(event.over ? String(event.over.id) : undefined, item)
    setDrop((prev) => (prev?.id === next?.id && prev?.zone === next?.zone ? prev : next))
  }
  const onDragEnd = (event: DragEndEvent) => {
    const item = (event.active.data.current?.row as PageRow | undefined) ?? dragged
    const target = item ? targetOf(event.over ? String(event.over.id) : undefined, item) : null
    endDrag()
    if (!item || !target) return
    const move = pageMove(index, item.id, target)
    const page = pageOf(item.id)
    if (!move || !page) return
    if (target.zone === 'inside') setCollapsed(target.id, false)
    actions.move(page, move)
  }

  const items = virtualizer.getVirtualItems()
  return (
    <div className={classes.pane}>
      <div className={classes.head}>
        <Text size="xs" fw={600} c="dimmed" tt="uppercase" className={classes.headLabel}>
          Pages
        </Text>
        {canEdit && (
          <Tooltip label="New page">
            <ActionIcon size="sm" aria-label="New page" onClick={() => actions.add(null)} loading={actions.pending} data-testid="new-page">
              <IconPlus size={16} />
            </ActionIcon>
          </Tooltip>
        )}
      </div>
      <div ref={setScroller} className={classes.scroller} data-testid="page-tree-scroller">
        {rows.length === 0 ? (
          <div className={classes.empty}>
            <Text size="sm" c="dimmed">
              {canEdit ? 'No pages yet. Add one with +.' : 'This space has no pages yet.'}
            </Text>
          </div>
        ) : (
          <DndContext
            sensors={sensors}
            collisionDetection={pointerWithin}
            measuring={MEASURING}
            onDragStart={onDragStart}
            onDragMove={onDragMove}
            onDragOver={onDragMove}
            onDragEnd={onDragEnd}
            onDragCancel={endDrag}
          >
            <div
              role="tree"
              aria-label="Pages"
              className={classes.tree}
              data-testid="page-tree"
              style={{ height: virtualizer.getTotalSize() }}
              onKeyDown={onKeyDown}
            >
              {items.map((item) => {
                const row = rows[item.index]!
                return (
                  <PageRowView
                    key={row.id}
                    row={row}
                    top={item.start}
                    open={row.id === openPageId}
                    focusable={focusedId ? focusedId === row.id : item.index === 0}
                    canEdit={canEdit}
                    dropZone={drop?.id === row.id ? drop.zone : null}
                    onOpen={onOpen}
                    onFocusRow={setFocusedId}
                    onToggle={(id, fold) => setCollapsed(id, fold)}
                    onAddChild={(id) => {
                      const page = pageOf(id)
                      if (page) {
                        setCollapsed(id, false)
                        actions.add(page)
                      }
                    }}
                    onRename={(id) => {
                      const page = pageOf(id)
                      if (page) onRename(page)
                    }}
                    onDelete={(id) => {
                      const page = pageOf(id)
                      if (page) actions.remove(page)
                    }}
                    ignoreClick={() => justDragged.current}
                  />
                )
              })}
            </div>
            <DragOverlay dropAnimation={null}>
              {dragged && (
                <div className={classes.overlay}>
                  <span>{dragged.emoji || '📄'}</span>
                  {dragged.title || 'Untitled'}
                </div>
              )}
            </DragOverlay>
          </DndContext>
        )}
      </div>
    </div>
  )
}

interface RowProps {
  row: PageRow
  top: number
  open: boolean
  focusable: boolean
  canEdit: boolean
  dropZone: DropZone | null
  onOpen(id: string): void
  onFocusRow(id: string): void
  onToggle(id: string, fold: boolean): void
  onAddChild(id: string): void
  onRename(id: string): void
  onDelete(id: string): void
  ignoreClick(): boolean
}

const PageRowView = memo(function PageRowView({
  row,
  top,
  open,
  focusable,
  canEdit,
  dropZone,
  onOpen,
  onFocusRow,
  onToggle,
  onAddChild,
  onRename,
  onDelete,
  ignoreClick
}: RowProps) {
  const draggable = useDraggable({ id: row.id, data: { row }, disabled: !canEdit })
  const droppable = useDroppable({ id: row.id, data: { row }, disabled: !canEdit })
  const { setNodeRef: setDragRef } = draggable
  const { setNodeRef: setDropRef } = droppable
  const setRef = useCallback(
    (node: HTMLDivElement | null) => {
      setDragRef(node)
      setDropRef(node)
    },
    [setDragRef, setDropRef]
  )
  // The row's buttons (a tooltip and a menu each: floating-UI hooks) are made when the pointer or the focus comes to
  // the row, not for every row scrolled past: a fast scroll mounts dozens of rows a frame.
  const [engaged, setEngaged] = useState(false)
  const [menuOpen, setMenuOpen] = useState(false)
  const indent = 6 + row.depth * INDENT
  const title = row.title || 'Untitled'
  const TypeIcon = row.type === 'link' ? IconLink : row.type === 'group' ? IconFolder : IconFileText

  return (
    <div
      ref={setRef}
      {...draggable.attributes}
      {...draggable.listeners}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-expanded={row.childCount > 0 ? row.expanded : undefined}
      aria-selected={open}
      aria-label={title}
      aria-current={open ? 'page' : undefined}
      tabIndex={focusable ? 0 : -1}
      className={classes.row}
      data-page-id={row.id}
      data-testid="page-row"
      data-open={open || undefined}
      data-dragging={draggable.isDragging || undefined}
      data-drop={dropZone ?? undefined}
      style={{ transform: `translateY(${top}px)`, paddingLeft: indent, ['--row-indent' as string]: `${indent + 22}px` }}
      onPointerEnter={() => setEngaged(true)}
      onPointerLeave={() => setEngaged(false)}
      onFocus={(e) => {
        setEngaged(true)
        if (e.target === e.currentTarget) onFocusRow(row.id)
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setEngaged(false)
      }}
      onClick={() => {
        if (!ignoreClick()) onOpen(row.id)
      }}
    >
      <TreeChevron expandable={row.childCount > 0} expanded={row.expanded} title={title} onToggle={() => onToggle(row.id, row.expanded)} />
      <span className={classes.icon} aria-hidden>
        {row.emoji || <TypeIcon size={16} stroke={1.6} />}
      </span>
      <span className={classes.title} data-testid="page-row-title">
        {title}
      </span>
      {row.hidden && (
        <Tooltip label="Hidden from the published site">
          <IconEyeOff size={14} className={classes.hidden} aria-label="Hidden" />
        </Tooltip>
      )}
      {canEdit && (engaged || menuOpen || open) && (
        <div className={classes.actions} {...stopRowEvents}>
          <Tooltip label="Add a page inside">
            <ActionIcon
              size="sm"
              aria-label={`Add a page inside ${title}`}
              tabIndex={-1}
              onClick={() => onAddChild(row.id)}
              data-testid="page-add-child"
            >
              <IconPlus size={14} />
            </ActionIcon>
          </Tooltip>
          <Menu position="bottom-end" width={200} opened={menuOpen} onChange={setMenuOpen}>
            <Menu.Target>
              <ActionIcon size="sm" aria-label={`Actions for ${title}`} tabIndex={-1} data-testid="page-row-menu">
                <IconDots size={14} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconPlus size={16} />} onClick={() => onAddChild(row.id)}>
                Add a page inside
              </Menu.Item>
              <Menu.Item
                leftSection={<IconPencil size={16} />}
                rightSection={
                  <Text size="xs" c="dimmed">
                    F2
                  </Text>
                }
                onClick={() => onRename(row.id)}
              >
                Rename…
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item
                color="red"
                leftSection={<IconTrash size={16} />}
                rightSection={
                  <Text size="xs" c="dimmed">
                    Del
                  </Text>
                }
                onClick={() => onDelete(row.id)}
              >
                Delete…
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </div>
      )}
    </div>
  )
})
