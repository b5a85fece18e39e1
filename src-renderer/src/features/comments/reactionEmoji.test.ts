import { describe, expect, it } from 'vitest'
import { QUICK_REACTIONS, reactionName, searchReactions } from './reactionEmoji.ts'

describe('searchReactions', () => {
  it('offers the eight quick reactions first', () => {
    expect(QUICK_REACTIONS.map((r) => r.emoji)).toEqual(['👍', '👎', '😄', '🎉', '😕', '❤️', '🚀', '👀'])
    expect(searchReactions('').slice(0, 8)).toEqual(QUICK_REACTIONS)
  })

  it('finds by the start of a name or keyword, every word, any case', () => {
    expect(searchReactions('rocket').map((r) => r.emoji)).toEqual(['🚀'])
    expect(searchReactions('ROCK').map((r) => r.emoji)).toEqual(['🚀'])
    expect(searchReactions('thumbs').map((r) => r.emoji)).toEqual(['👍', '👎'])
    expect(searchReactions('thumbs down').map((r) => r.emoji)).toEqual(['👎'])
    expect(searchReactions('party').map((r) => r.emoji)).toEqual(expect.arrayContaining(['🎉', '🥳']))
    expect(searchReactions('ocket')).toEqual([])
  })

  it('finds a typed emoji', () => {
    expect(searchReactions('🔥').map((r) => r.emoji)).toEqual(['🔥'])
  })

  it('has no emoji twice', () => {
    const all = searchReactions('').map((r) => r.emoji)
    expect(new Set(all).size).toBe(all.length)
  })
})

describe('reactionName', () => {
  it('names a known emoji, and an unknown one by itself', () => {
    expect(reactionName('🚀')).toBe('rocket')
    expect(reactionName('🦖')).toBe('🦖')
  })
})
