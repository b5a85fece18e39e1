/** Deleted spaces can be restored this many days (api-v1.md, Space lifecycle). */
export const RESTORE_DAYS = 7

const DAY = 86_400_000

/** Whole days left before a deleted space is gone for good (at least 1 while it is still listed). */
export function daysLeft(deletedAt: string, now = Date.now()): number {
  return Math.max(1, Math.ceil((new Date(deletedAt).getTime() + RESTORE_DAYS * DAY - now) / DAY))
}
