import { posix } from 'node:path'
import { documentSettings, DEFAULT_LAYOUT, type PageLayout } from '../../src-shared/pageSettings'
import type { FileRecord, PageProps, PageRecord } from './revisions'

// Page settings live in the document's front matter (src-shared/pageSettings.ts reads them); here they are kept
// on the page, so listing a tree reads no documents, and its cover is found among the revision's files.

/** The props a document owns: replaced whenever the page gets a new document. */
const DOCUMENT_PROPS = ['icon', 'layout', 'cover', 'noIndex', 'noRobotsIndex'] as const satisfies readonly (keyof PageProps)[]

/**
 * Gives a page the settings of its new document. The props a document owns are replaced by what its front matter
 * says (a setting taken out of the front matter goes back to its default). The page's own `description` and
 * `hidden` follow the front matter only where it sets them (they are also set directly, by the content batch),
 * so a caller applying explicit values does so after this.
 */
export function applyDocumentSettings(page: PageRecord, markdown: string): void {
  const settings = documentSettings(markdown)
  const props: PageProps = { ...page.props }
  for (const key of DOCUMENT_PROPS) delete props[key]
  if (settings.icon) props.icon = settings.icon
  if (settings.layout) props.layout = settings.layout
  if (settings.cover) props.cover = settings.cover
  if (settings.noIndex !== undefined) props.noIndex = settings.noIndex
  if (settings.noRobotsIndex !== undefined) props.noRobotsIndex = settings.noRobotsIndex
  page.props = props
  if (settings.description) page.description = settings.description
  if (settings.hidden !== undefined) page.hidden = settings.hidden
}

/** A page's layout: the defaults with what its front matter sets. */
export function layoutOf(page: PageRecord): Readonly<PageLayout> {
  // Most pages set nothing: they share the one frozen default rather than each get a copy (a 10,000-page tree).
  const set = page.props.layout as Partial<PageLayout> | undefined
  return set ? { ...DEFAULT_LAYOUT, ...set } : DEFAULT_LAYOUT
}

/**
 * Finds the file a cover names among a revision's files: a `/files/<id>` link (as the app writes them), else a
 * path relative to the page's file in Git (or from the docs root when it starts with `/`), else a file name.
 * Undefined when no file matches (the page then has no cover until one does).
 */
export function coverFile(src: string, files: readonly FileRecord[], pageGitPath?: string): FileRecord | undefined {
  const byId = /(?:^|\/)files\/([^/?#]+)/.exec(src)
  if (byId) {
    const found = files.find((f) => f.id === byId[1])
    if (found) return found
  }
  let target = src.split('#', 1)[0]!.split('?', 1)[0]!
  try {
    target = decodeURIComponent(target)
  } catch {
    // keep it as written
  }
  const fromRoot = target.startsWith('/')
  const path = posix.normalize(fromRoot || !pageGitPath ? target.replace(/^\/+/, '') : posix.join(posix.dirname(pageGitPath), target))
  return files.find((f) => f.git?.path === path) ?? files.find((f) => f.name === posix.basename(target))
}
