import { decodeLinkPath, linkedFileName, pagePathCandidates } from '../../src-shared/pagePaths'
import type { Db } from '../storage/database'
import { documentLinks } from './documents'
import { linksOf, type FoundLink } from './markdown'
import { coverFile } from './pageSettings'
import { PageTree } from './pageTree'
import { loadFiles, loadPages, type FileRecord } from './revisions'

/**
 * Links of a revision, resolved against that revision. A document's row holds every link and image of it
 * as written (parsed once, when the document was stored); here each one is resolved from the page that
 * holds it:
 * - `#anchor`: a place in the same page, not listed;
 * - `http(s)://…`, `mailto:`, `//host/…`: a URL, `ok` (not fetched), or `in-app` when it points at this server;
 * - `/files/<fileId>`: a file of the revision;
 * - `/pages/<pageId>`: a page of the revision by id;
 * - any other path: a page by its path, absolute (`/guide/install`) or relative (`./install`,
 *   `../guide/install.md`): `.md` and a trailing `README`/`index` are dropped, as in a Git layout. A relative
 *   link resolves from the folder the page lives in (its parent's path), and, failing that, from the page's own
 *   path (a page with children is a folder's README in Git);
 * - a path ending in a file extension other than `.md`: a file of the revision with that name.
 * A page or file missing from the revision is `broken`. A file a page's front matter makes its cover is one of
 * the page's backlinks too, though no link of its text.
 */

export type LinkStatus = 'ok' | 'broken' | 'in-app'

export type LinkTarget =
  { kind: 'page'; page?: string; path?: string } | { kind: 'file'; file?: string; name?: string } | { kind: 'url'; url: string }

export interface ResolvedLink {
  pageId: string
  /** Path of the page holding the link (the list's sort key). */
  pagePath: string
  /** Position of the link in its document (first occurrence when the page repeats it). */
  position: number
  relation: 'link' | 'image'
  /** The link as written in the markdown. */
  href: string
  status: LinkStatus
  target: LinkTarget
}

export interface RevisionLinks {
  /** Every link, in (page path, page id, position) order; one per page, relation and href. */
  all: ResolvedLink[]
  /** Links of each page, in position order. */
  byPage: Map<string, ResolvedLink[]>
  /** Pages linking each file, in (page path, page id) order. */
  fileBacklinks: Map<string, { pageId: string; pagePath: string }[]>
  /** `all` filtered by status, made on first use. */
  byStatus: Map<LinkStatus, ResolvedLink[]>
  /** Totals of `all`. */
  stats: LinkStats
}

/** The links of a revision with the given status (all of them without one), kept with the revision's links. */
export function linksWithStatus(links: RevisionLinks, status: LinkStatus | undefined): ResolvedLink[] {
  if (!status) return links.all
  let list = links.byStatus.get(status)
  if (!list) links.byStatus.set(status, (list = links.all.filter((l) => l.status === status)))
  return list
}

interface Resolver {
  pathsById: Map<string, string>
  idsByPath: Map<string, string>
  hasChildren: Set<string>
  fileIds: Set<string>
  filesByName: Map<string, string>
  /** Origins that make a URL `in-app` (this server's base URL). */
  appOrigins: string[]
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i

export function resolveLink(r: Resolver, fromPageId: string, href: string): { status: LinkStatus; target: LinkTarget } | undefined {
  const link = href.trim()
  if (!link || link.startsWith('#')) return undefined
  if (link.startsWith('//') || SCHEME.test(link)) {
    const inApp = r.appOrigins.some((o) => link === o || link.startsWith(`${o}/`) || link.startsWith(`${o}#`) || link.startsWith(`${o}?`))
    return { status: inApp ? 'in-app' : 'ok', target: { kind: 'url', url: link } }
  }
  const path = decodeLinkPath(link.split(/[?#]/, 1)[0]!)
  const segments = path.split('/')
  const absolute = path.startsWith('/')
  if (absolute && segments[1] === 'files' && segments[2]) {
    const file = segments[2]
    return { status: r.fileIds.has(file) ? 'ok' : 'broken', target: { kind: 'file', file } }
  }
  if (absolute && segments[1] === 'pages' && segments[2] && segments.length === 3 && r.pathsById.has(segments[2])) {
    return { status: 'ok', target: { kind: 'page', page: segments[2] } }
  }
  const name = linkedFileName(path)
  if (name) {
    const file = r.filesByName.get(name)
    return file ? { status: 'ok', target: { kind: 'file', file } } : { status: 'broken', target: { kind: 'file', name } }
  }
  const candidates = pagePathCandidates(path, r.pathsById.get(fromPageId) ?? '', r.hasChildren.has(fromPageId))
  for (const candidate of candidates) {
    const page = r.idsByPath.get(candidate)
    if (page) return { status: 'ok', target: { kind: 'page', page } }
  }
  const first = candidates[0]
  if (absolute && segments[1] === 'pages' && segments[2] && segments.length === 3) {
    return { status: 'broken', target: { kind: 'page', page: segments[2] } }
  }
  return { status: 'broken', target: { kind: 'page', path: first ?? path } }
}

/** Resolved links of recent revisions. Revisions never change, so an entry stays true for as long as it is kept. */
const resolved = new WeakMap<Db, Map<string, RevisionLinks>>()
const KEPT_REVISIONS = 8

/** The links of a revision, resolved (computed once per revision and kept for the most recent ones). */
export function revisionLinks(db: Db, revisionId: string, appOrigin: string): RevisionLinks {
  let cache = resolved.get(db)
  if (!cache) resolved.set(db, (cache = new Map()))
  const key = `${revisionId} ${appOrigin}`
  const hit = cache.get(key)
  if (hit) {
    cache.delete(key)
    cache.set(key, hit)
    return hit
  }
  const value = computeLinks(db, revisionId, appOrigin)
  cache.set(key, value)
  if (cache.size > KEPT_REVISIONS) cache.delete(cache.keys().next().value!)
  return value
}

function computeLinks(db: Db, revisionId: string, appOrigin: string): RevisionLinks {
  return contentLinks(db, PageTree.readOnly(loadPages(db, revisionId)), loadFiles(db, revisionId), appOrigin)
}

/**
 * The links of content that may be no revision (what a merge would make): its pages and files, resolved against
 * each other. `unstored` holds the text of documents the tree names that were never stored, by hash.
 */
export function contentLinks(
  db: Db,
  tree: PageTree,
  files: FileRecord[],
  appOrigin: string,
  unstored?: ReadonlyMap<string, string>
): RevisionLinks {
  const pathsById = tree.paths()
  const hasChildren = new Set<string>()
  for (const p of tree.pages.values()) if (p.parentId) hasChildren.add(p.parentId)
  const resolver: Resolver = {
    pathsById,
    idsByPath: new Map([...pathsById].map(([id, path]) => [path, id])),
    hasChildren,
    fileIds: new Set(files.map((f) => f.id)),
    filesByName: new Map(files.map((f) => [f.name, f.id])),
    appOrigins: [appOrigin.replace(/\/+$/, '')]
  }
  // Links by document, in position order; pages are then taken in path order (the lists' order).
  const rowsByDocument = documentLinks(
    db,
    [...tree.pages.values()].map((p) => p.documentHash)
  )
  for (const [hash, text] of unstored ?? []) rowsByDocument.set(hash, linksOf(text))
  const rowsByPage = new Map<string, FoundLink[]>()
  for (const p of tree.pages.values()) {
    const rows = p.documentHash ? rowsByDocument.get(p.documentHash) : undefined
    if (rows) rowsByPage.set(p.id, rows)
  }
  const pageOrder = [...rowsByPage.keys()]
    .map((id) => ({ id, path: pathsById.get(id) ?? '' }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const all: ResolvedLink[] = []
  const byPage = new Map<string, ResolvedLink[]>()
  const fileBacklinks = new Map<string, { pageId: string; pagePath: string }[]>()
  for (const { id: pageId, path: pagePath } of pageOrder) {
    const seen = new Set<string>()
    const links: ResolvedLink[] = []
    for (const [position, row] of rowsByPage.get(pageId)!.entries()) {
      const key = `${row.relation} ${row.url}`
      if (seen.has(key)) continue
      seen.add(key)
      const found = resolveLink(resolver, pageId, row.url)
      if (!found) continue
      const link: ResolvedLink = { pageId, pagePath, position, relation: row.relation, href: row.url, ...found }
      links.push(link)
      all.push(link)
      if (link.target.kind === 'file' && link.target.file && link.status === 'ok') {
        const pages = fileBacklinks.get(link.target.file) ?? []
        if (pages.at(-1)?.pageId !== pageId) pages.push({ pageId, pagePath })
        fileBacklinks.set(link.target.file, pages)
      }
    }
    if (links.length) byPage.set(pageId, links)
  }
  // A page whose front matter makes a file its cover uses that file too (it is no link of the text).
  const covered = new Set<string>()
  for (const page of tree.pages.values()) {
    const file = page.props.cover && coverFile(page.props.cover.src, files, page.props.git?.path)
    if (!file) continue
    const pages = fileBacklinks.get(file.id) ?? []
    if (pages.some((p) => p.pageId === page.id)) continue
    pages.push({ pageId: page.id, pagePath: pathsById.get(page.id) ?? '' })
    fileBacklinks.set(file.id, pages)
    covered.add(file.id)
  }
  for (const id of covered) fileBacklinks.get(id)!.sort((a, b) => compareKeys([a.pagePath, a.pageId], [b.pagePath, b.pageId]))
  return { all, byPage, fileBacklinks, byStatus: new Map(), stats: linkStats(all) }
}

/** The links lists' order: page path, page id, position. */
export function linkKey(link: ResolvedLink): [string, string, number] {
  return [link.pagePath, link.pageId, link.position]
}

export function compareKeys(a: readonly (string | number)[], b: readonly (string | number)[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!
    const y = b[i]!
    if (x < y) return -1
    if (x > y) return 1
  }
  return a.length - b.length
}

/** Index of the first item ranking after `key` in a list sorted by `keyOf` (binary search). */
export function firstAfter<T>(list: T[], keyOf: (item: T) => (string | number)[], key: (string | number)[] | undefined): number {
  if (!key) return 0
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (compareKeys(keyOf(list[mid]!), key) <= 0) lo = mid + 1
    else hi = mid
  }
  return lo
}

export interface LinkStats {
  total: number
  broken: { total: number; changeRequest: number }
}

/**
 * Totals of a set of links. `introduced`: of the broken ones, how many a change request added (broken in its head
 * and not broken, on the same page, in the revision it is based on); 0 on primary content.
 */
export function linkStats(links: ResolvedLink[], base?: RevisionLinks): LinkStats {
  let broken = 0
  let introduced = 0
  for (const link of links) {
    if (link.status !== 'broken') continue
    broken++
    if (base && brokenAnew(link, base)) introduced++
  }
  return { total: links.length, broken: { total: broken, changeRequest: introduced } }
}

/** A broken link that `before` does not have broken on the same page (the same relation and href). */
export function brokenAnew(link: ResolvedLink, before: RevisionLinks): boolean {
  return (
    link.status === 'broken' &&
    !before.byPage.get(link.pageId)?.some((b) => b.status === 'broken' && b.relation === link.relation && b.href === link.href)
  )
}
