// GitBook's block tags in page markdown (`{% hint style="info" %}` … `{% endhint %}`, tabs, code titles, embeds,
// files, reusable-content includes…): the hosted service's Git format writes them, so pages that come in through
// Git sync or an import are full of them. One reading for the editor preview, the published preview, the PDF and
// the search index. No maintained remark extension reads this syntax, so it is read here in two small steps:
//
// 1. markBlockTags: a line that is only a tag becomes an HTML comment (`<!--quire:{% … %}-->`). An HTML comment
//    starts a block of its own and may interrupt a paragraph, so the parser gives every tag line its own `html`
//    node, whatever blank lines GitBook left out, and the tag's arguments are never read as markdown (no URL in
//    `url="…"` turns into a link). Lines in fenced code stay as they are.
// 2. foldBlockTags: the tag nodes among a parent's children are folded, with their end tags, into `blockTag`
//    nodes holding the blocks between. Each carries the element it renders as (data.hName, classes `gb-…`), so
//    remark-rehype renders it with no handler of its own. An end tag with no opening one is dropped; an opening
//    tag with no end is a tag on its own (an embed, a file) and the blocks after it stay where they were.
import type { Html, Link, Paragraph, Parent, PhrasingContent, Root, RootContent, Text } from 'mdast'
import { toString } from 'mdast-util-to-string'
import { defaultSchema } from 'rehype-sanitize'
import remarkFrontmatter from 'remark-frontmatter'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import { unified } from 'unified'

export interface BlockTag {
  /** The tag's name, lower case (`hint`, `tab`, `content-ref`); an end tag's name without `end`. */
  name: string
  end: boolean
  /** `key="value"` arguments (also `key='value'` and `key=value`). */
  args: Record<string, string>
  /** The first quoted argument without a key (`{% include "path" %}`). Not `value`: mdast reads that as text. */
  positional?: string
}

const TAG_LINE = /^\s*\{%-?\s*([A-Za-z][\w-]*)\b(.*?)-?%\}\s*$/
const ARG = /([A-Za-z][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))|"([^"]*)"|'([^']*)'/g

/** The tag a line consists of, or undefined when the line is anything else. */
export function parseBlockTag(line: string): BlockTag | undefined {
  const match = TAG_LINE.exec(line)
  if (!match) return undefined
  const word = match[1]!.toLowerCase()
  const end = word.startsWith('end') && word.length > 3
  const args: Record<string, string> = {}
  let positional: string | undefined
  for (const arg of match[2]!.matchAll(ARG)) {
    if (arg[1]) args[arg[1]] = arg[2] ?? arg[3] ?? arg[4] ?? ''
    else positional ??= arg[5] ?? arg[6]
  }
  return { name: end ? word.slice(3) : word, end, args, ...(positional === undefined ? {} : { positional }) }
}

/** The comment a tag line becomes; what follows the mark is the line as written. */
const MARK = '<!--quire:'
const MARK_END = '-->'
const FENCE = /^(`{3,}|~{3,})/
/** Indentation and block quote markers before a line's content (`  > > `). */
const LEAD = /^(?:[ \t]*>)*[ \t]*/

/**
 * The markdown with every line that is a block tag turned into an HTML comment, outside fenced code. The same
 * string (no copy) when it holds no tag. Lines keep their indentation, so a tag inside a list item stays there.
 */
export function markBlockTags(markdown: string): string {
  if (!markdown.includes('{%')) return markdown
  const lines = markdown.split('\n')
  let fence: string | undefined
  let changed = false
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const lead = LEAD.exec(line)![0]
    const content = line.slice(lead.length)
    const opener = FENCE.exec(content)?.[1]
    if (fence) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length && !content.slice(opener.length).trim()) fence = undefined
      continue
    }
    if (opener) {
      fence = opener
      continue
    }
    // `-->` inside the tag would end the comment early: such a line stays text.
    if (!content.includes(MARK_END) && parseBlockTag(content)) {
      lines[i] = `${lead}${MARK}${content.trimEnd()}${MARK_END}`
      changed = true
    }
  }
  return changed ? lines.join('\n') : markdown
}

/** The tag an `html` node made by markBlockTags holds. */
function tagOfNode(node: RootContent): BlockTag | undefined {
  if (node.type !== 'html') return undefined
  const value = (node as Html).value
  if (!value.startsWith(MARK) || !value.endsWith(MARK_END) || value.includes('\n')) return undefined
  return parseBlockTag(value.slice(MARK.length, -MARK_END.length))
}

/** A folded block tag in the syntax tree. */
export interface BlockTagNode extends Parent {
  type: 'blockTag'
  name: string
  args: Record<string, string>
  positional?: string
  children: RootContent[]
  data: { hName: string; hProperties: { className: string[] } }
}

// A blockTag is block content wherever mdast's types are used (to-hast renders it by its data.hName).
declare module 'mdast' {
  interface RootContentMap {
    blockTag: BlockTagNode
  }
  interface BlockContentMap {
    blockTag: BlockTagNode
  }
}

export const isBlockTag = (node: { type: string }): node is BlockTagNode => node.type === 'blockTag'

/** Hint styles GitBook writes; anything else shows as `info`. */
export const HINT_STYLES = ['info', 'success', 'warning', 'danger'] as const
export type HintStyle = (typeof HINT_STYLES)[number]

/** A hint's style, from its `style` argument. */
export const hintStyle = (args: Record<string, string>): HintStyle =>
  (HINT_STYLES as readonly string[]).includes(args.style ?? '') ? (args.style as HintStyle) : 'info'

/** What a tag's wrapper says above its content (a tab's or a code block's title, an API operation); may be empty. */
export function blockTagLabel(node: Pick<BlockTagNode, 'name' | 'args'>): string {
  const { name, args } = node
  if (name === 'tab' || name === 'code' || name === 'step' || name === 'update') return args.title ?? args.date ?? ''
  if (name === 'swagger' || name === 'openapi' || name === 'api-method')
    return [args.method?.toUpperCase(), args.path ?? args.url].filter(Boolean).join(' ') || name
  return ''
}

export interface FoldOptions {
  /**
   * The markdown of a reusable content that `{% include "…" %}` names (the tag's path as written), and its title;
   * undefined when there is none. Without this option an include is left empty (its text is not the page's).
   */
  include?: (path: string) => { title: string; markdown: string } | undefined
}

/** Includes inside includes are followed this deep (a reusable content including itself stops here). */
const MAX_INCLUDE_DEPTH = 3

const includeParser = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml'])

function element(name: string, className: string[], children: RootContent[], extra: Partial<BlockTagNode> = {}): BlockTagNode {
  return { type: 'blockTag', name, args: {}, ...extra, children, data: { hName: 'div', hProperties: { className } } }
}

const text = (value: string): Text => ({ type: 'text', value })
const paragraph = (children: PhrasingContent[]): Paragraph => ({ type: 'paragraph', children })
const link = (url: string, label: string): Link => ({ type: 'link', url, children: [text(label)] })

/** A tag's node once its content (the blocks up to its end tag, maybe none) is known. */
function render(tag: BlockTag, content: RootContent[], options: FoldOptions, depth: number): RootContent[] {
  const { name, args, positional } = tag
  const label = blockTagLabel({ name, args })
  const title = label ? [element('title', ['gb-title'], [text(label)])] : []
  const node = (classes: string[], children: RootContent[]) =>
    element(name, [`gb-${name}`, ...classes], children, { args, ...(positional === undefined ? {} : { positional }) })
  switch (name) {
    case 'hint':
      return [node([`gb-hint-${hintStyle(args)}`], content)]
    case 'embed':
    case 'content-ref': {
      const url = args.url ?? positional
      return [node([], url && name === 'embed' ? [paragraph([link(url, url)]), ...content] : content)]
    }
    case 'file': {
      const src = args.src ?? positional
      const fileName = src ? decodeURIComponent(src.split(/[?#]/, 1)[0]!.split('/').pop() ?? src) : ''
      return [node([], src ? [paragraph([link(src, fileName || src)]), ...content] : content)]
    }
    case 'include': {
      const path = positional ?? args.src ?? args.path ?? ''
      // Without a resolver (search, links) an include is read as nothing: the reusable content is its own text.
      if (!options.include) return [node([], [])]
      const found = depth < MAX_INCLUDE_DEPTH ? options.include(path) : undefined
      if (!found) return [node(['gb-include-missing'], [paragraph([text(`Reusable content not found: ${path}`)])])]
      const tree = includeParser.parse(markBlockTags(found.markdown)) as Root
      const children = tree.children.filter((child) => child.type !== 'yaml')
      foldChildren(children, options, depth + 1)
      // Titled by its first heading (as Git import titles it): the heading says it, no title line above it.
      const first = children[0]
      const headed = first?.type === 'heading' && toString(first).trim() === found.title.trim()
      return [node([], headed ? children : [element('title', ['gb-title'], [text(found.title)]), ...children])]
    }
    default:
      return [node(['gb-block'], [...title, ...content])]
  }
}

/** Containers whose children may hold more tags (the fold goes into them). */
const CONTAINERS = new Set(['root', 'blockquote', 'list', 'listItem', 'footnoteDefinition', 'blockTag'])

function foldChildren(children: RootContent[], options: FoldOptions, depth: number): RootContent[] {
  if (children.some((child) => tagOfNode(child))) {
    interface Open {
      tag: BlockTag
      out: RootContent[]
    }
    const result: RootContent[] = []
    const stack: Open[] = []
    let out = result
    // An opening tag that no end tag closes is a tag on its own; the blocks collected after it go back out.
    const closeAlone = (open: Open) => {
      const inner = out
      out = open.out
      out.push(...render(open.tag, [], options, depth), ...inner)
    }
    for (const child of children) {
      const tag = tagOfNode(child)
      if (!tag) out.push(child)
      else if (!tag.end) {
        stack.push({ tag, out })
        out = []
      } else {
        const index = stack.map((open) => open.tag.name).lastIndexOf(tag.name)
        if (index < 0) continue
        while (stack.length - 1 > index) closeAlone(stack.pop()!)
        const open = stack.pop()!
        const content = out
        out = open.out
        out.push(...render(open.tag, content, options, depth))
      }
    }
    while (stack.length) closeAlone(stack.pop()!)
    children.splice(0, children.length, ...result)
  }
  for (const child of children) {
    if (CONTAINERS.has(child.type) && 'children' in child) {
      if (!(isBlockTag(child) && child.name === 'include')) foldChildren(child.children as RootContent[], options, depth)
    } else unmark(child)
  }
  return children
}

const MARKED = /<!--quire:(.*?)-->/g

/**
 * A tag line that did not become a block of its own (in indented code, or indented under a paragraph) is put
 * back as it was written: as code, or as text.
 */
function unmark(node: RootContent): void {
  if (node.type === 'code') node.value = node.value.replace(MARKED, '$1')
  else if (node.type === 'html' && node.value.startsWith(MARK))
    Object.assign(node, { type: 'text', value: node.value.replace(MARKED, '$1') })
  else if ('children' in node) for (const child of node.children as RootContent[]) unmark(child)
}

/** Folds the tag nodes of a tree parsed from markBlockTags' output into `blockTag` nodes, in place. */
export function foldBlockTags(tree: Root, options: FoldOptions = {}): Root {
  foldChildren(tree.children, options, 0)
  return tree
}

/**
 * The markdown's tree from the caller's parser, with its block tags folded. Markdown without a tag is parsed as
 * it is, with no walk over its tree.
 */
export function parseBlockTagged(parse: (markdown: string) => Root, markdown: string, options?: FoldOptions): Root {
  const marked = markBlockTags(markdown)
  const tree = parse(marked)
  return marked === markdown ? tree : foldBlockTags(tree, options)
}

/** The remark plugin: foldBlockTags as a transform (the markdown must have been through markBlockTags). */
export function remarkBlockTags(options: FoldOptions | (() => FoldOptions) = {}) {
  return (tree: Root) => {
    foldBlockTags(tree, typeof options === 'function' ? options() : options)
  }
}

/**
 * Where a page's `{% include "…" %}` points: the path resolved against the page's own Git path (both in the
 * repository, `/`-separated), as GitBook writes it (`../.gitbook/includes/x.md` from `guide/page.md`).
 */
export function includePath(pagePath: string | undefined, path: string): string {
  const base = path.startsWith('/') ? [] : (pagePath ?? '').split('/').slice(0, -1)
  for (const part of path.split('/')) {
    if (part === '..') base.pop()
    else if (part && part !== '.') base.push(part)
  }
  return base.join('/')
}

/** rehype-sanitize's schema (GitHub's allow-list) that also keeps the `gb-…` classes of the tags' wrappers. */
export const blockTagsSanitizeSchema = {
  ...defaultSchema,
  attributes: { ...defaultSchema.attributes, div: [...(defaultSchema.attributes?.div ?? []), ['className', /^gb-[\w-]+$/]] }
} as typeof defaultSchema

/** A reusable content as includes need it: its text and, when it came from Git, its path in the repository. */
export interface IncludeSource {
  title: string
  markdown: string
  gitPath?: string
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1)

/**
 * The include option for a page: the path a tag names, resolved against the page's Git path, is a reusable
 * content's Git path; failing that (a page made in the app has no Git path, or moved since), the one reusable
 * content whose file has that name.
 */
export function includeResolver(contents: readonly IncludeSource[], pagePath?: string): NonNullable<FoldOptions['include']> {
  const byPath = new Map(contents.filter((c) => c.gitPath).map((c) => [c.gitPath!, c]))
  const byName = new Map<string, IncludeSource | null>()
  for (const content of byPath.values()) {
    const name = baseName(content.gitPath!)
    byName.set(name, byName.has(name) ? null : content)
  }
  return (path) => {
    const found = byPath.get(includePath(pagePath, path)) ?? byName.get(baseName(path)) ?? undefined
    return found ? { title: found.title, markdown: found.markdown } : undefined
  }
}

/** The path an include tag in the page at `pagePath` writes for `target` (the inverse of includePath). */
export function relativeIncludePath(pagePath: string | undefined, target: string): string {
  const from = (pagePath ?? '').split('/').slice(0, -1)
  const to = target.split('/')
  let common = 0
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++
  return [...from.slice(common).map(() => '..'), ...to.slice(common)].join('/')
}
