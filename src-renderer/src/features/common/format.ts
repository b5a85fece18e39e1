const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' })
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })

export function formatDate(iso: string | undefined): string {
  return iso ? dateFormat.format(new Date(iso)) : '—'
}

/** The time of day, to the second ("14:05:09"): when something was last tried. */
export function formatTime(iso: string | undefined): string {
  return iso ? timeFormat.format(new Date(iso)) : '—'
}

/** "3 days ago", "in 2 hours", "yesterday". */
export function formatRelative(iso: string | undefined, now = Date.now()): string {
  if (!iso) return 'never'
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000)
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['year', 31_536_000],
    ['month', 2_592_000],
    ['week', 604_800],
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60]
  ]
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit)
  return 'just now'
}

/** Initials for an avatar: "Ann Lee" → "AL", "root" → "R". */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean)
  return ((parts[0]?.[0] ?? '?') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')).toUpperCase()
}

/** `3 pages`, `1 page`: a count with its noun (English plurals; irregular ones passed as `many`). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`
}
