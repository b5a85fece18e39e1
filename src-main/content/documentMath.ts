// Math in markdown, as the hosted service's Git format writes it: `$$formula$$` inline, and a block between two
// lines that are only `$$`. remark has no reading of it without a math extension, and a formula is full of
// characters markdown reads (`*`, `_`, `\{`), so before parsing each formula becomes a placeholder of private-use
// characters around its UTF-8 in hex, which markdown leaves alone; the model reader turns placeholders back.
import type { PhrasingContent } from 'mdast'

const INLINE_OPEN = '\uE000'
const INLINE_CLOSE = '\uE001'
const BLOCK_OPEN = '\uE002'
const BLOCK_CLOSE = '\uE003'
const FENCE = /^(`{3,}|~{3,})/
/** An inline code span (left as it is) or an inline formula. */
const INLINE = /(`+)[\s\S]*?\1|\$\$([^$\n]+?)\$\$/g
const PLACEHOLDER = /\uE000([0-9a-f]*)\uE001|\uE002([0-9a-f]*)\uE003/g

const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex')
const unhex = (text: string) => Buffer.from(text, 'hex').toString('utf8')

/** The markdown with its formulas as placeholders (fenced code left alone). */
export function protectMath(markdown: string): string {
  if (!markdown.includes('$$')) return markdown
  const lines = markdown.split('\n')
  const out: string[] = []
  let fence: string | undefined
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const trimmed = line.trim()
    const opener = FENCE.exec(trimmed)?.[1]
    if (fence) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined
      out.push(line)
      continue
    }
    if (opener) {
      fence = opener
      out.push(line)
      continue
    }
    if (trimmed === '$$') {
      const end = lines.findIndex((l, j) => j > i && l.trim() === '$$')
      if (end > 0) {
        const lead = /^[\s>]*/.exec(line)![0]
        const strip = (l: string) => (l.startsWith(lead) ? l.slice(lead.length) : l.trimStart())
        out.push(
          `${lead}${BLOCK_OPEN}${hex(
            lines
              .slice(i + 1, end)
              .map(strip)
              .join('\n')
          )}${BLOCK_CLOSE}`
        )
        i = end
        continue
      }
    }
    out.push(
      line.replace(INLINE, (all, _ticks, formula: string | undefined) =>
        formula === undefined ? all : `${INLINE_OPEN}${hex(formula)}${INLINE_CLOSE}`
      )
    )
  }
  return out.join('\n')
}

/** Text split into its strings and formulas (placeholders of protectMath). */
export function toMath(text: string): (string | { formula: string; block: boolean })[] {
  if (!/[\uE000\uE002]/.test(text)) return [text]
  const parts: (string | { formula: string; block: boolean })[] = []
  let last = 0
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (match.index > last) parts.push(text.slice(last, match.index))
    parts.push(match[1] !== undefined ? { formula: unhex(match[1]), block: false } : { formula: unhex(match[2]!), block: true })
    last = match.index + match[0].length
  }
  if (last < text.length) parts.push(text.slice(last))
  return parts
}

/** A formula as markdown: `$$formula$$` inline, or the block form. Written as it is (a `raw` node). */
export function fromMath(formula: string, inline = false): PhrasingContent {
  return { type: 'raw', value: inline ? `$$${formula}$$` : `$$\n${formula}\n$$` } as unknown as PhrasingContent
}

/** Text with its placeholders back as the formulas were written (raw HTML that swallowed them is kept as text). */
export function unprotectMath(text: string): string {
  if (!/[\uE000\uE002]/.test(text)) return text
  return text.replace(PLACEHOLDER, (_all, inline: string | undefined, block: string | undefined) =>
    inline !== undefined ? `$$${unhex(inline)}$$` : `$$\n${unhex(block!)}\n$$`
  )
}
