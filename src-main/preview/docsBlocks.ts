import type { Element, ElementContent, Root as HastRoot } from 'hast'
import { headingIds } from '../../src-shared/slug'

/** A heading of the page in the preview's outline ("On this page"). */
export interface OutlineEntry {
  id: string
  text: string
  depth: number
}

const HEADING = /^h([1-6])$/

const textOf = (node: ElementContent): string =>
  node.type === 'text' ? node.value : node.type === 'element' ? node.children.map(textOf).join('') : ''
const classes = (node: Element): string[] => {
  const value = node.properties.className
  return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? (value as string).split(' ') : []
}
const el = (tagName: string, properties: Element['properties'], children: ElementContent[]): Element => ({
  type: 'element',
  tagName,
  properties,
  children
})
const txt = (value: string): ElementContent => ({ type: 'text', value })

/**
 * Gives the page's top-level headings their section ids (as search results and the editor's preview name them,
 * src-shared/slug.ts) and returns them as the outline.
 */
function outline(tree: HastRoot): OutlineEntry[] {
  const idOf = headingIds()
  const entries: OutlineEntry[] = []
  for (const node of tree.children) {
    if (node.type !== 'element') continue
    const depth = HEADING.exec(node.tagName)?.[1]
    if (!depth) continue
    const text = textOf(node)
    const id = idOf(text)
    node.properties.id = id
    entries.push({ id, text, depth: Number(depth) })
  }
  return entries
}

/**
 * Tabs as a tab list: a button per tab (its title) above panels of which the first shows. The preview's script
 * (preview/assets.ts) switches them; without it the first tab still reads.
 */
function tabs(node: Element, n: number): void {
  const panels = node.children.filter((c): c is Element => c.type === 'element' && classes(c).includes('gb-tab'))
  if (!panels.length) return
  const buttons = panels.map((panel, i) => {
    const title = panel.children.find((c): c is Element => c.type === 'element' && classes(c).includes('gb-title'))
    if (title) panel.children.splice(panel.children.indexOf(title), 1)
    const id = `tabs-${n}-${i}`
    Object.assign(panel.properties, { id: `${id}-panel`, role: 'tabpanel', ariaLabelledBy: [id], hidden: i > 0 })
    const label = (title && textOf(title).trim()) || `Tab ${i + 1}`
    return el(
      'button',
      {
        type: 'button',
        role: 'tab',
        id,
        ariaControls: [`${id}-panel`],
        ariaSelected: i === 0 ? 'true' : 'false',
        tabIndex: i === 0 ? 0 : -1
      },
      [txt(label)]
    )
  })
  node.properties.className = [...classes(node), 'docs-tabs']
  node.children = [el('div', { role: 'tablist', className: ['docs-tablist'] }, buttons), ...panels]
}

/**
 * A code block with its title (a `{% code title=… %}` tag's) or language named above it and a Copy button (the
 * script copies the text).
 */
function codeBlock(pre: Element, title?: string): Element {
  const code = pre.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code')
  const language =
    code &&
    classes(code)
      .find((c) => c.startsWith('language-'))
      ?.slice('language-'.length)
  const bar = el('div', { className: ['docs-code-bar'] }, [
    el('span', { className: ['docs-code-language'] }, [txt(title || language || 'text')]),
    el('button', { type: 'button', className: ['docs-copy'], ariaLabel: 'Copy code' }, [txt('Copy')])
  ])
  return el('div', { className: ['docs-code'] }, [bar, pre])
}

/** Walks the sanitized page once: tab lists and code blocks as a docs site shows them. */
function blocks(parent: HastRoot | Element, counter: { tabs: number }): void {
  parent.children.forEach((child, i) => {
    if (child.type !== 'element') return
    if (child.tagName === 'pre') {
      parent.children[i] = codeBlock(child)
      return
    }
    if (child.tagName === 'div' && classes(child).includes('gb-code')) {
      // The tag's title goes into the code block's bar.
      const title = child.children.find((c): c is Element => c.type === 'element' && classes(c).includes('gb-title'))
      const pre = child.children.find((c): c is Element => c.type === 'element' && c.tagName === 'pre')
      if (title && pre) {
        child.children = child.children.filter((c) => c !== title).map((c) => (c === pre ? codeBlock(pre, textOf(title).trim()) : c))
        return
      }
    }
    blocks(child, counter)
    if (child.tagName === 'div' && classes(child).includes('gb-tabs')) tabs(child, counter.tabs++)
  })
}

/**
 * The rehype step after the sanitizer (so what it adds is its own, never the page's): outline, tabs, code. A
 * first heading that repeats the page's title (as imported pages often begin) is dropped: the page shows its title.
 */
export function docsBlocks(tree: HastRoot, title?: string): OutlineEntry[] {
  const first = tree.children.find((c) => c.type === 'element' || (c.type === 'text' && c.value.trim()))
  if (title && first?.type === 'element' && first.tagName === 'h1' && textOf(first).trim() === title.trim())
    tree.children.splice(tree.children.indexOf(first), 1)
  const entries = outline(tree)
  blocks(tree, { tabs: 0 })
  return entries
}
