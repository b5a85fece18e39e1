// Page content as the published document model (`JSONDocument`: blocks, inlines, text leaves with marks) and back.
// Quire stores markdown; `format=document` answers this model and the content batch accepts it. Both ways go
// through mdast: markdown is parsed as everywhere else (GFM, front matter, the Git format's block tags folded
// by src-shared/blockTags.ts), and a model is turned into mdast and written by mdast-util-to-markdown.
//
// The model holds less than markdown can say; what it cannot hold is normalized on the way in: heading levels 4-6
// are `heading-3`, a table's header cells are plain text (a column title), a hard line break is a newline, a
// block a container may not hold (a code block in a quote) is its text as paragraphs, raw HTML is text. Front
// matter is not part of the model: page settings are the page's own fields.
import type {
  Blockquote,
  Code,
  Heading,
  Html,
  Image,
  Link,
  List,
  ListItem,
  Paragraph,
  PhrasingContent,
  Root,
  RootContent,
  Table,
  TableCell,
  TableRow,
  Text,
  ThematicBreak
} from 'mdast'
import { gfmToMarkdown } from 'mdast-util-gfm'
import { toMarkdown, type Handle } from 'mdast-util-to-markdown'
import { toString } from 'mdast-util-to-string'
import { hintStyle, includePath, isBlockTag, parseBlockTagged, relativeIncludePath, type BlockTagNode } from '../../src-shared/blockTags'
import type { ContentChangeInput, ContentChangeWire } from '../../src-shared/schemas/changeRequests'
import { frontMatterBlock } from '../../src-shared/frontMatter'
import { badRequest } from '../base/errors'
import { parseMarkdown } from './markdown'
import { fromMath, protectMath, toMath, unprotectMath } from './documentMath'

// ---- The model's shapes (the published schemas' members Quire writes) ----

export type Mark = { object: 'mark'; type: MarkType }
export type MarkType = 'bold' | 'italic' | 'strikethrough' | 'code'
export interface Leaf {
  object: 'leaf'
  text: string
  marks: Mark[]
}
export interface TextNode {
  object: 'text'
  leaves: Leaf[]
}
export interface InlineNode {
  object: 'inline'
  type: string
  isVoid?: boolean
  data: Record<string, unknown>
  nodes?: (TextNode | InlineNode)[]
}
export interface BlockNode {
  object: 'block'
  type: string
  isVoid?: boolean
  data: Record<string, unknown>
  nodes?: (BlockNode | TextNode | InlineNode)[]
  fragments?: Fragment[]
}
export interface Fragment {
  object: 'fragment'
  fragment: string
  type?: string
  nodes: BlockNode[]
}
export interface JsonDocument {
  object: 'document'
  data: Record<string, unknown>
  nodes: BlockNode[]
}

export type ContentRef =
  | { kind: 'url'; url: string }
  | { kind: 'file'; file: string }
  | { kind: 'page'; page: string }
  | { kind: 'anchor'; anchor: string }
  | { kind: 'reusable-content'; reusableContent: string }

/** Marks in the order they nest (outermost first); a leaf's marks are kept in this order. */
const MARK_ORDER: MarkType[] = ['bold', 'italic', 'strikethrough', 'code']

// What each container may hold, by the published schemas (DocumentBlocksEssentials is the first six).
const ESSENTIALS = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider']
const ALLOWED: Record<string, Set<string> | undefined> = {
  'list-item': new Set([...ESSENTIALS, 'code', 'hint', 'blockquote', 'math', 'table']),
  blockquote: new Set([...ESSENTIALS, 'blockquote']),
  hint: new Set([...ESSENTIALS, 'embed', 'table']),
  'tabs-item': new Set([...ESSENTIALS, 'content-ref', 'code', 'embed', 'file', 'images', 'hint', 'blockquote', 'math']),
  'stepper-step': new Set([...ESSENTIALS, 'content-ref', 'code', 'embed', 'file', 'images', 'hint', 'blockquote', 'math', 'expandable']),
  column: new Set([
    ...ESSENTIALS,
    'images',
    'code',
    'hint',
    'content-ref',
    'embed',
    'file',
    'math',
    'blockquote',
    'table',
    'expandable',
    'stepper'
  ]),
  'expandable-body': new Set([...ESSENTIALS, 'file', 'images', 'code', 'table', 'hint', 'blockquote', 'reusable-content'])
}
/** Blocks that only exist inside their parent block. */
const INNER = new Set(['list-item', 'tabs-item', 'stepper-step', 'column'])

// ---- Content references ----

const FILE_URL = /^\/files\/([^/?#]+)$/
const PAGE_URL = /^\/pages\/([^/?#]+)$/

/** A link target as a content reference: `/files/<id>` a file, `/pages/<id>` a page, `#id` an anchor, else a URL. */
export function refOf(url: string): ContentRef {
  const file = FILE_URL.exec(url)
  if (file) return { kind: 'file', file: decodeURIComponent(file[1]!) }
  const page = PAGE_URL.exec(url)
  if (page) return { kind: 'page', page: decodeURIComponent(page[1]!) }
  if (url.startsWith('#') && url.length > 1) return { kind: 'anchor', anchor: url.slice(1) }
  return { kind: 'url', url }
}

/** The markdown link target of a content reference (refOf's inverse). */
export function urlOf(ref: Record<string, unknown>): string {
  switch (ref.kind) {
    case 'file':
      return `/files/${encodeURIComponent(String(ref.file))}`
    case 'page':
      return `/pages/${encodeURIComponent(String(ref.page))}`
    case 'anchor':
      return ref.page ? `/pages/${encodeURIComponent(String(ref.page))}#${String(ref.anchor)}` : `#${String(ref.anchor)}`
    case 'url':
      return String(ref.url)
    default:
      return String(ref.url ?? '')
  }
}

/** A `{% file src %}` target: a `/files/<id>` link is that file, any other source (a Git path) is named as written. */
const fileRefOf = (src: string): ContentRef => ({ kind: 'file', file: FILE_URL.exec(src)?.[1] ?? src })
const fileSrcOf = (ref: Record<string, unknown>): string => {
  const file = String(ref.file ?? '')
  return /[/.]/.test(file) ? file : `/files/${file}`
}

// ---- markdown → model ----

export interface ToModelOptions {
  /** The reusable content an `{% include "path" %}` names (its id); the path itself when undefined. */
  reusableContentId?: (path: string) => string | undefined
}

/** The markdown as the published document model. */
export function markdownToDocument(markdown: string, options: ToModelOptions = {}): JsonDocument {
  const tree = parseBlockTagged((text) => parseMarkdown(text), protectMath(markdown))
  const definitions = new Map<string, string>()
  const collect = (nodes: RootContent[]) => {
    for (const node of nodes) {
      if (node.type === 'definition') definitions.set(node.identifier, node.url)
      if ('children' in node) collect(node.children as RootContent[])
    }
  }
  collect(tree.children)
  const reader = new ModelReader(definitions, options)
  return { object: 'document', data: {}, nodes: reader.blocks(tree.children, undefined) }
}

class ModelReader {
  private keys = 0
  constructor(
    private definitions: Map<string, string>,
    private options: ToModelOptions
  ) {}

  /** Blocks for mdast children, fitted to what the container (a model block type; undefined: the top) may hold. */
  blocks(children: RootContent[], container: string | undefined): BlockNode[] {
    const out: BlockNode[] = []
    const allowed = container ? ALLOWED[container] : undefined
    for (let i = 0; i < children.length; i++) {
      const node = children[i]!
      // `<details>` … `</details>` (the Git format's expandable) spans sibling HTML nodes.
      if (node.type === 'html' && /^<details(\s+open)?\s*>/i.test(node.value.trim())) {
        const end = children.findIndex((c, j) => j > i && c.type === 'html' && /^<\/details>\s*$/i.test(c.value.trim()))
        if (end > 0) {
          out.push(...this.fit(this.expandable(node, children.slice(i + 1, end)), allowed))
          i = end
          continue
        }
      }
      for (const block of this.block(node, container)) out.push(...this.fit(block, allowed))
    }
    return out
  }

  /** The block as the container may hold it: itself, or its text as paragraphs. */
  private fit(block: BlockNode, allowed: Set<string> | undefined): BlockNode[] {
    if (!allowed || allowed.has(block.type)) return [block]
    const text = plainText(block).trim()
    return text ? text.split(/\n{2,}/).map((part) => paragraphOf([textOf(part, [])])) : []
  }

  private block(node: RootContent, container: string | undefined): BlockNode[] {
    switch (node.type) {
      case 'paragraph':
        return this.paragraph(node, container)
      case 'heading':
        return [{ object: 'block', type: `heading-${Math.min(node.depth, 3)}`, data: {}, nodes: this.inlines(node.children) }]
      case 'thematicBreak':
        return [{ object: 'block', type: 'divider', isVoid: true, data: {} }]
      case 'blockquote':
        return [{ object: 'block', type: 'blockquote', data: {}, nodes: this.blocks(node.children, 'blockquote') }]
      case 'list':
        return [this.list(node)]
      case 'code':
        return [this.code(node.value, node.lang ?? undefined)]
      case 'table':
        return [this.table(node)]
      case 'html': {
        const text = node.value.trim()
        // Raw HTML is text, as written (tags and formulas it swallowed put back as they were).
        return text && !/^<!--[\s\S]*-->$/.test(text) ? [paragraphOf([textOf(asWritten(node.value), [])])] : []
      }
      case 'blockTag':
        return this.blockTag(node)
      case 'yaml':
      case 'definition':
        return []
      case 'footnoteDefinition':
        return this.blocks(node.children, container)
      default:
        return 'children' in node ? this.blocks(node.children as RootContent[], container) : []
    }
  }

  /** A paragraph; one of only images is an `images` block, and a block formula in it a math block of its own. */
  private paragraph(node: Paragraph, container: string | undefined): BlockNode[] {
    const meaningful = node.children.filter((c) => !(c.type === 'text' && !c.value.trim()))
    if (meaningful.length && meaningful.every((c) => c.type === 'image') && (!container || ALLOWED[container]?.has('images'))) {
      return [{ object: 'block', type: 'images', isVoid: false, data: {}, nodes: (meaningful as Image[]).map((img) => this.image(img)) }]
    }
    const out: BlockNode[] = []
    let run: (TextNode | InlineNode)[] = []
    const flush = () => {
      // Newlines left at a cut are the lines around the formula, not text.
      const first = run[0]
      if (first?.object === 'text') first.leaves[0]!.text = first.leaves[0]!.text.replace(/^\n+/, '')
      const last = run[run.length - 1]
      if (last?.object === 'text') last.leaves[last.leaves.length - 1]!.text = last.leaves[last.leaves.length - 1]!.text.replace(/\n+$/, '')
      run = run.filter((n) => n.object !== 'text' || n.leaves.some((l) => l.text))
      if (run.length) out.push(paragraphOf(run))
      run = []
    }
    for (const inline of this.inlines(node.children)) {
      if (inline.object === 'inline' && inline.type === 'math-block') {
        flush()
        out.push({ object: 'block', type: 'math', isVoid: true, data: inline.data })
      } else run.push(inline)
    }
    flush()
    return out
  }

  private image(img: Image): BlockNode {
    const caption = img.title ? [{ object: 'fragment' as const, fragment: 'caption', nodes: [paragraphOf([textOf(img.title, [])])] }] : []
    return {
      object: 'block',
      type: 'image',
      isVoid: true,
      data: { ref: imageRef(img.url), ...(img.alt ? { alt: img.alt } : {}) },
      fragments: caption
    }
  }

  private list(node: List): BlockNode {
    const tasks = node.children.some((item) => typeof item.checked === 'boolean')
    const type = tasks ? 'list-tasks' : node.ordered ? 'list-ordered' : 'list-unordered'
    const data: Record<string, unknown> = node.ordered && !tasks ? { start: node.start ?? 1 } : {}
    return {
      object: 'block',
      type,
      data,
      nodes: node.children.map((item: ListItem) => ({
        object: 'block' as const,
        type: 'list-item',
        data: tasks ? { checked: item.checked === true } : {},
        nodes: this.blocks(item.children, 'list-item')
      }))
    }
  }

  code(value: string, syntax: string | undefined, title?: string): BlockNode {
    const data: Record<string, unknown> = {}
    if (syntax) data.syntax = syntax
    if (title) data.title = title
    return {
      object: 'block',
      type: 'code',
      data,
      nodes: value.split('\n').map((line) => ({ object: 'block' as const, type: 'code-line', data: {}, nodes: [textOf(line, [])] }))
    }
  }

  private table(node: Table): BlockNode {
    const [head, ...rows] = node.children
    const columns = (head?.children ?? []).map((_, i) => `c${i + 1}`)
    const definition: Record<string, unknown> = {}
    columns.forEach((id, i) => {
      const align = node.align?.[i]
      definition[id] = {
        id,
        title: toString(head!.children[i]!),
        type: 'text',
        textAlignment: align === 'center' || align === 'right' ? align : 'left'
      }
    })
    const records: Record<string, unknown> = {}
    const fragments: Fragment[] = []
    rows.forEach((row: TableRow, r) => {
      const values: Record<string, string> = {}
      columns.forEach((id, c) => {
        const cell = row.children[c]
        const key = `r${r + 1}${id}`
        values[id] = key
        fragments.push({ object: 'fragment', fragment: key, nodes: [paragraphOf(cell ? this.inlines(cell.children) : [])] })
      })
      records[`r${r + 1}`] = { orderIndex: orderIndex(r), values }
    })
    return {
      object: 'block',
      type: 'table',
      isVoid: true,
      data: { view: { type: 'grid', columns, hideHeader: false }, records, definition },
      fragments
    }
  }

  private expandable(open: Html, body: RootContent[]): BlockNode {
    let title = ''
    const rest: RootContent[] = []
    for (const node of body) {
      const summary = node.type === 'html' ? /^<summary>([\s\S]*?)<\/summary>$/i.exec(node.value.trim()) : null
      if (summary && !title) title = summary[1]!.trim()
      else rest.push(node)
    }
    const titleNodes = this.inlines(parseMarkdown(title).children.flatMap((c) => (c.type === 'paragraph' ? c.children : [])))
    const bodyNodes = this.blocks(rest, 'expandable-body')
    return {
      object: 'block',
      type: 'expandable',
      isVoid: true,
      data: /\sopen/i.test(open.value) ? { defaultExpanded: true } : {},
      fragments: [
        { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [paragraphOf(titleNodes)] },
        {
          object: 'fragment',
          fragment: 'expandable-body',
          type: 'expandable-body',
          nodes: bodyNodes.length ? bodyNodes : [paragraphOf([])]
        }
      ]
    }
  }

  private blockTag(node: BlockTagNode): BlockNode[] {
    const { args } = node
    // The fold puts a title line above a tab's, step's or code block's content; the model has it as data.
    const content = node.children.filter((c) => !(isBlockTag(c) && c.name === 'title'))
    const inner = (type: string, name: string, data: (tag: BlockTagNode) => Record<string, unknown>) =>
      content
        .filter((c): c is BlockTagNode => isBlockTag(c) && c.name === name)
        .map((tag) => ({
          object: 'block' as const,
          type,
          data: data(tag),
          nodes: this.blocks(
            tag.children.filter((c) => !(isBlockTag(c) && c.name === 'title')),
            type
          )
        }))
    switch (node.name) {
      case 'hint':
        return [{ object: 'block', type: 'hint', data: { style: hintStyle(args) }, nodes: this.blocks(content, 'hint') }]
      case 'tabs':
        return [{ object: 'block', type: 'tabs', data: {}, nodes: inner('tabs-item', 'tab', (tag) => ({ title: tag.args.title ?? '' })) }]
      case 'stepper':
        return [{ object: 'block', type: 'stepper', data: {}, nodes: inner('stepper-step', 'step', () => ({})) }]
      case 'columns':
        return [{ object: 'block', type: 'columns', isVoid: false, data: {}, nodes: inner('column', 'column', () => ({})) }]
      case 'embed':
        return [{ object: 'block', type: 'embed', isVoid: true, data: { url: args.url ?? node.positional ?? '' } }]
      case 'file':
        return [{ object: 'block', type: 'file', isVoid: true, data: { ref: fileRefOf(args.src ?? node.positional ?? '') } }]
      case 'content-ref':
        return [{ object: 'block', type: 'content-ref', isVoid: true, data: { ref: refOf(args.url ?? node.positional ?? '') } }]
      case 'include': {
        const path = node.positional ?? args.src ?? args.path ?? ''
        return [
          {
            object: 'block',
            type: 'reusable-content',
            isVoid: true,
            data: { ref: { kind: 'reusable-content', reusableContent: this.options.reusableContentId?.(path) ?? path } }
          }
        ]
      }
      case 'code': {
        const code = content.find((c): c is Code => c.type === 'code')
        return code ? [this.code(code.value, code.lang ?? undefined, args.title)] : this.blocks(content, undefined)
      }
      default:
        // Tags the model has no block for (api-method, swagger, updates…): their content stays, the tag does not.
        return this.blocks(content, undefined)
    }
  }

  /** Inline content: text with its marks as leaves (neighbours with the same marks joined), links, images, math. */
  inlines(children: PhrasingContent[]): (TextNode | InlineNode)[] {
    const out: (TextNode | InlineNode)[] = []
    const push = (text: string, marks: MarkType[]) => {
      if (!text) return
      const sorted = MARK_ORDER.filter((m) => marks.includes(m))
      const last = out[out.length - 1]
      if (last?.object === 'text') {
        const leaf = last.leaves[last.leaves.length - 1]!
        if (sameMarks(leaf.marks, sorted)) leaf.text += text
        else last.leaves.push(leafOf(text, sorted))
      } else out.push({ object: 'text', leaves: [leafOf(text, sorted)] })
    }
    const walk = (nodes: PhrasingContent[], marks: MarkType[]) => {
      for (const node of nodes) {
        switch (node.type) {
          case 'text': {
            for (const part of toMath(node.value)) {
              if (typeof part === 'string') push(part, marks)
              else
                out.push({
                  object: 'inline',
                  type: part.block ? 'math-block' : 'inline-math',
                  isVoid: true,
                  data: { formula: part.formula }
                })
            }
            break
          }
          case 'strong':
            walk(node.children, [...marks, 'bold'])
            break
          case 'emphasis':
            walk(node.children, [...marks, 'italic'])
            break
          case 'delete':
            walk(node.children, [...marks, 'strikethrough'])
            break
          case 'inlineCode':
            push(node.value, [...marks, 'code'])
            break
          case 'break':
            push('\n', marks)
            break
          case 'html':
            push(asWritten(node.value), marks)
            break
          case 'link':
            out.push(this.link(node.url, node.children, marks))
            break
          case 'linkReference': {
            const url = this.definitions.get(node.identifier)
            if (url === undefined) walk(node.children, marks)
            else out.push(this.link(url, node.children, marks))
            break
          }
          case 'image':
            out.push(inlineImage(node.url, node.alt ?? undefined))
            break
          case 'imageReference': {
            const url = this.definitions.get(node.identifier)
            if (url !== undefined) out.push(inlineImage(url, node.alt ?? undefined))
            break
          }
          case 'footnoteReference':
            push(`[^${node.label ?? node.identifier}]`, marks)
            break
          default: {
            const other = node as { children?: PhrasingContent[] }
            if (other.children) walk(other.children, marks)
          }
        }
      }
    }
    walk(children, [])
    return out
  }

  private link(url: string, children: PhrasingContent[], marks: MarkType[]): InlineNode {
    // The link's text keeps the marks around the link (`**[a](b)**`): the model has marks on leaves only.
    const inner = this.inlines(wrapMarks(children, marks))
    const nodes = inner.filter((n) => n.object === 'text' || n.type === 'inline-image')
    return { object: 'inline', type: 'link', isVoid: false, data: { ref: refOf(url) }, nodes: nodes.length ? nodes : [textOf('', [])] }
  }
}

/** Raw text with the reading's marks undone: block tags and formulas as written. */
const asWritten = (raw: string) => unprotectMath(raw.replace(/<!--quire:(.*?)-->/g, '$1'))

/** Phrasing inside the mark nodes of `marks` (outermost first). */
const wrapMarks = (children: PhrasingContent[], marks: MarkType[]): PhrasingContent[] =>
  marks.reduceRight<PhrasingContent[]>(
    (inner, mark) => [{ type: mark === 'bold' ? 'strong' : mark === 'italic' ? 'emphasis' : 'delete', children: inner } as PhrasingContent],
    children
  )

const imageRef = (url: string): ContentRef => {
  const ref = refOf(url)
  return ref.kind === 'file' ? ref : { kind: 'url', url }
}
const inlineImage = (url: string, alt: string | undefined): InlineNode => ({
  object: 'inline',
  type: 'inline-image',
  isVoid: true,
  data: { ref: imageRef(url), ...(alt ? { alt } : {}) }
})
const leafOf = (text: string, marks: MarkType[]): Leaf => ({ object: 'leaf', text, marks: marks.map((type) => ({ object: 'mark', type })) })
const textOf = (text: string, marks: MarkType[]): TextNode => ({ object: 'text', leaves: [leafOf(text, marks)] })
const paragraphOf = (nodes: (TextNode | InlineNode)[]): BlockNode => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes: nodes.length ? nodes : [textOf('', [])]
})
const sameMarks = (a: Mark[], b: MarkType[]) => a.length === b.length && a.every((m, i) => m.type === b[i])
/** Record order keys that sort as strings (`a0`, `a1`… `a9`, `b10`…): the row's place in the table. */
const orderIndex = (i: number) => `${String.fromCharCode(97 + String(i).length - 1)}${i}`

/** The text a block holds, blocks apart by blank lines (what a container that cannot hold the block keeps). */
function plainText(node: BlockNode | InlineNode | TextNode | Fragment): string {
  if (node.object === 'text') return node.leaves.map((l) => l.text).join('')
  if (node.object === 'inline')
    return node.type === 'inline-math' ? `$$${String(node.data.formula)}$$` : (node.nodes ?? []).map(plainText).join('')
  if (node.object === 'block' && node.type === 'code') return (node.nodes ?? []).map(plainText).join('\n')
  if (node.object === 'block' && node.type === 'math') return `$$${String(node.data.formula)}$$`
  const inner = [...(node.object === 'block' ? (node.fragments ?? []) : []), ...(node.nodes ?? [])] as (
    BlockNode | InlineNode | TextNode | Fragment
  )[]
  const inline = inner.every((n) => n.object === 'text' || n.object === 'inline')
  return inner.map(plainText).join(inline ? '' : '\n\n')
}

// ---- model → markdown ----

export interface ToMarkdownOptions {
  /** The Git path `{% include %}` names for a reusable content id; the id itself when undefined. */
  reusableContentPath?: (id: string) => string | undefined
}

/** Raw lines in the output (block tags, `<details>`), written as they are. */
interface RawNode {
  type: 'raw'
  value: string
}

/** The document model as markdown. */
export function documentToMarkdown(document: { nodes?: unknown[] }, options: ToMarkdownOptions = {}): string {
  const writer = new MarkdownWriter(options)
  const root: Root = { type: 'root', children: writer.blocks((document.nodes ?? []) as BlockNode[]) }
  const raw: Handle = (node: RawNode) => node.value
  // Tag lines sit right against what they hold, as the Git format writes them (no blank line needed there).
  const tag = (node: { type: string; value?: string }, end: boolean) =>
    node.type === 'raw' && node.value!.startsWith(end ? '{% end' : '{%') && (end || !node.value!.startsWith('{% end'))
  return toMarkdown(root, {
    extensions: [gfmToMarkdown()],
    handlers: { raw } as never,
    bullet: '-',
    rule: '-',
    emphasis: '_',
    fences: true,
    listItemIndent: 'one',
    join: [(left, right) => (tag(left as never, false) || tag(right as never, true) ? 0 : undefined)]
  })
}

class MarkdownWriter {
  constructor(private options: ToMarkdownOptions) {}

  blocks(nodes: BlockNode[]): RootContent[] {
    return nodes.flatMap((node) => this.block(node))
  }

  private block(node: BlockNode): RootContent[] {
    const data = node.data ?? {}
    const children = (node.nodes ?? []) as BlockNode[]
    const raw = (value: string) => ({ type: 'raw', value }) as unknown as RootContent
    const tagged = (open: string, name: string, inner: RootContent[]) => [raw(open), ...inner, raw(`{% end${name} %}`)]
    switch (node.type) {
      case 'paragraph':
        return [{ type: 'paragraph', children: this.inlines(node.nodes as (TextNode | InlineNode)[]) } satisfies Paragraph]
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        return [
          {
            type: 'heading',
            depth: Number(node.type.slice(-1)) as 1 | 2 | 3,
            children: this.inlines(node.nodes as (TextNode | InlineNode)[])
          } satisfies Heading
        ]
      case 'divider':
        return [{ type: 'thematicBreak' } satisfies ThematicBreak]
      case 'blockquote':
        return [{ type: 'blockquote', children: this.blocks(children) as Blockquote['children'] }]
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks': {
        const tasks = node.type === 'list-tasks'
        const list: List = {
          type: 'list',
          ordered: node.type === 'list-ordered',
          spread: false,
          children: children.map((item) => ({
            type: 'listItem',
            spread: false,
            checked: tasks ? item.data?.checked === true : null,
            children: this.blocks((item.nodes ?? []) as BlockNode[]) as ListItem['children']
          }))
        }
        if (list.ordered) list.start = typeof data.start === 'number' ? data.start : 1
        return [list]
      }
      case 'code': {
        const code: Code = {
          type: 'code',
          lang: typeof data.syntax === 'string' && data.syntax ? data.syntax : null,
          value: children.map((line) => plainText(line)).join('\n')
        }
        return typeof data.title === 'string' && data.title ? tagged(`{% code title="${attr(data.title)}" %}`, 'code', [code]) : [code]
      }
      case 'math':
        return [fromMath(String(data.formula ?? '')) as unknown as RootContent]
      case 'images':
        return [{ type: 'paragraph', children: children.map((img) => this.image(img)) }]
      case 'image':
        return [{ type: 'paragraph', children: [this.image(node)] }]
      case 'table':
        return [this.table(node)]
      case 'hint':
        return tagged(`{% hint style="${attr(String(data.style ?? 'info'))}" %}`, 'hint', this.blocks(children))
      case 'tabs':
        return tagged(
          '{% tabs %}',
          'tabs',
          children.flatMap((tab) =>
            tagged(`{% tab title="${attr(String(tab.data?.title ?? ''))}" %}`, 'tab', this.blocks((tab.nodes ?? []) as BlockNode[]))
          )
        )
      case 'stepper':
        return tagged(
          '{% stepper %}',
          'stepper',
          children.flatMap((step) => tagged('{% step %}', 'step', this.blocks((step.nodes ?? []) as BlockNode[])))
        )
      case 'columns':
        return tagged(
          '{% columns %}',
          'columns',
          children.flatMap((column) => tagged('{% column %}', 'column', this.blocks((column.nodes ?? []) as BlockNode[])))
        )
      case 'embed':
        return [raw(`{% embed url="${attr(String(data.url ?? ''))}" %}`)]
      case 'file':
        return [raw(`{% file src="${attr(fileSrcOf((data.ref ?? {}) as Record<string, unknown>))}" %}`)]
      case 'content-ref': {
        const url = urlOf((data.ref ?? {}) as Record<string, unknown>)
        return tagged(`{% content-ref url="${attr(url)}" %}`, 'content-ref', [
          { type: 'paragraph', children: [{ type: 'link', url, children: [{ type: 'text', value: url }] }] }
        ])
      }
      case 'reusable-content': {
        const id = String((data.ref as Record<string, unknown> | undefined)?.reusableContent ?? '')
        return [raw(`{% include "${attr(this.options.reusableContentPath?.(id) ?? id)}" %}`)]
      }
      case 'expandable': {
        const title = node.fragments?.find((f) => f.fragment === 'expandable-title' || f.type === 'expandable-title')
        const body = node.fragments?.find((f) => f.fragment === 'expandable-body' || f.type === 'expandable-body')
        const summary = toMarkdown(
          { type: 'paragraph', children: this.inlines((title?.nodes[0]?.nodes ?? []) as (TextNode | InlineNode)[]) },
          { extensions: [gfmToMarkdown()], emphasis: '_' }
        ).trim()
        return [
          raw(data.defaultExpanded ? '<details open>' : '<details>'),
          raw(`<summary>${summary}</summary>`),
          ...this.blocks(body?.nodes ?? []),
          raw('</details>')
        ]
      }
      default:
        // Blocks Quire has no markdown for (drawings, integrations, OpenAPI blocks…): their content, if any.
        return [
          ...this.blocks(children.filter((c) => c.object === 'block' && !INNER.has(c.type))),
          ...(node.fragments ?? []).flatMap((f) => this.blocks(f.nodes))
        ]
    }
  }

  private image(img: BlockNode): Image {
    const data = img.data ?? {}
    const caption = img.fragments?.find((f) => f.fragment === 'caption')
    const title = caption
      ? caption.nodes
          .map((p) => plainText(p))
          .join(' ')
          .trim()
      : ''
    return {
      type: 'image',
      url: urlOf((data.ref ?? {}) as Record<string, unknown>),
      alt: typeof data.alt === 'string' ? data.alt : '',
      title: title || null
    }
  }

  private table(node: BlockNode): Table {
    const data = node.data as {
      view?: { columns?: string[] }
      definition?: Record<string, { title?: string; textAlignment?: string }>
      records?: Record<string, { orderIndex?: string; values?: Record<string, unknown> }>
    }
    const columns = data.view?.columns ?? Object.keys(data.definition ?? {})
    const fragments = new Map((node.fragments ?? []).map((f) => [f.fragment, f]))
    const cell = (children: PhrasingContent[]): TableCell => ({ type: 'tableCell', children })
    const head: TableRow = {
      type: 'tableRow',
      children: columns.map((id) => cell([{ type: 'text', value: data.definition?.[id]?.title ?? '' }]))
    }
    const records = Object.values(data.records ?? {}).sort((a, b) => String(a.orderIndex ?? '').localeCompare(String(b.orderIndex ?? '')))
    const rows = records.map<TableRow>((record) => ({
      type: 'tableRow',
      children: columns.map((id) => {
        const value = record.values?.[id]
        const fragment = typeof value === 'string' ? fragments.get(value) : undefined
        if (fragment)
          return cell(
            fragment.nodes.flatMap((p, i) => [
              ...(i ? [{ type: 'break' } as PhrasingContent] : []),
              ...this.inlines((p.nodes ?? []) as (TextNode | InlineNode)[])
            ])
          )
        return cell(
          value === undefined || value === null
            ? []
            : [{ type: 'text', value: typeof value === 'object' ? urlOf(value as Record<string, unknown>) : String(value) }]
        )
      })
    }))
    const align = columns.map((id) => {
      const a = data.definition?.[id]?.textAlignment
      return a === 'center' || a === 'right' ? a : null
    })
    return { type: 'table', align, children: [head, ...rows] }
  }

  inlines(nodes: (TextNode | InlineNode)[] | undefined): PhrasingContent[] {
    const out: PhrasingContent[] = []
    let leaves: Leaf[] = []
    const flush = () => {
      out.push(...wrapLeaves(leaves, 0))
      leaves = []
    }
    for (const node of nodes ?? []) {
      if (node.object === 'text') {
        leaves.push(...node.leaves)
        continue
      }
      flush()
      const data = node.data ?? {}
      if (node.type === 'link')
        out.push({
          type: 'link',
          url: urlOf((data.ref ?? {}) as Record<string, unknown>),
          children: this.inlines(node.nodes)
        } satisfies Link)
      else if (node.type === 'inline-image')
        out.push({
          type: 'image',
          url: urlOf((data.ref ?? {}) as Record<string, unknown>),
          alt: typeof data.alt === 'string' ? data.alt : ''
        })
      else if (node.type === 'inline-math') out.push(fromMath(String(data.formula ?? ''), true))
      else if (node.type === 'emoji' && typeof data.code === 'string')
        out.push({ type: 'text', value: String.fromCodePoint(...data.code.split('-').map((c) => parseInt(c, 16))) })
      else out.push(...this.inlines(node.nodes))
    }
    flush()
    return out
  }
}

/** Leaves as mdast phrasing: neighbours sharing a mark share its node, nested in MARK_ORDER (code innermost). */
function wrapLeaves(leaves: Leaf[], depth: number): PhrasingContent[] {
  const mark = MARK_ORDER[depth]
  const has = (leaf: Leaf) => leaf.marks.some((m) => m.type === mark)
  if (!mark) return leaves.filter((l) => l.text).map((l): Text => ({ type: 'text', value: l.text }))
  const out: PhrasingContent[] = []
  for (let i = 0; i < leaves.length;) {
    let j = i
    while (j < leaves.length && has(leaves[j]!) === has(leaves[i]!)) j++
    const group = leaves.slice(i, j)
    if (!has(leaves[i]!)) out.push(...wrapLeaves(group, depth + 1))
    else if (mark === 'code') out.push({ type: 'inlineCode', value: group.map((l) => l.text).join('') })
    else {
      const children = wrapLeaves(group, depth + 1)
      if (children.length)
        out.push({ type: mark === 'bold' ? 'strong' : mark === 'italic' ? 'emphasis' : 'delete', children } as PhrasingContent)
    }
    i = j
  }
  return out
}

/** An argument value inside a tag's double quotes (they cannot be escaped there). */
const attr = (value: string) => value.replace(/"/g, "'").replace(/\n/g, ' ')

// ---- the content batch ----

/** The most markdown a batch's document may hold (as the schema's `markdown` limit). */
const MAX_MARKDOWN = 1_000_000

/**
 * A content batch's changes with every document as markdown: a model (`{document: {object: "document", …}}`) is
 * written as markdown here, so the rest of the batch (and a queued offline write) knows markdown only. A model
 * holds no front matter: an updated page keeps the front matter of its current markdown (`current`, by page id),
 * so its settings (layout, cover…) stay as they are when its content is written as a model.
 */
export function withMarkdownDocuments(
  changes: readonly ContentChangeWire[],
  current?: (page: string) => string | undefined
): ContentChangeInput[] {
  return changes.map((change, i) => {
    if (!('document' in change) || !change.document || 'markdown' in change.document) return change as ContentChangeInput
    let markdown = documentToMarkdown(change.document.document as { nodes?: unknown[] })
    const before = change.operation === 'update_page' ? current?.(change.page) : undefined
    const frontMatter = before === undefined ? null : frontMatterBlock(before)
    if (frontMatter) markdown = `${before!.slice(0, frontMatter.end).trimEnd()}\n\n${markdown}`
    if (markdown.length > MAX_MARKDOWN)
      throw badRequest(`changes.${i}.document: the document is more than ${MAX_MARKDOWN} characters of markdown`)
    return { ...change, document: { markdown } } as ContentChangeInput
  })
}

/**
 * How a page's includes name reusable contents in the model (their ids) and back (their Git paths relative to the
 * page's), by the revision's reusable contents: as `{% include %}` finds them (src-shared/blockTags.ts).
 */
export function reusableContentRefs(
  contents: readonly { id: string; git: { path?: string } | null }[],
  pagePath: string | undefined
): ToModelOptions & ToMarkdownOptions {
  const withPath = contents.filter((c) => c.git?.path)
  const byPath = new Map(withPath.map((c) => [c.git!.path!, c.id]))
  const byName = new Map<string, string | null>()
  for (const c of withPath) {
    const name = c.git!.path!.slice(c.git!.path!.lastIndexOf('/') + 1)
    byName.set(name, byName.has(name) ? null : c.id)
  }
  const byId = new Map(withPath.map((c) => [c.id, c.git!.path!]))
  return {
    reusableContentId: (path) => byPath.get(includePath(pagePath, path)) ?? byName.get(path.slice(path.lastIndexOf('/') + 1)) ?? undefined,
    reusableContentPath: (id) => {
      const path = byId.get(id)
      return path === undefined ? undefined : relativeIncludePath(pagePath, path)
    }
  }
}
