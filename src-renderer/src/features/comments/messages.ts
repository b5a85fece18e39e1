// Wording of what the comments UI says. Pure (tested under Node).

/** Longest body the API accepts (COMMENT_MARKDOWN_MAX in the shared schema, which the bundle cannot import). */
export const BODY_MAX = 100_000

/**
 * The API's message for a refused comment or reply, said about what the user typed: `body.markdown: must be
 * at most 100000 characters` → "Reply must be at most 100000 characters". Other messages stay as they are.
 */
export function bodyErrorMessage(error: unknown, noun: 'Comment' | 'Reply'): string {
  const message = error instanceof Error ? error.message : String(error)
  const blamed = /^body(?:\.markdown)?: (.+)$/s.exec(message)
  return blamed ? `${noun} ${blamed[1]}` : message
}

/** "3 replies", "1 reply". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`
}

/** What an empty list says, by filter and by where the list is (the composer sits above it or below it). */
export function emptyMessage(options: {
  status: 'open' | 'resolved' | 'all'
  /** A page or author filter narrows the list. */
  narrowed: boolean
  on: 'space' | 'page' | 'change request'
  composer: 'above' | 'below' | 'none'
}): { title: string; hint: string } {
  const start = options.composer === 'none' ? '' : `Start a discussion in the box ${options.composer}.`
  if (options.narrowed) return { title: 'No comments match these filters', hint: 'Try other filters, or clear them.' }
  if (options.status === 'resolved') return { title: 'No resolved comments', hint: 'Threads show up here once someone resolves them.' }
  const where = options.on === 'space' ? '' : ` on this ${options.on}`
  if (options.status === 'open')
    return { title: `No open comments${where}`, hint: [start, 'Resolved threads are under Resolved.'].filter(Boolean).join(' ') }
  return { title: `No comments${where} yet`, hint: start || 'Nobody has commented yet.' }
}
