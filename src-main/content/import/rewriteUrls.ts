import type { Definition, Image, Link, Nodes } from 'mdast'
import { parseMarkdown } from '../markdown'

/** What a URL of the document becomes (undefined: it stays as written). */
export type UrlMapper = (url: string) => string | undefined

interface Edit {
  start: number
  end: number
  text: string
}

const PUNCTUATION = /[!-/:-@[-`{-~]/
const WHITESPACE = /[ \t\r\n]/

/**
 * Where a link destination starting at `i` ends (CommonMark: `<…>`, or a run without spaces whose parentheses
 * balance; a backslash escapes punctuation), or -1 when there is none.
 */
function destinationEnd(s: string, i: number, end: number): number {
  if (s[i] === '<') {
    for (let j = i + 1; j < end; j++) {
      if (s[j] === '\\' && PUNCTUATION.test(s[j + 1] ?? '')) j++
      else if (s[j] === '>') return j + 1
      else if (s[j] === '<' || s[j] === '\n' || s[j] === '\r') return -1
    }
    return -1
  }
  let depth = 0
  let j = i
  for (; j < end; j++) {
    const c = s[j]!
    if (c === '\\' && PUNCTUATION.test(s[j + 1] ?? '')) j++
    else if (WHITESPACE.test(c) || c < ' ') break
    else if (c === '(') depth++
    else if (c === ')') {
      if (depth === 0) break
      depth--
    }
  }
  return depth === 0 ? j : -1
}

const skipWhitespace = (s: string, i: number, end: number) => {
  while (i < end && WHITESPACE.test(s[i]!)) i++
  return i
}

/** Where an optional link title (`"…"`, `'…'`, `(…)`) starting at `i` ends; `i` when there is none, -1 when unclosed. */
function titleEnd(s: string, i: number, end: number): number {
  const close = s[i] === '"' ? '"' : s[i] === "'" ? "'" : s[i] === '(' ? ')' : undefined
  if (!close) return i
  for (let j = i + 1; j < end; j++) {
    if (s[j] === '\\') j++
    else if (s[j] === close) return j + 1
  }
  return -1
}

/**
 * The destination of a link, image or definition as offsets into the source, when the node's source is
 * laid out as expected (`…](dest "title")`, `[label]: dest "title"`). A `](` may also occur inside the text
 * (an image's alt holding a link): the right one is the one after which the rest of the node parses as a
 * destination, a title and the node's end. Undefined for anything else (an autolink, a layout this does not know),
 * which is then left as written.
 */
function destinationOf(s: string, node: Link | Image | Definition, start: number, end: number): [number, number] | undefined {
  const at = (from: number, closing: string): [number, number] | undefined => {
    const destStart = skipWhitespace(s, from, end)
    const destEnd = destinationEnd(s, destStart, end)
    if (destEnd < 0) return undefined
    const afterTitle = titleEnd(s, skipWhitespace(s, destEnd, end), end)
    if (afterTitle < 0) return undefined
    const rest = s.slice(skipWhitespace(s, afterTitle, end), end)
    if (rest !== closing) return undefined
    return s[destStart] === '<' ? [destStart + 1, destEnd - 1] : [destStart, destEnd]
  }
  if (node.type === 'definition') {
    // A label holds no unescaped bracket: the first one closes it.
    for (let j = start + 1; j < end; j++) {
      if (s[j] === '\\') j++
      else if (s[j] === ']') return s[j + 1] === ':' ? at(j + 2, '') : undefined
    }
    return undefined
  }
  if (s[start] !== (node.type === 'image' ? '!' : '[')) return undefined
  for (let k = s.indexOf('](', start); k >= 0 && k < end; k = s.indexOf('](', k + 1)) {
    const found = at(k + 2, ')')
    if (found) return found
  }
  return undefined
}

/** A URL written as a link destination: the characters that would end or unbalance it are escaped. */
const asDestination = (url: string) => url.replace(/[\\()<>|]/g, '\\$&').replace(/\s/g, (c) => encodeURIComponent(c))

/** Text shown as is inside a link's brackets. */
const asLinkText = (text: string) => text.replace(/[\\[\]*_`<>|]/g, '\\$&')

/**
 * The markdown with the URL of every link, image and reference definition that `map` knows replaced, and nothing
 * else touched: the document is parsed (so a URL in code or plain text is not a link and stays) and only each
 * destination's characters are spliced. An autolink (`<https://…>`, a bare `https://…`) keeps its text and becomes
 * `[text](new)`, since a path cannot be an autolink.
 */
export function rewriteUrls(markdown: string, map: UrlMapper): string {
  const edits: Edit[] = []
  const walk = (node: Nodes) => {
    if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && node.position) {
      const start = node.position.start.offset
      const end = node.position.end.offset
      if (start === undefined || end === undefined) return
      const span = destinationOf(markdown, node, start, end)
      if (span) {
        const url = map(node.url)
        if (url !== undefined) edits.push({ start: span[0], end: span[1], text: asDestination(url) })
      } else if (node.type === 'link' && markdown[start] !== '[') {
        const text = markdown.slice(start, end).replace(/^<(.*)>$/s, '$1')
        const url = map(node.url)
        if (url !== undefined) edits.push({ start, end, text: `[${asLinkText(text)}](${asDestination(url)})` })
      }
    }
    if ('children' in node) for (const child of node.children) walk(child)
  }
  walk(parseMarkdown(markdown))
  if (!edits.length) return markdown
  // In one pass over the text (splicing edit by edit would copy a long page once per link).
  edits.sort((a, b) => a.start - b.start)
  const parts: string[] = []
  let at = 0
  for (const edit of edits) {
    parts.push(markdown.slice(at, edit.start), edit.text)
    at = edit.end
  }
  parts.push(markdown.slice(at))
  return parts.join('')
}

/** URLs of the document's images, each once, in order: `![](…)` and the definitions `![][ref]` uses. */
export function imageUrlsOf(markdown: string): string[] {
  const urls: string[] = []
  const refs = new Set<string>()
  const definitions = new Map<string, string>()
  const walk = (node: Nodes) => {
    if (node.type === 'image') urls.push(node.url)
    else if (node.type === 'imageReference') refs.add(node.identifier)
    // The first definition of a label is the one references use.
    else if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node.url)
    if ('children' in node) for (const child of node.children) walk(child)
  }
  walk(parseMarkdown(markdown))
  for (const ref of refs) {
    const url = definitions.get(ref)
    if (url !== undefined) urls.push(url)
  }
  return [...new Set(urls)]
}
