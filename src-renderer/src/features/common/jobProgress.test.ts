import { describe, expect, it } from 'vitest'
import { ApiError } from '../../api/apiError.ts'
import { isCancelled, jobPercent, jobText } from './jobProgress.ts'

describe('jobText', () => {
  it('says what an import and a PDF are doing', () => {
    expect(jobText(null)).toBe('Starting…')
    expect(jobText({ kind: 'import', phase: 'pages', done: 0 })).toBe('Reading pages')
    expect(jobText({ kind: 'import', phase: 'pages', done: 3 })).toBe('Reading pages · 3 read')
    expect(jobText({ kind: 'import', phase: 'images', done: 2, total: 5 })).toBe('Copying images · 2 of 5')
    expect(jobText({ kind: 'import', phase: 'writing', done: 1, total: 1 })).toBe('Writing 1 page')
    expect(jobText({ kind: 'pdf', phase: 'reading', done: 0 })).toBe('Reading the pages')
    expect(jobText({ kind: 'pdf', phase: 'pages', done: 20, total: 45 })).toBe('Drawing pages · 20 of 45')
  })
})

describe('jobPercent and isCancelled', () => {
  it('gives a share only when the total is known', () => {
    expect(jobPercent({ done: 3 })).toBeUndefined()
    expect(jobPercent({ done: 20, total: 40 })).toBe(50)
    expect(jobPercent({ done: 0, total: 0 })).toBeUndefined()
  })
  it('knows the answer of a cancelled job', () => {
    expect(isCancelled(new ApiError(409, '409', 'job: cancelled'))).toBe(true)
    expect(isCancelled(new ApiError(409, '409', 'job: x is running'))).toBe(false)
    expect(isCancelled(new Error('job: cancelled'))).toBe(false)
  })
})
