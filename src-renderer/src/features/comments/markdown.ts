// Markdown of comments and replies → sanitized HTML. Pure (no DOM): runs in the renderer and under Node tests.
import type { Element, ElementContent, Root, RootContent } from 'hast'
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize'
import rehypeStringify from 'rehype-stringify'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import { mentionedUserId } from './mentions.ts'

/**
 * After sanitizing: images become links (the app's CSP only loads images from itself, so a remote image
 * would be refused and logged), and links leave the app (a new window, which Electron opens externally).
 */
function rehypeCommentLinks() {
  const visit = (node: Root | Element) => {
    node.children = node.children.map((child): RootContent => {
      if (child.type !== 'element') return child
      if (child.tagName === 'img') {
        const src = typeof child.properties.src === 'string' ? child.properties.src : ''
        const alt = typeof child.properties.alt === 'string' && child.properties.alt ? child.properties.alt : src
        if (!src) return { type: 'text', value: alt }
        return link(src, [{ type: 'text', value: `🖼 ${alt}` }])
      }
      if (child.tagName === 'a' && typeof child.properties.href === 'string' && /^(https?|mailto):/i.test(child.properties.href)) {
        child.properties.target = '_blank'
        child.properties.rel = ['noopener', 'noreferrer']
      }
      visit(child)
      return child
    })
  }
  return (tree: Root) => visit(tree)
}

function link(href: string, children: ElementContent[]): Element {
  return { type: 'element', tagName: 'a', properties: { href, target: '_blank', rel: ['noopener', 'noreferrer'] }, children }
}

/**
 * Before sanitizing: a `mention:<user id>` link (`mentions.ts`) becomes a `span.mention` chip with the user id.
 * Markdown cannot write a span itself (raw HTML is dropped), so only this makes one.
 */
function rehypeMentions() {
  const visit = (node: Root | Element) => {
    node.children = node.children.map((child): RootContent => {
      if (child.type !== 'element') return child
      const id = child.tagName === 'a' && typeof child.properties.href === 'string' ? mentionedUserId(child.properties.href) : null
      if (id) return { type: 'element', tagName: 'span', properties: { className: ['mention'], dataUserId: id }, children: child.children }
      visit(child)
      return child
    })
  }
  return (tree: Root) => visit(tree)
}

/** GitHub's schema, plus the mention chip's class and user id on spans. */
const schema: SanitizeSchema = {
  ...defaultSchema,
  attributes: { ...defaultSchema.attributes, span: [...(defaultSchema.attributes?.span ?? []), ['className', 'mention'], 'dataUserId'] }
}

// Raw HTML in the markdown is dropped by remark-rehype (no allowDangerousHtml); rehype-sanitize (GitHub's
// schema) then removes unsafe elements, attributes and URL schemes from what markdown itself produced.
const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(rehypeMentions)
  .use(rehypeSanitize, schema)
  .use(rehypeCommentLinks)
  .use(rehypeStringify)
  .freeze()

const cache = new Map<string, string>()
const CACHE_MAX = 500

/** Sanitized HTML for a comment body (GFM: tables, task lists, strikethrough, autolinks). Memoized. */
export function renderMarkdown(markdown: string): string {
  const hit = cache.get(markdown)
  if (hit !== undefined) return hit
  const html = String(processor.processSync(markdown))
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!)
  cache.set(markdown, html)
  return html
}
