import { CJK } from '../../src-shared/searchTerms'

// Text as the search index holds it. FTS5's unicode61 tokenizer folds case and diacritics, but reads a run of
// CJK characters as one word (这是一个文档系统 is one token) and keeps ß apart from ss. So the index holds each
// CJK character as a word of its own (a break character between it and its neighbours in the text handed to the
// index, which keeps no text: what search shows is read from the document), and a query matches a run of them
// as a phrase: a Chinese, Japanese or Korean word is found anywhere inside running text, whatever a word
// segmenter would have made of its context. ß is folded
// on the query side (`spellings`), so stored text stays as written.

/** Separates CJK characters in indexed text: a control character, a separator to unicode61, never in documents. */
export const WORD_BREAK = '\x1f'
export const HAS_CJK = new RegExp(`[${CJK}]`, 'u')
export const STARTS_CJK = new RegExp(`^[${CJK}]`, 'u')
const TOKEN = '[\\p{L}\\p{N}\\p{M}\\p{Co}]'
// A break after each CJK character followed by a word character, and before one that follows a word character.
const CJK_EDGES = new RegExp(`(?<=[${CJK}])(?=${TOKEN})|(?<=${TOKEN})(?=[${CJK}])`, 'gu')

/** Text to index: unchanged unless it has CJK characters (Latin text stays on the fast path). */
export function indexedText(text: string): string {
  return HAS_CJK.test(text) ? text.replace(CJK_EDGES, WORD_BREAK) : text
}

/** Most `ss`/ß spellings tried for one word (each of its first 3 `ss` either way). */
const MAX_SS = 3

/**
 * The spellings of a query token that the index may hold for it: unicode61 folds case and diacritics itself but
 * not ß, so `Straße` is looked up as `strasse` and `straße`, and `GRÖSSE` as `grösse` and `größe`.
 */
export function spellings(token: string): string[] {
  const lower = token.toLowerCase().replace(/\u00df/g, 'ss') // ß
  const at: number[] = []
  for (let i = lower.indexOf('ss'); i >= 0 && at.length < MAX_SS; i = lower.indexOf('ss', i + 2)) at.push(i)
  if (!at.length) return [token]
  const result: string[] = []
  for (let mask = 0; mask < 1 << at.length; mask++) {
    let word = ''
    let from = 0
    at.forEach((i, bit) => {
      word += lower.slice(from, i) + (mask & (1 << bit) ? 'ß' : 'ss')
      from = i + 2
    })
    result.push(word + lower.slice(from))
  }
  return result
}
