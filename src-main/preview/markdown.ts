import rehypeSanitize from 'rehype-sanitize'
import rehypeStringify from 'rehype-stringify'
import remarkFrontmatter from 'remark-frontmatter'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import { blockTagsSanitizeSchema, includeResolver, markBlockTags, remarkBlockTags, type FoldOptions, type IncludeSource } from '../../src-shared/blockTags'

let fold: FoldOptions = {}

// Markdown → mdast (GFM, front matter dropped, GitBook's block tags folded: src-shared/blockTags.ts) → hast →
// sanitized (GitHub's allow-list and the tags' `gb-` classes: no script, no event handlers, no javascript: URLs,
// ids prefixed) → HTML. Raw HTML in a page stays out: remark-rehype drops it.
const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkFrontmatter, ['yaml'])
  .use(remarkBlockTags, () => fold)
  .use(remarkRehype)
  .use(rehypeSanitize, blockTagsSanitizeSchema)
  .use(rehypeStringify)
  .freeze()

/** A page's markdown as safe HTML for the published preview; `includes` are what its `{% include %}` tags show. */
export function renderMarkdown(markdown: string, includes?: { contents: readonly IncludeSource[]; pagePath?: string }): string {
  fold = includes ? { include: includeResolver(includes.contents, includes.pagePath) } : {}
  try {
    return String(processor.processSync(markBlockTags(markdown)))
  } finally {
    fold = {}
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text for an HTML text node or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}
