import { describe, expect, it } from 'vitest'
import { daysLeft } from './trash.ts'

describe('trash', () => {
  const deletedAt = '2026-01-10T12:00:00.000Z'
  const at = (iso: string) => new Date(iso).getTime()

  it('counts the whole days left of the 7-day restore window', () => {
    expect(daysLeft(deletedAt, at('2026-01-10T12:00:01.000Z'))).toBe(7)
    expect(daysLeft(deletedAt, at('2026-01-13T13:00:00.000Z'))).toBe(4)
    expect(daysLeft(deletedAt, at('2026-01-17T11:59:00.000Z'))).toBe(1)
  })

  it('never says 0 days for a space the API still lists', () => {
    expect(daysLeft(deletedAt, at('2026-01-17T12:30:00.000Z'))).toBe(1)
  })
})
