// Reactions on a comment or reply as the caller toggles them. Pure (tested under Node).
import type { CommentReaction, User } from '../../api/types.ts'

export interface ReactionChange {
  addedReactions?: string[]
  removedReactions?: string[]
}

export function hasReacted(reaction: CommentReaction, userId: string | undefined): boolean {
  return !!userId && reaction.users.some((u) => u.user.id === userId)
}

/**
 * The request body that toggles the caller's `emoji` (add it, or remove it when they already reacted with it),
 * and the reactions as they will look once the API applied it: what an optimistic update shows meanwhile.
 */
export function toggleReaction(
  reactions: CommentReaction[],
  emoji: string,
  me: User,
  now = new Date().toISOString()
): { change: ReactionChange; reactions: CommentReaction[] } {
  const existing = reactions.find((r) => r.emoji === emoji)
  if (existing && hasReacted(existing, me.id)) {
    const next = reactions
      .map((r) => (r.emoji === emoji ? { ...r, count: r.count - 1, users: r.users.filter((u) => u.user.id !== me.id) } : r))
      .filter((r) => r.count > 0)
    return { change: { removedReactions: [emoji] }, reactions: next }
  }
  const mine = { user: me, reactedAt: now }
  const next = existing
    ? reactions.map((r) => (r.emoji === emoji ? { ...r, count: r.count + 1, users: [...r.users, mine] } : r))
    : [...reactions, { emoji, count: 1, users: [mine] }]
  return { change: { addedReactions: [emoji] }, reactions: next }
}

/** "Ann Lee, Bo and 3 others" for a reaction chip's tooltip. */
export function reactedBy(reaction: CommentReaction, userId: string | undefined, shown = 3): string {
  const names = reaction.users.map((u) => (u.user.id === userId ? 'You' : u.user.displayName || u.user.email || 'Someone'))
  if (names.length <= shown) return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : (names[0] ?? '')
  const rest = names.length - shown
  return `${names.slice(0, shown).join(', ')} and ${rest} ${rest === 1 ? 'other' : 'others'}`
}
