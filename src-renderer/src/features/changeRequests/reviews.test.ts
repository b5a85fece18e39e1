import { describe, expect, it } from 'vitest'
import type { ChangeRequestReview } from '../../api/types.ts'
import { currentReviews, mergeBlock } from './reviews.ts'

const user = (id: string) => ({ object: 'user' as const, id, displayName: id, urls: { location: '' } })
const review = (
  id: string,
  reviewer: string,
  createdAt: string,
  outdated = false,
  status: ChangeRequestReview['status'] = 'approved'
): ChangeRequestReview => ({
  object: 'change-request-review',
  id,
  revision: 'r',
  reviewer: user(reviewer),
  status,
  outdated,
  createdAt,
  updatedAt: createdAt,
  urls: { location: '' }
})

describe('currentReviews', () => {
  it('keeps the newest review of each reviewer that is not outdated', () => {
    const list = [review('3', 'a', '2026-01-03'), review('2', 'b', '2026-01-02', true), review('1', 'a', '2026-01-01')]
    expect(currentReviews(list).map((r) => r.id)).toEqual(['3'])
  })
})

describe('mergeBlock', () => {
  it('blocks with the unmet rules in words, unless the caller may bypass', () => {
    expect(mergeBlock(undefined)).toEqual({ blocked: false, reason: null, bypass: false })
    const status = {
      source: 'space' as const,
      rules: [],
      unmet: [
        { rule: 'x', message: 'At least one approving review is required' },
        { rule: 'y', message: 'The change request needs a subject' }
      ],
      canBypass: false
    }
    expect(mergeBlock(status)).toEqual({
      blocked: true,
      bypass: false,
      reason: 'Blocked by the merge rules: At least one approving review is required; The change request needs a subject'
    })
    expect(mergeBlock({ ...status, canBypass: true })).toMatchObject({ blocked: false, bypass: true })
  })
})
