import type { Element, Root as HastRoot } from 'hast'
import rehypeSanitize from 'rehype-sanitize'
import rehypeStringify from 'rehype-stringify'
import remarkFrontmatter from 'remark-frontmatter'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import {
  blockTagsSanitizeSchema,
  includeResolver,
  markBlockTags,
  remarkBlockTags,
  type FoldOptions,
  type IncludeSource
} from '../../src-shared/blockTags'
import { docsBlocks, type OutlineEntry } from './docsBlocks'

let fold: FoldOptions = {}
let outline: OutlineEntry[] = []
let pageTitle: string | undefined
let fileUrl: ((url: string) => string | undefined) | undefined

/**
 * After the sanitizer: points images and links that name a file of the revision at the URL readers load it from
 * (the caller's `files`); anything else is left as written.
 */
function rehypeFileUrls() {
  return (tree: HastRoot) => {
    const visit = (node: HastRoot | Element) => {
      for (const child of node.children) {
        if (child.type !== 'element') continue
        const attribute = child.tagName === 'img' ? 'src' : child.tagName === 'a' ? 'href' : undefined
        const url = attribute && fileUrl?.(String(child.properties[attribute] ?? ''))
        if (attribute && url) child.properties[attribute] = url
        visit(child)
      }
    }
    visit(tree)
  }
}

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
  .use(rehypeFileUrls)
  .use(() => (tree: HastRoot) => {
    outline = docsBlocks(tree, pageTitle)
  })
  .use(rehypeStringify)
  .freeze()

export interface RenderOptions {
  /** What the page's `{% include %}` tags show. */
  includes?: { contents: readonly IncludeSource[]; pagePath?: string }
  /** The URL a reader loads the file an image or link names from (`/files/<id>`, `../.gitbook/assets/x.png`). */
  files?: (url: string) => string | undefined
  /** The page's title, which the preview shows above the document (a first heading repeating it is dropped). */
  title?: string
}

export interface RenderedPage {
  html: string
  /** The page's top-level headings, with the ids the HTML gives them. */
  outline: OutlineEntry[]
}

/** A page's markdown as safe HTML for the published preview (tabs, code blocks, heading ids: docsBlocks.ts). */
export function renderMarkdown(markdown: string, options: RenderOptions = {}): RenderedPage {
  fold = options.includes ? { include: includeResolver(options.includes.contents, options.includes.pagePath) } : {}
  fileUrl = options.files
  pageTitle = options.title
  try {
    const html = String(processor.processSync(markBlockTags(markdown)))
    return { html, outline }
  } finally {
    fold = {}
    fileUrl = undefined
    outline = []
    pageTitle = undefined
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text for an HTML text node or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}
