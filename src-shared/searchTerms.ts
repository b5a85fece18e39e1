// The words of a search, shared by main (the FTS5 query it builds) and the renderer (the words it marks in the
// results), so both read a query the same way. Pure TypeScript, no imports.

/** The last word is matched as a prefix (search as you type) from this length: the table's prefix index starts at 3. */
export const PREFIX_MIN_LENGTH = 3

// FTS5's unicode61 tokenizer splits on everything but letters, numbers, marks and private-use characters.
const TERM = /[\p{L}\p{N}\p{M}\p{Co}]+/gu
const ENDS_WITH_SEPARATOR = /[^\p{L}\p{N}\p{M}\p{Co}]$/u

/**
 * Characters of the scripts written without spaces between words (Chinese, Japanese) and of Hangul (whose words
 * carry their particles): the search index holds each as a word of its own, and a query's run of them matches as
 * a phrase of single characters, so a word is found anywhere inside running text.
 */
export const CJK = '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Hangul}\\p{scx=Bopomofo}'
const CJK_OR_OTHER = new RegExp(`[${CJK}]|[^${CJK}]+`, 'gu')

/** A word's tokens as the index holds them: each CJK character alone, other runs whole (`API文档` → API, 文, 档). */
export function wordTokens(word: string): string[] {
  return word.match(CJK_OR_OTHER) ?? []
}

export interface SearchTerms {
  /** The distinct words of the text (NFC), in order. */
  terms: string[]
  /** What must match, in order: a quoted phrase's words (adjacent, in that order), or one unquoted word. */
  phrases: string[][]
  /** Whether the last phrase, an unquoted word, matches as a prefix. */
  prefixLast: boolean
}

/**
 * The words of a search text, grouped into what must match: text in double quotes is a phrase (its words
 * adjacent, in order), every other word stands alone; at most `max` of those. The last one matches as a prefix
 * while it is being typed (an unquoted word, the text not ending with a separator) and is long enough. A quote
 * left open is not a phrase.
 */
export function searchTerms(text: string, max = Infinity): SearchTerms {
  const parts = text.normalize('NFC').split('"')
  // An odd number of quotes leaves the last one open: its text is read as plain words.
  if (parts.length % 2 === 0) parts.splice(parts.length - 2, 2, `${parts[parts.length - 2]} ${parts[parts.length - 1]}`)
  const seen = new Set<string>()
  const found: { words: string[]; quoted: boolean }[] = []
  parts.forEach((part, i) => {
    const words = part.match(TERM) ?? []
    const quoted = i % 2 === 1
    for (const group of quoted ? (words.length ? [words] : []) : words.map((w) => [w])) {
      const key = group.join(' ')
      if (seen.has(key)) continue
      seen.add(key)
      found.push({ words: group, quoted })
    }
  })
  const kept = found.slice(0, max)
  const last = kept[kept.length - 1]
  const prefixLast = !!last && !last.quoted && !ENDS_WITH_SEPARATOR.test(text) && [...last.words[0]!].length >= PREFIX_MIN_LENGTH
  return { terms: [...new Set(kept.flatMap((p) => p.words))], phrases: kept.map((p) => p.words), prefixLast }
}
