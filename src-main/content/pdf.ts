import type { Image, List, Nodes, Paragraph, PhrasingContent, RootContent, Table } from 'mdast'
import { toString } from 'mdast-util-to-string'
import PDFDocument from 'pdfkit'
import {
  hintStyle,
  includeResolver,
  isBlockTag,
  parseBlockTagged,
  type BlockTagNode,
  type HintStyle,
  type IncludeSource
} from '../../src-shared/blockTags'
import { parseMarkdown } from './markdown'
import { fontPieces, useFont, type Face } from './pdfFonts'
import { throwIfCancelled, type WorkProgress } from './progress'

/** One page of content, in tree order; `depth` 0 is a top-level page of the export. */
export interface PdfPage {
  title: string
  markdown: string
  depth: number
  /** The page's path in Git, where known: its `{% include %}` paths are relative to it. */
  gitPath?: string
}

/** An image the PDF can embed (PNG or JPEG, as pdfkit reads them), with its size in pixels. */
export interface PdfImage {
  bytes: Buffer
  width: number
  height: number
}

/** Finds the image a document's image URL names (`/files/<id>`, a path ending in a file's name), if it can be embedded. */
export type PdfImages = (url: string) => PdfImage | undefined

/** The name of the file a URL names (`/files/<id>`, a path ending in a file's name), if the revision has it. */
export type PdfFileNames = (url: string) => string | undefined

/** Images are printed at 96 pixels to the inch (0.75 points a pixel), at most this tall, and never wider than the text. */
const POINTS_PER_PIXEL = 0.75
const MAX_IMAGE_HEIGHT = 360

/** What a hint's label says, by style. */
const HINT_LABELS: Record<HintStyle, string> = { info: 'Info', success: 'Success', warning: 'Warning', danger: 'Danger' }

const MARGIN = 56
const BODY = 11
const HEADING_SIZES = [18, 15, 13, 12, 11.5, 11]
const COLORS = { text: '#111111', muted: '#555555', link: '#1a56db', rule: '#cccccc', code: '#333333' }

interface Run {
  text: string
  bold?: boolean
  italic?: boolean
  code?: boolean
  strike?: boolean
  link?: string
}

function runsOf(nodes: PhrasingContent[], style: Omit<Run, 'text'> = {}): Run[] {
  const runs: Run[] = []
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        runs.push({ ...style, text: node.value.replace(/\s*\n\s*/g, ' ') })
        break
      case 'inlineCode':
        runs.push({ ...style, code: true, text: node.value })
        break
      case 'break':
        runs.push({ ...style, text: '\n' })
        break
      case 'emphasis':
        runs.push(...runsOf(node.children, { ...style, italic: true }))
        break
      case 'strong':
        runs.push(...runsOf(node.children, { ...style, bold: true }))
        break
      case 'delete':
        runs.push(...runsOf(node.children, { ...style, strike: true }))
        break
      case 'link':
        runs.push(...runsOf(node.children, { ...style, link: node.url }))
        break
      case 'image':
        runs.push({ ...style, italic: true, text: `[image${node.alt ? `: ${node.alt}` : ''}]` })
        break
      case 'footnoteReference':
        runs.push({ ...style, text: `[${node.label ?? node.identifier}]` })
        break
      default: {
        // Extensions (and raw html, which is dropped) are read for their text, if any.
        const other = node as { type: string; children?: PhrasingContent[]; value?: unknown }
        if (other.children) runs.push(...runsOf(other.children, style))
        else if (typeof other.value === 'string' && other.type !== 'html') runs.push({ ...style, text: other.value })
      }
    }
  }
  return runs.filter((r) => r.text.length)
}

const faceOf = (run: Omit<Run, 'text'>): Face =>
  run.bold && run.italic ? 'boldItalic' : run.bold ? 'bold' : run.italic ? 'italic' : 'regular'

/** Writes markdown (through its mdast) into a pdfkit document: headings, paragraphs, lists, code, quotes, tables. */
class Writer {
  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly images: PdfImages = () => undefined,
    private readonly fileNames: PdfFileNames = () => undefined
  ) {}

  private get width() {
    return this.doc.page.width - 2 * MARGIN
  }

  /**
   * Inline runs as one flowing paragraph at `indent` (pdfkit's `continued` text keeps them on shared lines), each
   * cut into pieces by the font that has its characters (pdfFonts.ts).
   */
  runs(runs: Run[], indent: number, size = BODY, color = COLORS.text, base: Omit<Run, 'text'> = {}) {
    const doc = this.doc
    const pieces = runs.flatMap((r) => {
      const run = { ...base, ...r }
      return fontPieces(run.text, !!run.code).map((piece) => ({ run, piece }))
    })
    pieces.forEach(({ run, piece }, i) => {
      doc
        .font(useFont(doc, piece.family, faceOf(run)))
        .fontSize(run.code ? size - 1 : size)
        .fillColor(run.link ? COLORS.link : color)
      const options: PDFKit.Mixins.TextOptions = {
        continued: i < pieces.length - 1,
        width: this.width - indent,
        link: run.link ?? undefined,
        underline: !!run.link,
        strike: !!run.strike
      }
      if (i === 0) doc.text(piece.text, MARGIN + indent, doc.y, options)
      else doc.text(piece.text, options)
    })
  }

  title(text: string) {
    this.runs([{ text, bold: true }], 0, 22)
    this.doc.moveDown(0.6)
  }

  blocks(nodes: RootContent[], indent: number, color = COLORS.text) {
    for (const node of nodes) this.block(node, indent, color)
  }

  private block(node: RootContent, indent: number, color: string) {
    const doc = this.doc
    switch (node.type) {
      case 'heading':
        doc.moveDown(0.4)
        this.runs(runsOf(node.children), indent, HEADING_SIZES[node.depth - 1], color, { bold: true })
        doc.moveDown(0.3)
        break
      case 'paragraph': {
        // A paragraph of images only (how documents place pictures) prints them; an image among words stays text.
        const found = imagesOnly(node)?.map((image) => ({ image, embedded: this.images(image.url) }))
        if (found?.every((f) => f.embedded)) {
          for (const { image, embedded } of found) this.image(embedded!, image, indent, color)
          doc.moveDown(0.3)
          break
        }
        this.runs(runsOf(node.children), indent, BODY, color)
        doc.moveDown(0.5)
        break
      }
      case 'list':
        this.list(node, indent, color)
        doc.moveDown(0.3)
        break
      case 'code':
        this.runs([{ text: node.value, code: true }], indent + 10, 10.5, COLORS.code)
        doc.moveDown(0.6)
        break
      case 'blockquote':
        this.blocks(node.children, indent + 14, COLORS.muted)
        break
      case 'table':
        this.table(node, indent, color)
        doc.moveDown(0.5)
        break
      case 'thematicBreak': {
        const y = doc.y + 4
        doc
          .moveTo(MARGIN + indent, y)
          .lineTo(MARGIN + this.width, y)
          .strokeColor(COLORS.rule)
          .lineWidth(0.5)
          .stroke()
        doc.y = y + 8
        break
      }
      case 'footnoteDefinition':
        this.runs([{ text: `[${node.label ?? node.identifier}] ` }], indent, 9, COLORS.muted)
        this.blocks(node.children, indent + 14, COLORS.muted)
        break
      case 'html':
      case 'yaml':
      case 'definition':
        break
      default:
        if (isBlockTag(node)) this.blockTag(node, indent, color)
        else if ('children' in node) this.blocks(node.children as RootContent[], indent, color)
    }
  }

  /** GitBook's block tags: a hint is set off with its label, a title (a tab's, a code block's) is bold. */
  private blockTag(node: BlockTagNode, indent: number, color: string) {
    const doc = this.doc
    switch (node.name) {
      case 'title':
        this.runs([{ text: toString(node), bold: true }], indent, BODY, color)
        doc.moveDown(0.3)
        break
      case 'hint': {
        this.runs([{ text: HINT_LABELS[hintStyle(node.args)], bold: true }], indent + 14, BODY, COLORS.muted)
        this.blocks(node.children, indent + 14, color)
        break
      }
      case 'file': {
        // The block's first paragraph links the file by its URL's last segment (an id for an uploaded file):
        // the PDF prints the file's name instead, then the caption.
        const src = node.args.src ?? node.positional
        const name = src && this.fileNames(src)
        const [link, ...caption] = node.children
        if (name && link?.type === 'paragraph') {
          this.runs([{ text: name, bold: true }], indent, BODY, color)
          doc.moveDown(0.3)
          this.blocks(caption, indent, color)
        } else this.blocks(node.children, indent, color)
        break
      }
      case 'include':
        // Included text reads as the page's own; its title is the editor's label only.
        this.blocks(
          node.children.filter((child) => !(isBlockTag(child) && child.name === 'title')),
          indent,
          color
        )
        break
      default:
        this.blocks(node.children, indent, color)
    }
  }

  /** An image at its size (96 dpi), scaled down to fit the text's width and MAX_IMAGE_HEIGHT, on a new sheet if need be. */
  private image(image: PdfImage, node: Image, indent: number, color: string) {
    const doc = this.doc
    const scale = Math.min(POINTS_PER_PIXEL, (this.width - indent) / image.width, MAX_IMAGE_HEIGHT / image.height)
    const width = image.width * scale
    const height = image.height * scale
    if (doc.y + height > doc.page.height - MARGIN) doc.addPage()
    const y = doc.y
    try {
      doc.image(image.bytes, MARGIN + indent, y, { width, height })
      doc.y = y + height + 6
    } catch {
      // Bytes pdfkit cannot decode print as the image's text, as an image it cannot find does.
      this.runs(runsOf([node]), indent, BODY, color)
    }
  }

  private list(list: List, indent: number, color: string) {
    const doc = this.doc
    list.children.forEach((item, i) => {
      const marker = item.checked === true ? '[x]' : item.checked === false ? '[ ]' : list.ordered ? `${(list.start ?? 1) + i}.` : '•'
      const y = doc.y
      doc
        .font(useFont(doc, 'sans', 'regular'))
        .fontSize(BODY)
        .fillColor(color)
        .text(marker, MARGIN + indent, y, { width: 20, lineBreak: false })
      doc.y = y
      item.children.forEach((child) => {
        if (child.type === 'paragraph') {
          this.runs(runsOf(child.children), indent + 20, BODY, color)
          if (!list.spread) doc.moveDown(0.15)
          else doc.moveDown(0.4)
        } else this.block(child, indent + 20, color)
      })
    })
  }

  private table(table: Table, indent: number, color: string) {
    table.children.forEach((row, i) => {
      const cells = row.children.map((cell) => toString(cell as Nodes)).join('   |   ')
      this.runs([{ text: cells, bold: i === 0 }], indent, BODY - 1, color)
      this.doc.moveDown(0.2)
    })
  }
}

/** The images of a paragraph that holds nothing else (blank text and line breaks aside), or undefined. */
function imagesOnly(paragraph: Paragraph): Image[] | undefined {
  const images: Image[] = []
  for (const child of paragraph.children) {
    if (child.type === 'image') images.push(child)
    else if (!(child.type === 'break' || (child.type === 'text' && !child.value.trim()))) return undefined
  }
  return images.length ? images : undefined
}

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * A PDF of `pages`: each page starts on a new sheet with its title as a heading, then its markdown rendered
 * from the mdast (headings, paragraphs with bold/italic/code/links, lists, code blocks, quotes, tables, GitBook's
 * block tags with `includes` resolved, files by their names, and the pictures `images` finds). The outline (bookmarks) follows the page tree. Yields to the event loop between pages so a large space does not
 * stall the process that serves the API.
 */
export async function renderPdf(
  title: string,
  pages: PdfPage[],
  includes: readonly IncludeSource[] = [],
  images?: PdfImages,
  fileNames?: PdfFileNames,
  progress?: WorkProgress
): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: title, Creator: 'Quire' }, displayTitle: true })
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  const writer = new Writer(doc, images, fileNames)
  const outline: PDFKit.PDFOutline[] = [doc.outline]
  if (!pages.length) writer.title(title)
  for (const [i, page] of pages.entries()) {
    if (i > 0) doc.addPage()
    const parent = outline[Math.min(page.depth, outline.length - 1)]!
    outline.length = Math.min(page.depth, outline.length - 1) + 1
    outline.push(parent.addItem(page.title))
    writer.title(page.title)
    const tree = parseBlockTagged(parseMarkdown, page.markdown, { include: includeResolver(includes, page.gitPath) })
    // A document that repeats its title as the first heading would print it twice.
    const [first, ...rest] = tree.children.filter((n) => n.type !== 'yaml')
    const body = first?.type === 'heading' && first.depth === 1 && toString(first).trim() === page.title.trim() ? rest : tree.children
    writer.blocks(body, 0)
    progress?.report?.('pages', i + 1, pages.length)
    // Between pages the server answers other requests (a progress poll, a cancel), which may stop the work here.
    if (i % 20 === 19) {
      await nextTick()
      throwIfCancelled(progress)
    }
  }
  doc.end()
  return done
}
