import { posix } from 'node:path'
import type { PageTree } from '../content/pageTree'
import type { FileRecord, PageRecord, ReusableContentRecord } from '../content/revisions'
import { slugify } from '../../src-shared/slug'
import { filesUnder, INCLUDES_DIR, isMarkdown, pageFilesOf, type Layout } from './layout'
import { writeBlob, type TreeFile } from './objects'
import { writeSummary, type SummaryEntry } from './summary'

/**
 * A document as Git shows it: links and images the app writes as `/files/<id>` (and a front matter cover) point
 * at the file's place in the repository, relative to the document, as a Git reader (and the next import) resolves
 * them. Links to files the export does not hold stay as written.
 */
export function linkFilesByPath(markdown: string, documentPath: string, filePaths: ReadonlyMap<string, string>): string {
  if (!filePaths.size || !markdown.includes('/files/')) return markdown
  const from = posix.dirname(documentPath)
  return markdown.replace(/(?<![\w.-])\/files\/([A-Za-z0-9_-]+)(?![\w/-])/g, (all, id: string) => {
    const path = filePaths.get(id)
    return path === undefined ? all : posix.relative(from, path).split('/').map(encodeURIComponent).join('/')
  })
}

/** What an export writes, read from the space in one read transaction. */
export interface SpaceSnapshot {
  tree: PageTree
  /** Markdown by document hash. */
  documents: Map<string, string>
  files: (FileRecord & { bytes: Uint8Array })[]
  reusableContents: (ReusableContentRecord & { markdown: string })[]
}

const SAFE_PATH = /^(?!\/)(?!.*(^|\/)\.\.?(\/|$))[^\0\\]+$/

/** Where each document page's file goes, relative to the docs root: its `git.path` when known, else from its path. */
export function assignPaths(tree: PageTree, layout: Layout): Map<string, string> {
  const index = tree.childrenIndex()
  const taken = new Set<string>([layout.summary.toLowerCase()])
  const paths = new Map<string, string>()
  const claim = (path: string): string => {
    let candidate = path
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = path.replace(/(\/README)?\.md$/i, (m) => `-${n}${m}`)
    taken.add(candidate.toLowerCase())
    return candidate
  }
  // Known paths first, so a new page never takes the file of a page that already has one.
  const known = new Map<string, string>()
  for (const p of tree.pages.values()) {
    const path = p.props.git?.path
    if (p.type === 'document' && path && SAFE_PATH.test(path) && isMarkdown(path) && !taken.has(path.toLowerCase())) {
      taken.add(path.toLowerCase())
      known.set(p.id, path)
    }
  }
  let first = true
  const walk = (parentId: string | null, folder: string) => {
    for (const page of index.get(parentId) ?? []) {
      const hasChildren = !!index.get(page.id)?.length
      // Groups have no file; their children's files sit at the folder level they would have had.
      const own = page.type === 'group' ? folder : posix.join(folder, page.slug || 'page')
      if (page.type === 'document') {
        let path = known.get(page.id)
        if (!path && first && parentId === null && !taken.has(layout.readme.toLowerCase())) path = claim(layout.readme)
        if (!path) path = claim(hasChildren ? `${own}/README.md` : `${own}.md`)
        paths.set(page.id, path)
        first = false
      }
      walk(page.id, page.type === 'group' ? folder : own)
    }
  }
  walk(null, '')
  return paths
}

/** The SUMMARY.md entries of the page tree, with links relative to the summary file's folder. */
export function summaryEntries(tree: PageTree, paths: Map<string, string>, layout: Layout): SummaryEntry[] {
  const index = tree.childrenIndex()
  const base = posix.dirname(layout.summary)
  const rel = (path: string) => (base === '.' ? path : posix.relative(base, path))
  const build = (parentId: string | null): SummaryEntry[] =>
    (index.get(parentId) ?? []).map((page: PageRecord) => {
      const entry: SummaryEntry = { title: page.title, children: build(page.id) }
      if (page.type === 'group' && parentId === null) entry.group = true
      else if (page.type === 'link') entry.href = page.props.href ?? ''
      else if (paths.has(page.id)) entry.target = rel(paths.get(page.id)!)
      return entry
    })
  return build(null)
}

const encoder = new TextEncoder()

/**
 * The repository tree after an export: the branch's files, minus the markdown files its page tree used
 * (so deleted pages go), plus one markdown file per document page, SUMMARY.md, the space's files under
 * `.gitbook/assets/` (or their `git.path`), and `.gitbook.yaml` when the project has none. Files outside the
 * page tree (code, other folders, the config) stay as they were.
 */
export async function exportTree(
  gitdir: string,
  current: Map<string, TreeFile>,
  layout: Layout,
  currentTexts: Map<string, string>,
  space: SpaceSnapshot
): Promise<Map<string, TreeFile>> {
  const under = filesUnder(current, layout.root)
  const prefix = (rel: string) => (layout.root ? `${layout.root}/${rel}` : rel)
  const next = new Map(current)
  for (const rel of pageFilesOf(layout, { files: under, texts: currentTexts })) next.delete(prefix(rel))

  const put = async (rel: string, bytes: Uint8Array) => {
    const full = prefix(rel)
    const oid = await writeBlob(gitdir, bytes)
    next.set(full, { oid, mode: current.get(full)?.mode === '100755' ? '100755' : '100644' })
  }
  const paths = assignPaths(space.tree, layout)
  // Where files and reusable contents go first (the pages' paths and what the repository keeps are taken), so
  // the documents can link them there.
  const taken = new Set([...next.keys(), ...[...paths.values(), layout.summary].map(prefix)].map((k) => k.toLowerCase()))
  const claim = (rel: string) => (taken.add(prefix(rel).toLowerCase()), rel)
  const free = (rel: string) => !taken.has(prefix(rel).toLowerCase())
  const contentPaths = space.reusableContents.map((content) => {
    const known = content.git?.path && SAFE_PATH.test(content.git.path) ? content.git.path : undefined
    const stem = `${INCLUDES_DIR}/${slugify(content.title) || 'content'}`
    let rel = known ?? `${stem}.md`
    for (let n = 2; !known && !free(rel); n++) rel = `${stem}-${n}.md`
    return claim(rel)
  })
  // A file uploaded in the app goes to `.gitbook/assets/<name>`, numbered when that place holds something else;
  // the same bytes there (an earlier export) are the same file, so exporting again changes nothing.
  const filePaths = new Map<string, string>()
  for (const file of space.files) {
    const known = file.git?.path && SAFE_PATH.test(file.git.path) ? file.git.path : undefined
    let rel = known ?? `.gitbook/assets/${file.name.replace(/[/\\]/g, '_')}`
    if (!known) {
      const oid = await writeBlob(gitdir, file.bytes)
      const ext = posix.extname(rel)
      const stem = rel.slice(0, rel.length - ext.length)
      for (let n = 2; !free(rel) && current.get(prefix(rel))?.oid !== oid; n++) rel = `${stem}-${n}${ext}`
    }
    filePaths.set(file.id, claim(rel))
  }

  for (const [pageId, rel] of paths) {
    const page = space.tree.get(pageId)!
    const markdown = page.documentHash ? (space.documents.get(page.documentHash) ?? '') : ''
    await put(rel, encoder.encode(linkFilesByPath(markdown, rel, filePaths)))
  }
  await put(layout.summary, encoder.encode(writeSummary(summaryEntries(space.tree, paths, layout))))
  for (const [i, content] of space.reusableContents.entries()) {
    await put(contentPaths[i]!, encoder.encode(linkFilesByPath(content.markdown, contentPaths[i]!, filePaths)))
  }
  for (const file of space.files) await put(filePaths.get(file.id)!, file.bytes)
  if (!layout.hasConfig) {
    const root = layout.root === layout.project ? './' : `./${posix.relative(layout.project, layout.root)}/`
    const config = `root: ${root}\n\nstructure:\n  readme: ${layout.readme}\n  summary: ${layout.summary}\n`
    next.set(layout.configPath, { oid: await writeBlob(gitdir, encoder.encode(config)), mode: '100644' })
  }
  return next
}
