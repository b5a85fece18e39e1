// The change-request list's filters. The API lists one status per request; "Active", the list's default, is the
// signed-in user's drafts and the open change requests, read as two lists and shown as one, newest first.
import type { ChangeRequestStatus } from '../../api/types.ts'
import { STATUS_FILTERS, STATUS_LABELS } from './moves.ts'

export type ListStatus = 'active' | ChangeRequestStatus

/** The status filter's choices, in the order it shows them. */
export const LIST_STATUSES: readonly ListStatus[] = ['active', ...STATUS_FILTERS]

export const LIST_STATUS_LABELS: Record<ListStatus, string> = { active: 'Active', ...STATUS_LABELS }

/** `?status=` of the list: a status, else the default (`active`). */
export function parseListStatus(value: unknown): ListStatus {
  return typeof value === 'string' && (LIST_STATUSES as readonly string[]).includes(value) ? (value as ListStatus) : 'active'
}

/** What one API list of the filter asks for: a status and, for the user's own, their id (`contributor`). */
export interface Source {
  status: ChangeRequestStatus
  contributor?: string
}

/**
 * The lists a filter reads. Active: the user's drafts (nobody else's: a draft is work in progress) and the open
 * ones (everyone's, or the user's with `mine`).
 */
export function sourcesOf(status: ListStatus, mine: boolean, me: string | undefined): Source[] {
  if (status !== 'active') return [{ status, contributor: mine ? me : undefined }]
  return [
    { status: 'draft', contributor: me },
    { status: 'open', contributor: mine ? me : undefined }
  ]
}

export interface Loaded<T> {
  items: readonly T[]
  /** The API has more of this list after `items`. */
  more: boolean
}

/**
 * Lists that are each newest first (by `key`, larger is newer) and loaded page by page, as one newest-first list.
 * Only items at or above every unfinished list's last loaded key are shown: an item below could still have a
 * newer one coming from a list not loaded that far yet. `next` is the list to load to show more (the unfinished
 * one that stops earliest), undefined when all are loaded. Keys are unique: an item is shown once.
 */
export function mergeNewestFirst<T>(lists: readonly Loaded<T>[], key: (item: T) => number): { items: T[]; next?: number } {
  let floor = -Infinity
  let next: number | undefined
  lists.forEach((list, i) => {
    if (!list.more) return
    const last = list.items.length ? key(list.items[list.items.length - 1]!) : Infinity
    if (last > floor) {
      floor = last
      next = i
    }
  })
  // An item in two lists (one still showing a previous filter's answer while it loads) is shown once.
  const byKey = new Map<number, T>()
  for (const list of lists) for (const item of list.items) if (key(item) >= floor && !byKey.has(key(item))) byKey.set(key(item), item)
  const items = [...byKey.values()].sort((a, b) => key(b) - key(a))
  return next === undefined ? { items } : { items, next }
}
