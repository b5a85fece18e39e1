// Completion of link destinations in the page editor: typing `](` (a link or an image) offers the space's pages,
// by the absolute path the server resolves (`/guide/install`), and its files (`/files/<id>`), so links are right
// the first time instead of showing up later as broken in the Links tab. Pure: tested in Node.
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete'

/** The part of a page the completion needs; the API's `Page` fits (its `path` is the slugs from the root). */
export interface LinkablePage {
  id: string
  title: string
  path: string
  type?: string
  pages: LinkablePage[]
}

export interface LinkTarget {
  kind: 'page' | 'file'
  /** What the user knows it by: the page title or the file name. */
  title: string
  /** What the link says. */
  href: string
}

/** Every page (in tree order, groups and links to elsewhere left out) but `exceptPageId`, then every file by name. */
export function linkTargets(pages: LinkablePage[], files: { id: string; name: string }[], exceptPageId?: string): LinkTarget[] {
  const targets: LinkTarget[] = []
  const walk = (list: LinkablePage[]) => {
    for (const page of list) {
      if (page.id !== exceptPageId && page.type !== 'group' && page.type !== 'link') {
        targets.push({ kind: 'page', title: page.title || 'Untitled page', href: `/${page.path}` })
      }
      walk(page.pages)
    }
  }
  walk(pages)
  const byName = [...files].sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }))
  for (const file of byName) targets.push({ kind: 'file', title: file.name, href: `/files/${file.id}` })
  return targets
}

/** The destination being typed after `](`: no spaces or parentheses yet. */
const DESTINATION = /\]\([^\s()]*$/
const DESTINATION_TEXT = /^[^\s()]*$/

/**
 * A CodeMirror completion source for link destinations. Options match by title or by path (the typed text is
 * compared with both) and insert the path; pages rank above files.
 */
export function linkCompletionSource(targets: () => LinkTarget[]): (context: CompletionContext) => CompletionResult | null {
  return (context) => {
    const typed = context.matchBefore(DESTINATION)
    if (!typed) return null
    const options = targets().map<Completion>((t) => ({
      label: `${t.title} ${t.href}`,
      displayLabel: t.title,
      detail: t.href,
      apply: t.href,
      type: t.kind === 'page' ? 'text' : 'variable',
      boost: t.kind === 'page' ? 1 : 0
    }))
    return options.length ? { from: typed.from + 2, options, validFor: DESTINATION_TEXT } : null
  }
}
