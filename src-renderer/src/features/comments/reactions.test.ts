import { describe, expect, it } from 'vitest'
import type { CommentReaction, User } from '../../api/types.ts'
import { hasReacted, reactedBy, toggleReaction } from './reactions.ts'

const user = (id: string, displayName = id): User => ({ object: 'user', id, displayName, urls: { location: `/v1/users/${id}` } })
const me = user('me', 'Me')
const at = '2025-01-01T00:00:00.000Z'
const reaction = (emoji: string, ...ids: string[]): CommentReaction => ({
  emoji,
  count: ids.length,
  users: ids.map((id) => ({ user: user(id), reactedAt: at }))
})

describe('toggleReaction', () => {
  it('adds a new emoji at the end', () => {
    const { change, reactions } = toggleReaction([reaction('👍', 'ann')], '🎉', me, at)
    expect(change).toEqual({ addedReactions: ['🎉'] })
    expect(reactions.map((r) => [r.emoji, r.count])).toEqual([
      ['👍', 1],
      ['🎉', 1]
    ])
    expect(hasReacted(reactions[1]!, 'me')).toBe(true)
  })

  it("joins someone else's emoji", () => {
    const { change, reactions } = toggleReaction([reaction('👍', 'ann')], '👍', me, at)
    expect(change).toEqual({ addedReactions: ['👍'] })
    expect(reactions[0]).toMatchObject({ count: 2 })
    expect(hasReacted(reactions[0]!, 'me')).toBe(true)
  })

  it('removes my reaction, and the chip when nobody is left', () => {
    const shared = toggleReaction([reaction('👍', 'ann', 'me')], '👍', me, at)
    expect(shared.change).toEqual({ removedReactions: ['👍'] })
    expect(shared.reactions[0]).toMatchObject({ count: 1 })
    expect(hasReacted(shared.reactions[0]!, 'me')).toBe(false)
    expect(toggleReaction([reaction('👍', 'me'), reaction('🎉', 'ann')], '👍', me, at).reactions.map((r) => r.emoji)).toEqual(['🎉'])
  })

  it('leaves the input untouched', () => {
    const before = [reaction('👍', 'ann')]
    toggleReaction(before, '👍', me, at)
    expect(before[0]).toMatchObject({ count: 1 })
  })
})

describe('reactedBy', () => {
  it('names who reacted, me as "You", and counts the rest', () => {
    expect(reactedBy(reaction('👍', 'me'), 'me')).toBe('You')
    expect(reactedBy(reaction('👍', 'ann', 'me'), 'me')).toBe('ann and You')
    expect(reactedBy(reaction('👍', 'a', 'b', 'c', 'd', 'e'), 'me')).toBe('a, b, c and 2 others')
    expect(reactedBy(reaction('👍', 'a', 'b', 'c', 'd'), 'me')).toBe('a, b, c and 1 other')
  })
})
