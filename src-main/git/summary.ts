import type { Heading, List, ListItem, Link, Paragraph, RootContent } from 'mdast'
import { toString } from 'mdast-util-to-string'
import { parseMarkdown } from '../content/markdown'

/**
 * One entry of a SUMMARY.md table of contents: a link to a page file (`target`), an external link (`href`), a
 * heading that groups the entries under it (`group`), or plain text (a page with no file).
 */
export interface SummaryEntry {
  title: string
  /** The link as written (relative to SUMMARY.md's folder), without its `#fragment`, percent-decoded. */
  target?: string
  /** An absolute URL: a `link` page. */
  href?: string
  group?: boolean
  children: SummaryEntry[]
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i

function decodePath(url: string): string {
  const bare = url.split('#', 1)[0]!.split('?', 1)[0]!
  try {
    return decodeURIComponent(bare)
  } catch {
    return bare
  }
}

function entryOf(item: ListItem): SummaryEntry {
  const paragraph = item.children.find((c): c is Paragraph => c.type === 'paragraph')
  const link = paragraph?.children.find((c): c is Link => c.type === 'link')
  const entry: SummaryEntry = { title: (link ? toString(link) : paragraph ? toString(paragraph) : '').trim(), children: [] }
  if (link && EXTERNAL.test(link.url)) entry.href = link.url
  else if (link && decodePath(link.url)) entry.target = decodePath(link.url)
  for (const child of item.children) if (child.type === 'list') entry.children.push(...entriesOf(child))
  return entry
}

const entriesOf = (list: List): SummaryEntry[] => list.children.map(entryOf).filter((e) => e.title || e.target || e.children.length)

/**
 * Reads the nested lists of a SUMMARY.md. The first level-1 heading is the file's own title ("Table of
 * contents") and is skipped; every other heading starts a group holding the lists that follow it.
 */
export function parseSummary(markdown: string): SummaryEntry[] {
  const root: SummaryEntry[] = []
  let group: SummaryEntry | undefined
  let skippedTitle = false
  for (const node of parseMarkdown(markdown).children as RootContent[]) {
    if (node.type === 'heading') {
      if ((node as Heading).depth === 1 && !skippedTitle && !root.length) {
        skippedTitle = true
        continue
      }
      group = { title: toString(node).trim(), group: true, children: [] }
      root.push(group)
    } else if (node.type === 'list') {
      ;(group ? group.children : root).push(...entriesOf(node))
    }
  }
  return root
}

/** Link text with every markdown punctuation escaped, so the title reads back exactly. */
function escapeText(text: string): string {
  return text.replace(/[\\`*_[\]<>!|~&#()]/g, (c) => `\\${c}`).replace(/\s+/g, ' ')
}

/** A relative path as a link destination: each segment percent-encoded (spaces, parentheses, `#`). */
function encodePath(path: string): string {
  return path
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/')
}

/** Writes entries back as SUMMARY.md: root entries first, then one `## heading` per group. */
export function writeSummary(entries: SummaryEntry[]): string {
  const lines = ['# Table of contents', '']
  const item = (e: SummaryEntry, depth: number) => {
    const indent = '  '.repeat(depth)
    const title = escapeText(e.title || 'Untitled')
    if (e.href) lines.push(`${indent}* [${title}](<${e.href.replace(/[<>\s]/g, encodeURIComponent)}>)`)
    else if (e.target) lines.push(`${indent}* [${title}](${encodePath(e.target)})`)
    else lines.push(`${indent}* ${title}`)
    for (const child of e.children) item(child, depth + 1)
  }
  let inGroup = false
  for (const e of entries) {
    if (e.group) {
      if (lines[lines.length - 1] !== '') lines.push('')
      lines.push(`## ${escapeText(e.title || 'Group')}`, '')
      inGroup = true
      for (const child of e.children) item(child, 0)
    } else {
      // An entry after a group would read back as part of it; SUMMARY.md has no way to close a group.
      if (inGroup && lines[lines.length - 1] !== '') lines.push('')
      item(e, 0)
    }
  }
  return `${lines.join('\n').replace(/\n+$/, '')}\n`
}
