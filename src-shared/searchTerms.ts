// The words of a search, shared by main (the FTS5 query it builds) and the renderer (the words it marks in the
// results), so both read a query the same way. Pure TypeScript, no imports.

/** The last word is matched as a prefix (search as you type) from this length: the table's prefix index starts at 3. */
export const PREFIX_MIN_LENGTH = 3

// FTS5's unicode61 tokenizer splits on everything but letters, numbers, marks and private-use characters.
const TERM = /[\p{L}\p{N}\p{M}\p{Co}]+/gu
const ENDS_WITH_SEPARATOR = /[^\p{L}\p{N}\p{M}\p{Co}]$/u

/**
 * The distinct words of a search text (NFC), at most `max`, and whether the last one matches as a prefix: it
 * does while it is being typed (the text does not end with a separator) and is long enough.
 */
export function searchTerms(text: string, max = Infinity): { terms: string[]; prefixLast: boolean } {
  const terms = [...new Set(text.normalize('NFC').match(TERM) ?? [])].slice(0, max)
  const last = terms[terms.length - 1]
  return { terms, prefixLast: last !== undefined && !ENDS_WITH_SEPARATOR.test(text) && [...last].length >= PREFIX_MIN_LENGTH }
}
