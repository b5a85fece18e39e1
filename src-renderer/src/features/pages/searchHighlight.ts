// Which words of a search result to mark: the words the server matched, read from the query as it reads them
// (src-shared/searchTerms.ts): every term whole, and the last one also as the start of a word while it is being
// typed. Pure: tested in Node.
import { CJK, searchTerms } from '../../../../src-shared/searchTerms.ts'

const WORD_CHAR = '[\\p{L}\\p{N}\\p{M}\\p{Co}]'
// Inside CJK running text a word has letters on both sides: no word boundary is asked for there.
const STARTS_CJK = new RegExp(`^[${CJK}]`, 'u')
const ENDS_CJK = new RegExp(`[${CJK}]$`, 'u')

export interface TextPart {
  text: string
  hit: boolean
}

/** A pattern finding the query's words in text (case-insensitive), or null when the query has none. */
export function searchPattern(query: string): RegExp | null {
  const { terms, prefixLast } = searchTerms(query)
  if (!terms.length) return null
  // ß and ss are one spelling to the server.
  const escape = (term: string) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ss|ß/giu, '(?:ss|ß)')
  const last = terms.length - 1
  const alternatives = terms
    // Longest first, so a term that starts another does not mark only the start of it.
    .map((term, i) => ({ term, prefix: i === last && prefixLast }))
    .sort((a, b) => b.term.length - a.term.length)
    .map(({ term, prefix }) => {
      const before = STARTS_CJK.test(term) ? '' : `(?<!${WORD_CHAR})`
      const after = prefix || ENDS_CJK.test(term) ? '' : `(?!${WORD_CHAR})`
      return `${before}${escape(term)}${after}`
    })
  return new RegExp(`(?:${alternatives.join('|')})`, 'giu')
}

/** Text cut into runs, the query's words marked (`hit`). */
export function highlight(text: string, pattern: RegExp | null): TextPart[] {
  if (!pattern || !text) return text ? [{ text, hit: false }] : []
  const parts: TextPart[] = []
  let at = 0
  for (const match of text.matchAll(pattern)) {
    if (!match[0]) continue
    if (match.index > at) parts.push({ text: text.slice(at, match.index), hit: false })
    parts.push({ text: match[0], hit: true })
    at = match.index + match[0].length
  }
  if (at < text.length) parts.push({ text: text.slice(at), hit: false })
  return parts
}
