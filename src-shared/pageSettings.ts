// A page's settings as its document's front matter writes them: read by the server (content/pageSettings.ts keeps
// them on the page) and by the editor (its page settings menu writes them), so both read one rule.
import { parse as parseYaml } from 'yaml'
import { frontMatterSource } from './frontMatter'

/**
 * A page's display settings, written as the hosted service writes them in a page's Markdown front matter (its Git
 * format), so the same file means the same page in Git, in the editor and over the API:
 *
 *     ---
 *     description: What this page covers
 *     icon: book
 *     cover: ../.gitbook/assets/banner.png
 *     coverY: 120
 *     layout:
 *       cover: { visible: true, size: hero }
 *       title: { visible: false }
 *       tableOfContents: { visible: false }
 *       width: wide
 *     hidden: true
 *     noIndex: true
 *     noRobotsIndex: true
 *     ---
 *
 * The document is the one source of these settings: they are read from it whenever a page gets a new document
 * (the server's applyDocumentSettings) and kept in the page's props, so listing a tree reads no documents.
 */

/** The Page `layout` of the API: which parts of the page show, and how wide it is. */
export interface PageLayout {
  width: 'default' | 'wide'
  cover: boolean
  coverSize: 'hero' | 'full'
  /** Quire draws covers unmasked: no front matter key sets a mask. */
  coverMask: 'none'
  title: boolean
  description: boolean
  tableOfContents: boolean
  outline: boolean
  pagination: boolean
  metadata: boolean
  tags: boolean
  actions: boolean
  anchors: boolean
}

/** A document page's layout when its front matter says nothing: everything shows, a full-width cover. */
export const DEFAULT_LAYOUT: Readonly<PageLayout> = Object.freeze({
  width: 'default',
  cover: true,
  coverSize: 'full',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true
})

/** The parts of a page its front matter shows or hides (`layout.<part>.visible`), beside the cover. */
export const LAYOUT_PARTS = ['title', 'description', 'tableOfContents', 'outline', 'pagination'] as const
export type LayoutPart = (typeof LAYOUT_PARTS)[number]
/** Parts the front matter also sets (`layout.metadata.visible`…), kept on the page; the editor's menu leaves them. */
const MORE_LAYOUT_PARTS = ['metadata', 'tags', 'actions', 'anchors'] as const

/** What a document's front matter sets. Absent members are not set (the defaults apply). */
export interface DocumentSettings {
  description?: string
  icon?: string
  layout?: Partial<PageLayout>
  /** The cover image as written: a file path, a file name or a `/files/<id>` link; `yPos` its vertical offset. */
  cover?: { src: string; yPos: number }
  hidden?: boolean
  noIndex?: boolean
  noRobotsIndex?: boolean
}

/** YAML text as an object; `{}` when it does not parse or is not a mapping. */
function yamlMapping(text: string): Record<string, unknown> {
  try {
    const value: unknown = parseYaml(text)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** The front matter of a document as an object; `{}` when it has none or it is not a YAML mapping. */
export function frontMatterOf(markdown: string): Record<string, unknown> {
  // Found directly, not through the syntax tree: a few settings do not need the whole document parsed.
  const source = frontMatterSource(markdown)
  return source ? yamlMapping(source) : {}
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined)
const flag = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined)

/** `{ visible: false }` as the Git format writes a part, or a bare boolean. */
const visible = (value: unknown): boolean | undefined =>
  value && typeof value === 'object' ? flag((value as Record<string, unknown>).visible) : flag(value)

/** The settings of a document's front matter. Values of the wrong type are ignored, as unknown keys are. */
export function documentSettings(markdown: string): DocumentSettings {
  const fm = frontMatterOf(markdown)
  const out: DocumentSettings = {}
  const description = text(fm.description)
  if (description) out.description = description
  const icon = text(fm.icon)
  if (icon) out.icon = icon
  const cover = text(fm.cover)
  if (cover) out.cover = { src: cover, yPos: typeof fm.coverY === 'number' && Number.isFinite(fm.coverY) ? fm.coverY : 0 }
  for (const key of ['hidden', 'noIndex', 'noRobotsIndex'] as const) {
    const value = flag(fm[key])
    if (value !== undefined) out[key] = value
  }
  if (fm.layout && typeof fm.layout === 'object' && !Array.isArray(fm.layout)) {
    const layout = fm.layout as Record<string, unknown>
    const set: Partial<PageLayout> = {}
    const coverPart = visible(layout.cover)
    if (coverPart !== undefined) set.cover = coverPart
    const size = layout.cover && typeof layout.cover === 'object' ? (layout.cover as Record<string, unknown>).size : undefined
    if (size === 'hero' || size === 'full') set.coverSize = size
    for (const part of [...LAYOUT_PARTS, ...MORE_LAYOUT_PARTS]) {
      const value = visible(layout[part])
      if (value !== undefined) set[part] = value
    }
    if (layout.width === 'default' || layout.width === 'wide') set.width = layout.width
    if (Object.keys(set).length) out.layout = set
  }
  return out
}
