// Markdown → sanitized HTML for the editor's live preview: the same remark dialect the server parses (GFM, YAML
// front matter), then rehype-sanitize, then our links: `/files/<id>` becomes the file's download URL. Pure and
// synchronous: tested in Node.
import type { Element, ElementContent, Root, RootContent } from 'hast'
import rehypeSanitize from 'rehype-sanitize'
import rehypeStringify from 'rehype-stringify'
import remarkFrontmatter from 'remark-frontmatter'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'

/** A file of the revision, as the preview needs it. */
export interface PreviewFile {
  name: string
  downloadURL: string
}

/** `/files/<id>` (what a document links) → the id; anything else → null. */
export function fileIdOf(url: string): string | null {
  const match = /^\/files\/([^/?#\s]+)(?:[?#].*)?$/.exec(url)
  return match ? decodeURIComponent(match[1]!) : null
}

const isExternal = (url: string) => /^https?:\/\//i.test(url)

/**
 * Runs after the sanitizer, on its output only: points file links and images at their download URLs, opens
 * other sites outside the app, and turns images the app may not load (other hosts, which its CSP refuses, or
 * files missing from the revision) into a visible placeholder rather than a broken image.
 */
function rehypeQuireLinks(getFiles: () => ReadonlyMap<string, PreviewFile>) {
  return (tree: Root) => {
    const files = getFiles()
    const visit = (node: Root | Element) => {
      node.children = node.children.map((child): RootContent => {
        if (child.type !== 'element') return child
        if (child.tagName === 'img') return image(child, files)
        if (child.tagName === 'a') link(child, files)
        visit(child)
        return child
      }) as (RootContent & ElementContent)[]
    }
    visit(tree)
  }
}

function image(node: Element, files: ReadonlyMap<string, PreviewFile>): Element {
  const src = String(node.properties.src ?? '')
  const alt = String(node.properties.alt ?? '')
  const id = fileIdOf(src)
  const file = id ? files.get(id) : undefined
  if (file) {
    node.properties.src = file.downloadURL
    node.properties.loading = 'lazy'
    node.properties.dataFileId = id
    return node
  }
  if (src.startsWith('data:')) return node
  const reason = id ? 'File not found in this revision' : isExternal(src) ? 'Images from other sites are not loaded in the editor' : 'Image not found'
  return {
    type: 'element',
    tagName: 'span',
    properties: { className: ['missing-image'], title: `${reason}: ${src}`, dataMissingImage: src },
    children: [{ type: 'text', value: alt || src || 'image' }],
  }
}

function link(node: Element, files: ReadonlyMap<string, PreviewFile>): void {
  const href = String(node.properties.href ?? '')
  const id = fileIdOf(href)
  const file = id ? files.get(id) : undefined
  if (file) {
    node.properties.href = file.downloadURL
    node.properties.dataFileId = id
  }
  if (file || isExternal(href)) {
    node.properties.target = '_blank'
    node.properties.rel = ['noopener', 'noreferrer']
  }
}

let currentFiles: ReadonlyMap<string, PreviewFile> = new Map()

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkFrontmatter, ['yaml'])
  .use(remarkRehype)
  .use(rehypeSanitize)
  .use(rehypeQuireLinks, () => currentFiles)
  .use(rehypeStringify)

/** The page's markdown as HTML safe to put in the document (scripts, handlers and styles removed). */
export function renderMarkdown(markdown: string, files: ReadonlyMap<string, PreviewFile> = new Map()): string {
  currentFiles = files
  try {
    return String(processor.processSync(markdown))
  } finally {
    currentFiles = new Map()
  }
}
