// The wire shapes of `GET …/change-requests/{id}/changes` (src-shared/schemas/history.ts: ChangeRequestChangesSchema)
// and of merge/update answers (src-shared/schemas/changeRequests.ts: MergeResultSchema), and the pure logic the
// changes panel is built from.
import type { ChangeRequestChange } from '../../../../src-shared/schemas/history.ts'

/**
 * A page the change request creates, edits, moves or deletes: `before` is the page at the merge base (main when
 * the change request started, or when it last pulled main in), `after` the page in the change request, `conflict`
 * that main changed this page meanwhile in a way a merge cannot reconcile, `attributes` (edits) what changed.
 */
export type PageChange = ChangeRequestChange
export type ChangeType = PageChange['type']
export type PageSide = NonNullable<PageChange['before']>

export interface MergeConflict {
  page: { id: string; title: string }
  /** The same lines of the document, the title, or one side removed what the other edited. */
  reason: 'content' | 'title' | 'removed'
}

export interface MergeResult {
  revision: string
  result: 'merge' | 'update' | 'conflicts'
  conflicts?: MergeConflict[]
}

/** A conflicting page as it is to read once main is pulled in (`POST …/update` `resolutions`). */
export interface Resolution {
  page: string
  document: { markdown: string }
  title?: string
}

export type GroupKey = 'added' | 'edited' | 'moved' | 'removed'

const GROUP_OF: Record<ChangeType, GroupKey> = {
  page_created: 'added',
  page_edited: 'edited',
  page_moved: 'moved',
  page_deleted: 'removed'
}

export const GROUP_LABELS: Record<GroupKey, string> = { added: 'Added', edited: 'Edited', moved: 'Moved', removed: 'Removed' }
const GROUP_ORDER: readonly GroupKey[] = ['added', 'edited', 'moved', 'removed']

export interface ChangeGroup {
  key: GroupKey
  label: string
  changes: PageChange[]
}

/** A page can be both edited and moved: the pair (kind, page) names one entry of the list. */
export function changeKey(change: PageChange): string {
  return `${GROUP_OF[change.type]}:${change.page.id}`
}

export function groupOf(change: PageChange): GroupKey {
  return GROUP_OF[change.type]
}

/** Changes grouped Added / Edited / Moved / Removed (empty groups left out), each sorted by path. */
export function groupChanges(changes: readonly PageChange[]): ChangeGroup[] {
  const byGroup = new Map<GroupKey, PageChange[]>(GROUP_ORDER.map((k) => [k, []]))
  for (const change of changes) byGroup.get(GROUP_OF[change.type])!.push(change)
  return GROUP_ORDER.filter((key) => byGroup.get(key)!.length > 0).map((key) => ({
    key,
    label: GROUP_LABELS[key],
    changes: byGroup.get(key)!.sort((a, b) => a.page.path.localeCompare(b.page.path) || a.page.id.localeCompare(b.page.id))
  }))
}

/** One line of the (virtualized) changes list: a group heading or a page. */
export type ChangeRow = { kind: 'group'; group: ChangeGroup } | { kind: 'change'; change: PageChange; key: string }

export function changeRows(groups: readonly ChangeGroup[]): ChangeRow[] {
  const rows: ChangeRow[] = []
  for (const group of groups) {
    rows.push({ kind: 'group', group })
    for (const change of group.changes) rows.push({ kind: 'change', change, key: changeKey(change) })
  }
  return rows
}

/**
 * Pages that block a merge: those `/changes` flags, plus those the last merge or update answered (which can
 * name pages `/changes` does not flag, e.g. a page added under a parent main removed).
 */
export function conflictingPages(
  changes: readonly PageChange[],
  answered: readonly MergeConflict[] = []
): Map<string, MergeConflict['reason'] | undefined> {
  const pages = new Map<string, MergeConflict['reason'] | undefined>()
  for (const c of changes) if (c.conflict) pages.set(c.page.id, undefined)
  for (const c of answered) pages.set(c.page.id, c.reason)
  return pages
}

/**
 * The entry to show first: the one asked for if it exists, else the first conflicting page when there are
 * conflicts, else the first entry of the list.
 */
export function pickSelection(
  groups: readonly ChangeGroup[],
  wanted: string | undefined,
  conflicts: ReadonlyMap<string, unknown>
): PageChange | undefined {
  const all = groups.flatMap((g) => g.changes)
  return (
    (wanted ? all.find((c) => changeKey(c) === wanted) : undefined) ??
    (conflicts.size ? all.find((c) => conflicts.has(c.page.id) && c.type !== 'page_moved') : undefined) ??
    all[0]
  )
}

/** How many pages conflict with main by `/changes` (a page both edited and moved is one page). */
export function conflictCount(changes: readonly PageChange[]): number {
  return new Set(changes.filter((c) => c.conflict).map((c) => c.page.id)).size
}

/** "3 pages" / "1 page". */
export function pages(n: number): string {
  return `${n} ${n === 1 ? 'page' : 'pages'}`
}

/**
 * What to do about one conflicting page, in the terms of the server's three-way merge (src-main/content/
 * merge.ts): a page merges once the change request and main no longer change the same lines (or title) in
 * different ways, or once the page is removed (or kept as it was) on the side that did not edit it.
 * `mainTitle` is main's current title; `mainHasPage` is false when main removed the page.
 */
export function conflictAdvice(
  change: PageChange | undefined,
  reason: MergeConflict['reason'] | undefined,
  main: { title?: string; exists: boolean }
): string {
  if (change?.type === 'page_deleted')
    return 'This change request removes the page, but main edited it or put a page under it meanwhile. Restore the page here to keep main’s changes, or undo them on main first.'
  if (change?.type === 'page_created' || (!change && reason === 'removed'))
    return 'The page sits under a page the other side removed. Move it elsewhere, then merge again.'
  if (change?.type === 'page_moved')
    return 'This change request moves the page under a page main removed. Move it elsewhere, then merge again.'
  if (!main.exists)
    return 'Main removed this page, but this change request edits it. Remove it here too, or undo your edits to it, then merge again.'
  if (
    reason === 'title' ||
    (change?.before &&
      change.after &&
      main.title !== undefined &&
      main.title !== change.before.title &&
      change.after.title !== change.before.title &&
      main.title !== change.after.title)
  )
    return `Both renamed the page. Choose or write its title in Resolve conflicts (main’s is “${main.title ?? ''}”), then merge again.`
  return 'Main changed the same lines. In Resolve conflicts, keep main’s lines, yours or both, or write them anew; your edits elsewhere on the page are kept. Then merge again.'
}
