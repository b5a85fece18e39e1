// The rows both servers store: the baseline's table has the columns of Quire's `spaces` table, filled with the
// same values, so both read a row of the same size.
import { randomBytes } from 'node:crypto'

export const SPACE_EMOJI = '📘'
export const spaceTitle = (i: number) => `Space ${String(i).padStart(6, '0')}`

const id = () => randomBytes(15).toString('base64url')

export interface BaselineRow {
  id: string
  organization_id: string
  parent_id: null
  title: string
  emoji: string
  visibility: string
  edit_mode: string
  default_level: null
  position: number
  revision_id: string
  visitor_auth: null
  git_sync: null
  comments_open: number
  change_requests: number
  change_requests_open: number
  change_requests_draft: number
  created_by: string
  created_at: string
  updated_at: string
  deleted_at: null
}

export function baselineRow(i: number, organizationId: string, ownerId: string, now: string): BaselineRow {
  return {
    id: id(),
    organization_id: organizationId,
    parent_id: null,
    title: spaceTitle(i),
    emoji: SPACE_EMOJI,
    visibility: 'private',
    edit_mode: 'live',
    default_level: null,
    position: i + 1,
    revision_id: id(),
    visitor_auth: null,
    git_sync: null,
    comments_open: 0,
    change_requests: 0,
    change_requests_open: 0,
    change_requests_draft: 0,
    created_by: ownerId,
    created_at: now,
    updated_at: now,
    deleted_at: null
  }
}

/** Every `n / size`-th index: a sample of ids spread over the whole table (early, middle and late rows). */
export function isSampled(i: number, total: number, size: number): boolean {
  return i % Math.max(1, Math.floor(total / size)) === 0
}
