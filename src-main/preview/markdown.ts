import rehypeSanitize from 'rehype-sanitize'
import rehypeStringify from 'rehype-stringify'
import remarkFrontmatter from 'remark-frontmatter'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'

// Markdown → mdast (GFM, front matter dropped) → hast → sanitized (GitHub's allow-list: no script, no event
// handlers, no javascript: URLs, ids prefixed) → HTML. Raw HTML in a page stays out: remark-rehype drops it.
const processor = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).use(remarkRehype).use(rehypeSanitize).use(rehypeStringify).freeze()

/** A page's markdown as safe HTML for the published preview. */
export function renderMarkdown(markdown: string): string {
  return String(processor.processSync(markdown))
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text for an HTML text node or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}
