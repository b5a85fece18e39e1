import type { Role } from '../../../src-shared/schemas/common'
import type { CommentPermissionSet } from '../../../src-shared/schemas/comments'
import { forbidden } from '../../base/errors'
import { atLeast } from './roles'

/**
 * Who may do what with comments and replies. The spec gives the `comment` role "access content and its
 * discussions", so reading discussions needs it too (readers see the space's `comments` count only). Posting,
 * replying, reacting and resolving need `comment`; editing a body is the author's alone; deleting is the
 * author's or a space admin's. Route checks and the presented `permissions` both read this table.
 */
export const COMMENT_ACTIONS = {
  view: 'comment',
  reply: 'comment',
  post: 'comment',
  react: 'comment',
  resolve: 'comment',
  /** Deleting someone else's comment or reply. */
  moderate: 'admin'
} as const satisfies Record<string, Role>

export interface Authored {
  posted_by: string | null
}

export function isAuthor(item: Authored, userId: string): boolean {
  return item.posted_by !== null && item.posted_by === userId
}

export function commentPermissions(role: Role | null, item: Authored, userId: string): CommentPermissionSet {
  const canView = atLeast(role, COMMENT_ACTIONS.view)
  const own = canView && isAuthor(item, userId)
  return {
    view: canView,
    edit: own,
    reply: atLeast(role, COMMENT_ACTIONS.reply),
    delete: own || atLeast(role, COMMENT_ACTIONS.moderate)
  }
}

/** 403 unless the caller wrote the comment or reply. */
export function requireAuthor(item: Authored, userId: string, what: string): void {
  if (!isAuthor(item, userId)) throw forbidden(`Only the author of a ${what} can edit its body`)
}

/** 403 unless the caller wrote it or administers the space. */
export function requireDeletable(role: Role, item: Authored, userId: string, what: string): void {
  if (!commentPermissions(role, item, userId).delete) throw forbidden(`Only the author of a ${what} or a space admin can delete it`)
}
