import { describe, expect, it } from 'vitest'
import type { ChangeRequestReview } from '../../api/types.ts'
import { currentReviews, mergeBlock, reviewsWithComments } from './reviews.ts'

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

describe('reviewsWithComments', () => {
  it('keeps the reviews that came with a comment that is not blank, newest first, outdated ones too', () => {
    const withComment = (r: ChangeRequestReview, markdown: string): ChangeRequestReview => ({
      ...r,
      comment: { body: { markdown } } as ChangeRequestReview['comment']
    })
    const list = [
      withComment(review('1', 'a', '2026-01-01', true), 'First'),
      review('2', 'b', '2026-01-02'),
      withComment(review('3', 'c', '2026-01-03'), '  \n'),
      withComment(review('4', 'd', '2026-01-04', false, 'changes-requested'), 'Add an example')
    ]
    expect(reviewsWithComments(list).map((r) => [r.id, r.comment.body.markdown])).toEqual([
      ['4', 'Add an example'],
      ['1', 'First']
    ])
  })
})
