/** Time as the API sees it; tests inject a manual clock to exercise time rules (the 7-day restore window). */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

export function manualClock(start = new Date('2026-01-01T00:00:00.000Z')) {
  let current = start.getTime()
  return {
    now: () => new Date(current),
    set: (date: Date | string) => void (current = new Date(date).getTime()),
    advance: (ms: number) => void (current += ms)
  }
}

export const DAY_MS = 24 * 60 * 60 * 1000
