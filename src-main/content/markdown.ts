import type { Definition, Heading, Image, ImageReference, Link, LinkReference, Root, RootContent } from 'mdast'
import { toString } from 'mdast-util-to-string'
import remarkFrontmatter from 'remark-frontmatter'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import { unified } from 'unified'
import { parseBlockTagged } from '../../src-shared/blockTags'
import { frontMatterOf } from '../../src-shared/pageSettings'
import { headingIds } from '../../src-shared/slug'

const processor = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml'])

/** The markdown's syntax tree (mdast, GFM and YAML front matter); also the page's `document` format. */
export function parseMarkdown(markdown: string): Root {
  return processor.parse(markdown) as Root
}

/**
 * The tree search and links read: GitBook's block tags folded (src-shared/blockTags.ts), so a tag line is not
 * text of the page, a hint's text is, and `{% file src %}` or `{% embed url %}` is a link. Includes are not
 * followed: a reusable content's text is its own.
 */
function parseContent(markdown: string): Root {
  return parseBlockTagged(parseMarkdown, markdown)
}

/**
 * A page title taken from the document: front matter `title`, else the first level-1 heading, made to fit the
 * title limit (fitTitle).
 */
export function titleOf(markdown: string): string | undefined {
  const fm = frontMatterOf(markdown).title
  if (typeof fm === 'string' && fm.trim()) return fitTitle(fm.trim())
  const h1 = parseMarkdown(markdown).children.find((n): n is Heading => n.type === 'heading' && n.depth === 1)
  const text = h1 && toString(h1).trim()
  return text ? fitTitle(text) : undefined
}

/** The most characters a page title may have: the limit of an explicit `title` in the content batch. */
export const MAX_TITLE = 255

/** How far back from the cut a word boundary is looked for: further back, a cut mid-word loses less. */
const WORD_WINDOW = 40

/**
 * A title derived from content (a heading, front matter, an HTML title, a URL) cut to `max` characters, so it
 * obeys the limit an explicit title is held to. The cut falls on a word boundary when one is within the last
 * WORD_WINDOW characters, and ends with `…`, counted in `max`. Characters are code points, as the schema's
 * `maxLength` counts them, so a cut never splits a surrogate pair.
 */
export function fitTitle(title: string, max = MAX_TITLE): string {
  // Cheap exit for the usual short title: `length` counts UTF-16 units, never fewer than the code points.
  if (title.length <= max) return title
  const chars = Array.from(title)
  if (chars.length <= max) return title
  const room = max - 1
  let cut = room
  // chars[room] is the first character dropped: if it is a space, the cut already falls between words.
  for (let i = room; i > 0 && i >= room - WORD_WINDOW; i--) {
    if (/\s/u.test(chars[i]!)) {
      cut = i
      break
    }
  }
  // No dangling separator before the ellipsis ("Install,…"); should that leave nothing, cut mid-word after all.
  const head =
    chars
      .slice(0, cut)
      .join('')
      .replace(/[\s,;:]+$/u, '') || chars.slice(0, room).join('')
  return `${head}…`
}

export interface Section {
  /** Anchor id of the heading (empty for the text before the first heading). */
  id: string
  title: string
  body: string
}

/**
 * The document split at its headings: one section per heading with the plain text under it (the text before
 * the first heading is a section with an empty id). Search indexes these.
 */
export function sectionsOf(markdown: string): Section[] {
  return sectionsOfTree(parseContent(markdown))
}

function sectionsOfTree(tree: Root): Section[] {
  const sections: Section[] = []
  const idOf = headingIds()
  let current: Section = { id: '', title: '', body: '' }
  const flush = () => {
    current.body = current.body.trim()
    if (current.id || current.body) sections.push(current)
  }
  for (const node of tree.children as RootContent[]) {
    if (node.type === 'yaml') continue
    if (node.type === 'heading') {
      flush()
      const title = toString(node).trim()
      current = { id: idOf(title), title, body: '' }
    } else {
      current.body += `${blockText(node)}\n`
    }
  }
  flush()
  return sections
}

/** Nodes whose children are blocks: their text is their blocks' text a line each, so words do not run together. */
const BLOCK_PARENTS = new Set(['blockquote', 'list', 'listItem', 'footnoteDefinition', 'blockTag'])

function blockText(node: RootContent): string {
  return BLOCK_PARENTS.has(node.type) && 'children' in node ? (node.children as RootContent[]).map(blockText).join('\n') : toString(node)
}

export interface FoundLink {
  url: string
  /** `image` for ![](…) and for a definition only image references use, else `link`. */
  relation: 'link' | 'image'
}

/** Every link and image URL of the document, in order (definitions included). */
export function linksOf(markdown: string): FoundLink[] {
  return linksOfTree(parseContent(markdown))
}

function linksOfTree(tree: Root): FoundLink[] {
  const found: FoundLink[] = []
  // A definition (`[logo]: /files/…`) is an image when only image references (`![alt][logo]`) use it.
  const definitions: { link: FoundLink; identifier: string }[] = []
  const imageRefs = new Set<string>()
  const linkRefs = new Set<string>()
  const walk = (node: { type: string; children?: unknown[] }) => {
    if (node.type === 'link') found.push({ url: (node as Link).url, relation: 'link' })
    else if (node.type === 'image') found.push({ url: (node as Image).url, relation: 'image' })
    else if (node.type === 'definition') {
      const link: FoundLink = { url: (node as Definition).url, relation: 'link' }
      found.push(link)
      definitions.push({ link, identifier: (node as Definition).identifier })
    } else if (node.type === 'imageReference') imageRefs.add((node as ImageReference).identifier)
    else if (node.type === 'linkReference') linkRefs.add((node as LinkReference).identifier)
    for (const child of (node.children ?? []) as { type: string; children?: unknown[] }[]) walk(child)
  }
  walk(tree)
  for (const { link, identifier } of definitions) if (imageRefs.has(identifier) && !linkRefs.has(identifier)) link.relation = 'image'
  return found
}

/** Links and sections of a document from one parse (storeDocument keeps both; parsing is the costly part). */
export function analyzeMarkdown(markdown: string): { links: FoundLink[]; sections: Section[] } {
  const tree = parseContent(markdown)
  return { links: linksOfTree(tree), sections: sectionsOfTree(tree) }
}
