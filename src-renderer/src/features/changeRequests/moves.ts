import type { ChangeRequestStatus } from '../../api/types.ts'

// The status moves of a change request (addendum "Change request moves"): draft <-> open;
// draft/open -> archived -> open; merge (its own operation, from draft or open) -> merged, which is final.

export interface StatusMove {
  key: 'ready' | 'draft' | 'archive' | 'reopen'
  to: ChangeRequestStatus
  label: string
  /** One line for a tooltip: what the move means for the people reviewing. */
  hint: string
  /** The confirmation, after "Change request #3 …". */
  done: string
}

const READY: StatusMove = {
  key: 'ready',
  to: 'open',
  label: 'Ready for review',
  hint: 'Ask reviewers to look at it: it moves to Open.',
  done: 'is ready for review'
}
const BACK_TO_DRAFT: StatusMove = {
  key: 'draft',
  to: 'draft',
  label: 'Back to draft',
  hint: 'Take it out of review while you keep working.',
  done: 'is back to draft'
}
const ARCHIVE: StatusMove = {
  key: 'archive',
  to: 'archived',
  label: 'Archive',
  hint: 'Set it aside without merging; you can reopen it later.',
  done: 'archived'
}
const REOPEN: StatusMove = {
  key: 'reopen',
  to: 'open',
  label: 'Reopen',
  hint: 'Bring it back for review, editing and merging.',
  done: 'reopened'
}

/** The PATCH moves each status allows, in the order the buttons show. */
export const STATUS_MOVES: Record<ChangeRequestStatus, readonly StatusMove[]> = {
  draft: [READY, ARCHIVE],
  open: [BACK_TO_DRAFT, ARCHIVE],
  archived: [REOPEN],
  merged: []
}

export function movesFrom(status: ChangeRequestStatus): readonly StatusMove[] {
  return STATUS_MOVES[status]
}

/** Merge and "Update from main" work on live change requests only (draft or open). */
export function isActive(status: ChangeRequestStatus): boolean {
  return status === 'draft' || status === 'open'
}

/** The subject can change until the change request is merged. */
export function canEditSubject(status: ChangeRequestStatus): boolean {
  return status !== 'merged'
}

export const STATUS_LABELS: Record<ChangeRequestStatus, string> = {
  draft: 'Draft',
  open: 'Open',
  archived: 'Archived',
  merged: 'Merged'
}

export const STATUS_COLORS: Record<ChangeRequestStatus, string> = {
  draft: 'gray',
  open: 'green',
  archived: 'dark',
  merged: 'violet'
}

/** The list filter's order (the API has no "all": it lists one status at a time, `open` by default). */
export const STATUS_FILTERS: readonly ChangeRequestStatus[] = ['open', 'draft', 'merged', 'archived']
