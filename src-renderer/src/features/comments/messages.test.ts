import { describe, expect, it } from 'vitest'
import { ApiError } from '../../api/apiError.ts'
import { bodyErrorMessage, emptyMessage, plural } from './messages.ts'

describe('bodyErrorMessage', () => {
  it("says the API's rule about the comment or reply", () => {
    expect(bodyErrorMessage(new ApiError(400, '400', 'body.markdown: must be at most 100000 characters'), 'Reply')).toBe(
      'Reply must be at most 100000 characters'
    )
  })

  it('keeps other messages', () => {
    expect(bodyErrorMessage(new ApiError(403, '403', 'You cannot comment here'), 'Comment')).toBe('You cannot comment here')
    expect(bodyErrorMessage('offline', 'Comment')).toBe('offline')
  })
})

describe('plural', () => {
  it('counts', () => {
    expect(plural(1, 'reply', 'replies')).toBe('1 reply')
    expect(plural(3, 'reply', 'replies')).toBe('3 replies')
    expect(plural(0, 'comment')).toBe('0 comments')
  })
})

describe('emptyMessage', () => {
  it('explains each filter', () => {
    expect(emptyMessage({ status: 'open', narrowed: false, on: 'space', composer: 'above' })).toEqual({
      title: 'No open comments',
      hint: 'Start a discussion in the box above. Resolved threads are under Resolved.'
    })
    expect(emptyMessage({ status: 'all', narrowed: false, on: 'page', composer: 'below' })).toEqual({
      title: 'No comments on this page yet',
      hint: 'Start a discussion in the box below.'
    })
    expect(emptyMessage({ status: 'resolved', narrowed: false, on: 'change request', composer: 'below' }).title).toBe(
      'No resolved comments'
    )
    expect(emptyMessage({ status: 'all', narrowed: true, on: 'space', composer: 'above' }).title).toBe('No comments match these filters')
    expect(emptyMessage({ status: 'all', narrowed: false, on: 'space', composer: 'none' }).hint).toBe('Nobody has commented yet.')
  })
})
