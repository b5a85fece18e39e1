// The page settings menu's reading and writing of a page's front matter. Pure: tested in Node. Settings are read
// with the server's rule (src-shared/pageSettings.ts) and written through YAML's document model, so the rest of
// the front matter (other keys, comments, their order) stays as the writer left it.
import { isMap, isScalar, parseDocument, type Document } from 'yaml'
import { frontMatterBlock } from '../../../../src-shared/frontMatter.ts'
import { DEFAULT_LAYOUT, documentSettings, type LayoutPart, type PageLayout } from '../../../../src-shared/pageSettings.ts'

export type PageSetting =
  | { part: LayoutPart | 'cover'; visible: boolean }
  | { coverSize: PageLayout['coverSize'] }
  | { noIndex: boolean }
  | { hidden: boolean }
  /** The line under the title; empty takes it out. */
  | { description: string }
  /** The cover image: a `/files/<id>` link, a Git path or a file name; null takes it out. */
  | { cover: string | null }

export interface EditorPageSettings {
  layout: PageLayout
  noIndex: boolean
  hidden: boolean
  description: string
  /** The cover as the front matter names it, if any. */
  cover: string | undefined
  /** False when the front matter is not a YAML mapping this can edit (the strip above the preview says why). */
  writable: boolean
}

export function readPageSettings(markdown: string): EditorPageSettings {
  const settings = documentSettings(markdown)
  return {
    layout: { ...DEFAULT_LAYOUT, ...settings.layout },
    noIndex: settings.noIndex ?? false,
    hidden: settings.hidden ?? false,
    description: settings.description ?? '',
    cover: settings.cover?.src,
    writable: frontMatterDocument(markdown) !== null
  }
}

/** The front matter as a YAML document (an empty mapping when there is none); null when it cannot be edited. */
function frontMatterDocument(markdown: string): Document | null {
  const block = frontMatterBlock(markdown)
  const doc = parseDocument(block?.source ?? '')
  if (doc.errors.length) return null
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) doc.contents = doc.createNode({}) as never
  return isMap(doc.contents) ? doc : null
}

/**
 * The markdown with one setting changed in its front matter. A setting put back to its default is taken out (and
 * `layout` with it once empty, and the whole block once nothing is left), so a page keeps only what differs.
 * Unchanged when the front matter cannot be edited.
 */
export function withPageSetting(markdown: string, setting: PageSetting): string {
  const doc = frontMatterDocument(markdown)
  if (!doc) return markdown
  // A flag is written only while it differs from its default (false).
  const flag = (key: string, on: boolean) => (on ? doc.set(key, true) : doc.delete(key))
  if ('noIndex' in setting) flag('noIndex', setting.noIndex)
  else if ('hidden' in setting) flag('hidden', setting.hidden)
  else if ('description' in setting) {
    const text = setting.description.trim()
    if (text) doc.set('description', text)
    else doc.delete('description')
  } else if ('cover' in setting) {
    if (setting.cover) doc.set('cover', setting.cover)
    else {
      doc.delete('cover')
      doc.delete('coverY')
    }
  } else if ('coverSize' in setting) {
    if (doc.has('layout') && !isMap(doc.get('layout'))) doc.delete('layout')
    const current = doc.getIn(['layout', 'cover'])
    if (current !== undefined && !isMap(current)) doc.deleteIn(['layout', 'cover'])
    if (setting.coverSize !== DEFAULT_LAYOUT.coverSize) doc.setIn(['layout', 'cover', 'size'], setting.coverSize)
    else if (isMap(current)) {
      current.delete('size')
      if (current.items.length === 0) doc.deleteIn(['layout', 'cover'])
    }
    const layout = doc.get('layout')
    if (isMap(layout) && layout.items.length === 0) doc.delete('layout')
  } else {
    // Anything that is not the Git format's mapping (`layout: wide`, `title: false`) is replaced by it.
    if (doc.has('layout') && !isMap(doc.get('layout'))) doc.delete('layout')
    const current = doc.getIn(['layout', setting.part])
    if (current !== undefined && !isMap(current)) doc.deleteIn(['layout', setting.part])
    if (setting.visible !== DEFAULT_LAYOUT[setting.part]) doc.setIn(['layout', setting.part, 'visible'], setting.visible)
    else if (isMap(current)) {
      current.delete('visible')
      if (current.items.length === 0) doc.deleteIn(['layout', setting.part])
    }
    const layout = doc.get('layout')
    if (isMap(layout) && layout.items.length === 0) doc.delete('layout')
  }
  const block = frontMatterBlock(markdown)
  const body = block ? markdown.slice(block.end) : markdown
  if (isMap(doc.contents) && doc.contents.items.length === 0 && !doc.commentBefore && !doc.comment) {
    // Nothing left: no block, and not the blank line written after it either.
    return block ? body.replace(/^\r?\n/, '') : markdown
  }
  return `---\n${doc.toString()}---\n${block ? '' : '\n'}${body}`
}
