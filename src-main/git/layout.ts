import { posix } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { linksOf, titleOf } from '../content/markdown'
import { documentSettings } from '../../src-shared/pageSettings'
import type { TreeFile } from './objects'
import { parseSummary, type SummaryEntry } from './summary'

/**
 * The repository layout of the hosted service's Git sync: an optional `.gitbook.yaml` in the project folder
 * names `root` (the docs folder) and `structure.readme` / `structure.summary` (relative to root). README.md is
 * the first page; SUMMARY.md, when present, gives the page tree; without it the folders do.
 */
export interface Layout {
  /** The project folder inside the repository (`repoProjectDirectory`), '' for the repository root. */
  project: string
  /** The docs folder, a repository path ('' for the root); page `git.path`s are relative to it. */
  root: string
  readme: string
  summary: string
  /** Path of the config file, and whether the repository has it. */
  configPath: string
  hasConfig: boolean
}

export const CONFIG_FILE = '.gitbook.yaml'
const DEFAULT_README = 'README.md'
const DEFAULT_SUMMARY = 'SUMMARY.md'

export class LayoutError extends Error {}

/** A repository-relative folder with `./`, `/` and empty parts removed; refuses `..`. */
export function cleanFolder(path: string | undefined, what: string): string {
  const parts = (path ?? '')
    .replace(/\\/g, '/')
    .split('/')
    .filter((p) => p && p !== '.')
  if (parts.includes('..')) throw new LayoutError(`${what}: must stay inside the repository`)
  return parts.join('/')
}

const join = (...parts: string[]) => parts.filter(Boolean).join('/')

/** Reads `.gitbook.yaml` (when present) from the project folder. */
export function readLayout(project: string, configText: string | undefined): Layout {
  const configPath = join(project, CONFIG_FILE)
  let config: Record<string, unknown> = {}
  if (configText !== undefined) {
    try {
      const parsed = parseYaml(configText)
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) config = parsed as Record<string, unknown>
    } catch {
      throw new LayoutError(`${CONFIG_FILE} is not valid YAML`)
    }
  }
  const structure = (config.structure && typeof config.structure === 'object' ? config.structure : {}) as Record<string, unknown>
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined)
  return {
    project,
    root: join(project, cleanFolder(str(config.root), `${CONFIG_FILE} root`)),
    readme: cleanFolder(str(structure.readme), `${CONFIG_FILE} structure.readme`) || DEFAULT_README,
    summary: cleanFolder(str(structure.summary), `${CONFIG_FILE} structure.summary`) || DEFAULT_SUMMARY,
    configPath,
    hasConfig: configText !== undefined
  }
}

export const isMarkdown = (path: string) => /\.md$/i.test(path)
const isHidden = (relPath: string) => relPath.split('/').some((p) => p.startsWith('.'))

/** One page read from the repository, before it becomes a PageRecord. */
export interface ImportedNode {
  type: 'document' | 'group' | 'link'
  title: string
  slug: string
  /** Path relative to the docs root (documents with a file). */
  path?: string
  oid?: string
  markdown?: string
  href?: string
  children: ImportedNode[]
}

export interface RepoFiles {
  /** Files under the docs root, keyed by path relative to it. */
  files: Map<string, TreeFile>
  /** Text of the markdown files under the docs root, by relative path. */
  texts: Map<string, string>
}

/** The files of a repository tree that lie under the docs root, by path relative to it. */
export function filesUnder(all: Map<string, TreeFile>, root: string): Map<string, TreeFile> {
  const out = new Map<string, TreeFile>()
  const prefix = root ? `${root}/` : ''
  for (const [path, file] of all) if (path.startsWith(prefix)) out.set(path.slice(prefix.length), file)
  return out
}

function humanize(name: string): string {
  const words = name.replace(/\.md$/i, '').replace(/[-_]+/g, ' ').trim()
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Untitled'
}

const slugSource = (path: string) => {
  const base = posix.basename(path).replace(/\.md$/i, '')
  return /^readme$/i.test(base) ? posix.basename(posix.dirname(path)) : base
}

/**
 * The markdown files the page tree uses (SUMMARY targets, or every markdown file without one), so an export
 * knows which files it replaces. Paths are relative to the docs root.
 */
export function pageFilesOf(layout: Layout, repo: RepoFiles): Set<string> {
  const used = new Set<string>()
  const summary = repo.texts.get(layout.summary)
  if (summary === undefined) {
    for (const path of repo.files.keys()) if (isMarkdown(path) && !isHidden(path)) used.add(path)
    return used
  }
  used.add(layout.summary)
  if (repo.files.has(layout.readme)) used.add(layout.readme)
  const base = posix.dirname(layout.summary)
  const visit = (entries: SummaryEntry[]) => {
    for (const e of entries) {
      if (e.target) used.add(posix.normalize(posix.join(base === '.' ? '' : base, e.target)))
      visit(e.children)
    }
  }
  visit(parseSummary(summary))
  return used
}

function documentNode(path: string, repo: RepoFiles, title?: string): ImportedNode {
  const markdown = repo.texts.get(path) ?? ''
  return {
    type: 'document',
    title:
      title ||
      titleOf(markdown) ||
      (/^readme\.md$/i.test(posix.basename(path)) && !path.includes('/') ? 'Introduction' : humanize(slugSource(path))),
    slug: slugSource(path),
    path,
    oid: repo.files.get(path)?.oid,
    markdown,
    children: []
  }
}

import { INCLUDES_DIR } from '../content/reusableContents'
export { INCLUDES_DIR }

/** A reusable content read from the repository. */
export interface ImportedReusable {
  /** Relative to the docs root. */
  path: string
  oid: string
  title: string
  markdown: string
}

/** The repository's reusable contents: the markdown files under INCLUDES_DIR, titled as pages are (front matter, heading, name). */
export function reusableContentsOf(repo: RepoFiles): ImportedReusable[] {
  return [...repo.texts]
    .filter(([path]) => path.startsWith(`${INCLUDES_DIR}/`))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, markdown]) => ({
      path,
      oid: repo.files.get(path)!.oid,
      title: titleOf(markdown) ?? humanize(posix.basename(path)),
      markdown
    }))
}

/** The page tree of a repository: from SUMMARY.md when present, else from its folders. */
export function pagesOf(layout: Layout, repo: RepoFiles): ImportedNode[] {
  const summary = repo.texts.get(layout.summary)
  return summary === undefined ? pagesFromFolders(layout, repo) : pagesFromSummary(layout, repo, summary)
}

function pagesFromSummary(layout: Layout, repo: RepoFiles, summary: string): ImportedNode[] {
  const base = posix.dirname(layout.summary)
  const resolve = (target: string) => posix.normalize(posix.join(base === '.' ? '' : base, target))
  const referenced = new Set<string>()
  const convert = (e: SummaryEntry): ImportedNode | undefined => {
    const children = e.children.map(convert).filter((n): n is ImportedNode => !!n)
    if (e.group) return { type: 'group', title: e.title || 'Group', slug: e.title, children }
    if (e.href) return { type: 'link', title: e.title || e.href, slug: e.title, href: e.href, children }
    if (e.target) {
      const path = resolve(e.target)
      if (path.startsWith('..')) return undefined
      referenced.add(path)
      // A SUMMARY entry whose file is missing is still a page (empty), as the hosted service shows it.
      return { ...documentNode(path, repo, e.title), children }
    }
    return { type: 'document', title: e.title || 'Untitled', slug: e.title, markdown: '', children }
  }
  const pages = parseSummary(summary)
    .map(convert)
    .filter((n): n is ImportedNode => !!n)
  if (repo.files.has(layout.readme) && !referenced.has(layout.readme)) pages.unshift(documentNode(layout.readme, repo))
  return pages
}

function pagesFromFolders(layout: Layout, repo: RepoFiles): ImportedNode[] {
  const pages = [...repo.files.keys()].filter((p) => isMarkdown(p) && !isHidden(p)).sort()
  const visit = (folder: string): ImportedNode[] => {
    const prefix = folder ? `${folder}/` : ''
    const here = pages.filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/'))
    const subfolders = [
      ...new Set(
        pages
          .filter((p) => p.startsWith(prefix) && p.slice(prefix.length).includes('/'))
          .map((p) => prefix + p.slice(prefix.length).split('/', 1)[0])
      )
    ]
    const nodes: ImportedNode[] = []
    for (const path of here) {
      if (folder && /^readme\.md$/i.test(posix.basename(path))) continue
      if (!folder && path === layout.readme) continue
      nodes.push(documentNode(path, repo))
    }
    for (const sub of subfolders) {
      const readme = pages.find((p) => p.toLowerCase() === `${sub}/readme.md`.toLowerCase())
      const node = readme
        ? documentNode(readme, repo)
        : { type: 'document' as const, title: humanize(posix.basename(sub)), slug: posix.basename(sub), markdown: '', children: [] }
      node.children = visit(sub)
      nodes.push(node)
    }
    return nodes.sort((a, b) => (a.path ?? a.slug).localeCompare(b.path ?? b.slug))
  }
  const tree = visit('')
  if (repo.files.has(layout.readme)) tree.unshift(documentNode(layout.readme, repo))
  return tree
}

/**
 * Repository files the imported pages (and reusable contents) show as images (relative paths), by path relative
 * to the docs root.
 */
export function referencedAssets(nodes: ImportedNode[], repo: RepoFiles, reusables: ImportedReusable[] = []): Set<string> {
  const found = new Set<string>()
  const visit = (list: ImportedNode[]) => {
    for (const node of list) {
      if (node.path && node.markdown) {
        // Images, and the cover the front matter names (pageSettings.ts).
        const images = linksOf(node.markdown)
          .filter((link) => link.relation === 'image')
          .map((link) => link.url)
        const cover = documentSettings(node.markdown).cover
        if (cover) images.push(cover.src)
        for (const url of images) {
          if (EXTERNAL_URL.test(url) || url.startsWith('#')) continue
          let target = url.split('#', 1)[0]!.split('?', 1)[0]!
          try {
            target = decodeURIComponent(target)
          } catch {
            // keep as written
          }
          const path = target.startsWith('/')
            ? posix.normalize(target.slice(1))
            : posix.normalize(posix.join(posix.dirname(node.path), target))
          if (!path.startsWith('..') && repo.files.has(path) && !isMarkdown(path)) found.add(path)
        }
      }
      visit(node.children)
    }
  }
  visit(nodes)
  visit(reusables.map((r) => ({ type: 'document', title: r.title, slug: '', path: r.path, markdown: r.markdown, children: [] })))
  return found
}

const EXTERNAL_URL = /^[a-z][a-z0-9+.-]*:/i
