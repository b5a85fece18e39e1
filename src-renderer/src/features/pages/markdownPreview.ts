// Markdown → sanitized HTML for the editor's live preview: the same remark dialect the server parses (GFM, YAML
// front matter, GitBook's block tags: src-shared/blockTags.ts), then rehype-sanitize, then our links: `/files/<id>`
// becomes the file's download URL. Pure and synchronous: tested in Node.
import type { Element, ElementContent, Root, RootContent } from 'hast'
import type { Heading, Root as MdRoot } from 'mdast'
import { toString } from 'mdast-util-to-string'
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
  parseBlockTagged,
  remarkBlockTags,
  type FoldOptions,
  type IncludeSource
} from '../../../../src-shared/blockTags.ts'
import { fileReference } from '../../../../src-shared/pagePaths.ts'
import { headingIds } from '../../../../src-shared/slug.ts'

/** A file of the revision, as the preview needs it. */
export interface PreviewFile {
  name: string
  downloadURL: string
}

/** `/files/<id>` (what a document links) → the id; anything else → null. */
export function fileIdOf(url: string): string | null {
  const ref = fileReference(url)
  return ref && 'id' in ref ? ref.id : null
}

const isExternal = (url: string) => /^https?:\/\//i.test(url)

/** Files by id, and by name for links that name one (the server's rule: the same name, the last one listed wins). */
interface FileIndex {
  byId: ReadonlyMap<string, PreviewFile>
  idByName: ReadonlyMap<string, string>
}

/**
 * The file a link or image names: `/files/<id>`, or a path ending in a file's name (`../.gitbook/assets/a.png`,
 * as pages from Git link their images), as the server's links list resolves them. `namesFile` is true when the
 * link names a file at all, found in the revision or not.
 */
function fileOf(url: string, files: FileIndex): { id?: string; file?: PreviewFile; namesFile: boolean } {
  const ref = fileReference(url)
  if (!ref) return { namesFile: false }
  const id = 'id' in ref ? ref.id : files.idByName.get(ref.name)
  return { id, file: id === undefined ? undefined : files.byId.get(id), namesFile: true }
}

/**
 * Runs after the sanitizer, on its output only: points file links and images at their download URLs, opens
 * other sites outside the app, and turns images the app may not load (other hosts, which its CSP refuses, or
 * files missing from the revision) into a visible placeholder rather than a broken image.
 */
function rehypeQuireLinks(getFiles: () => ReadonlyMap<string, PreviewFile>) {
  return (tree: Root) => {
    const byId = getFiles()
    const files: FileIndex = { byId, idByName: new Map([...byId].map(([id, f]) => [f.name, id])) }
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

function image(node: Element, files: FileIndex): Element {
  const src = String(node.properties.src ?? '')
  const alt = String(node.properties.alt ?? '')
  const { id, file, namesFile } = fileOf(src, files)
  if (file) {
    node.properties.src = file.downloadURL
    node.properties.loading = 'lazy'
    node.properties.dataFileId = id
    return node
  }
  if (src.startsWith('data:')) return node
  const reason = namesFile
    ? 'File not found in this revision'
    : isExternal(src)
      ? 'Images from other sites are not loaded in the editor'
      : 'Image not found'
  return {
    type: 'element',
    tagName: 'span',
    properties: { className: ['missing-image'], title: `${reason}: ${src}`, dataMissingImage: src },
    children: [{ type: 'text', value: alt || src || 'image' }]
  }
}

function link(node: Element, files: FileIndex): void {
  const href = String(node.properties.href ?? '')
  const { id, file } = fileOf(href, files)
  if (file) {
    node.properties.href = file.downloadURL
    node.properties.dataFileId = id
  }
  if (file || isExternal(href)) {
    node.properties.target = '_blank'
    node.properties.rel = ['noopener', 'noreferrer']
  }
}

/**
 * The sanitizer prefixes every id of the document with this (so a heading cannot take the id of the app's own
 * elements); a section's heading is `#user-content-<section id>` in the preview.
 */
export const SECTION_ID_PREFIX = 'user-content-'

/** The preview element id of a section's heading (a search result's section `id`). */
export const sectionElementId = (sectionId: string) => `${SECTION_ID_PREFIX}${sectionId}`

/** The document's top-level headings (the ones that start search sections) with their section ids, in order. */
function sectionHeadings(tree: MdRoot): { id: string; heading: Heading }[] {
  const idOf = headingIds()
  return tree.children.flatMap((node) => (node.type === 'heading' ? [{ id: idOf(toString(node)), heading: node }] : []))
}

/** Gives each top-level heading its section's id, as the server's search sections name them (src-shared/slug.ts). */
function remarkSectionIds() {
  return (tree: MdRoot) => {
    for (const { id, heading } of sectionHeadings(tree))
      heading.data = { ...heading.data, hProperties: { ...heading.data?.hProperties, id } }
  }
}

let currentFiles: ReadonlyMap<string, PreviewFile> = new Map()
let currentFold: FoldOptions = {}

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml'])

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkFrontmatter, ['yaml'])
  .use(remarkBlockTags, () => currentFold)
  .use(remarkSectionIds)
  .use(remarkRehype)
  .use(rehypeSanitize, blockTagsSanitizeSchema)
  .use(rehypeQuireLinks, () => currentFiles)
  .use(rehypeStringify)

/** What `{% include %}` tags may show: the revision's reusable contents, and the page's Git path they are relative to. */
export interface PreviewIncludes {
  contents: readonly IncludeSource[]
  pagePath?: string
}

/** The page's markdown as HTML safe to put in the document (scripts, handlers and styles removed). */
export function renderMarkdown(markdown: string, files: ReadonlyMap<string, PreviewFile> = new Map(), includes?: PreviewIncludes): string {
  currentFiles = files
  currentFold = includes ? { include: includeResolver(includes.contents, includes.pagePath) } : {}
  try {
    return String(processor.processSync(markBlockTags(markdown)))
  } finally {
    currentFiles = new Map()
    currentFold = {}
  }
}

/** The 1-based line of a section's heading in the markdown (where the editor puts the cursor), if it has one. */
export function sectionLine(markdown: string, sectionId: string): number | undefined {
  if (!sectionId) return undefined
  // Marking block tags changes no line, so the heading's line is the editor's.
  const tree = parseBlockTagged((text) => parser.parse(text) as MdRoot, markdown)
  return sectionHeadings(tree).find((s) => s.id === sectionId)?.heading.position?.start.line
}
